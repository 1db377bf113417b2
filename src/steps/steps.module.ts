import { Module } from '@nestjs/common';
import { SessionStepsResolver, StepOutputResolver, StepsResolver } from './steps.resolver';
import { StepsService } from './steps.service';

@Module({
  providers: [StepsService, SessionStepsResolver, StepsResolver, StepOutputResolver],
  exports: [StepsService],
})
export class StepsModule {}
