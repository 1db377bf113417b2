import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MetricsService } from '../ops/metrics.service';
import { Redactor } from './redactor';

/**
 * The process's one Redactor (REDACT, REDACT_PATTERNS), counting what it masks in
 * brainql_redactions_total. The rest of src/redaction is framework-free.
 */
@Global()
@Module({
  providers: [
    {
      provide: Redactor,
      inject: [APP_CONFIG, MetricsService],
      useFactory: (config: AppConfig, metrics: MetricsService) =>
        new Redactor({ enabled: config.redact, extraPatterns: config.redactPatterns }, (kind) =>
          metrics.redactions.inc({ kind }),
        ),
    },
  ],
  exports: [Redactor],
})
export class RedactionModule {}
