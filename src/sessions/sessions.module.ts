import { Module } from '@nestjs/common';
import { ProblemResolver } from './problem.resolver';
import { SessionsResolver } from './sessions.resolver';
import { SessionsService } from './sessions.service';

@Module({
  providers: [SessionsResolver, SessionsService, ProblemResolver],
  exports: [SessionsService],
})
export class SessionsModule {}
