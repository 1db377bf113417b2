import { Global, Module } from '@nestjs/common';
import { GraphqlErrorsLogPlugin } from './graphql-errors-log.plugin';
import { GraphqlMetricsPlugin } from './graphql-metrics.plugin';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** What an operator needs beside the API: metrics (logging is wired in AppModule). */
@Global()
@Module({
  providers: [MetricsService, GraphqlMetricsPlugin, GraphqlErrorsLogPlugin],
  controllers: [MetricsController],
  exports: [MetricsService],
})
export class OpsModule {}
