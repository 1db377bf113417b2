import { Global, Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { InFlightBytes } from '../ops/in-flight-bytes';
import { MetricsService } from '../ops/metrics.service';
import { Redactor } from '../redaction/redactor';
import { defaultRedactWorkers, RedactPool, setOffload } from './redact-pool';

/**
 * With REDACT=on, large values are masked in worker threads (./redact-pool): the GraphQL and
 * REST answers (src/graphql/redaction-field.ts) and whole-file downloads (src/http/send-file.ts)
 * find the pool through the process's Redactor. The workers start with the first large value.
 */
@Global()
@Module({
  providers: [
    {
      provide: RedactPool,
      inject: [APP_CONFIG, Redactor, MetricsService, InFlightBytes],
      useFactory: (
        config: AppConfig,
        redactor: Redactor,
        metrics: MetricsService,
        largeValues: InFlightBytes,
      ) => {
        const options = { enabled: config.redact, extraPatterns: config.redactPatterns };
        const pool = new RedactPool(
          redactor,
          options,
          defaultRedactWorkers(),
          (kind, n) => metrics.redactions.inc({ kind }, n),
          largeValues,
        );
        if (config.redact) setOffload(redactor, pool);
        return pool;
      },
    },
  ],
  exports: [RedactPool],
})
export class OffloadModule implements OnModuleDestroy {
  constructor(
    @Inject(RedactPool) private readonly pool: RedactPool,
    @Inject(Redactor) private readonly redactor: Redactor,
  ) {}

  async onModuleDestroy(): Promise<void> {
    setOffload(this.redactor, null);
    await this.pool.close();
  }
}
