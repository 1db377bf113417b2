import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { RateLimitModule } from '../graphql/limits/rate-limit.module';
import { HttpErrorFilter } from './error.filter';
import { FilesController } from './files.controller';
import { HealthController } from './health.controller';

@Module({
  imports: [RateLimitModule],
  controllers: [HealthController, FilesController],
  providers: [{ provide: APP_FILTER, useClass: HttpErrorFilter }],
})
export class HttpModule {}
