import { InFlightBytes } from '../ops/in-flight-bytes';
import { IngestTraffic } from '../ops/ingest-traffic';
import { RateLimitModule } from '../graphql/limits/rate-limit.module';
import {
  Global,
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MetricsService } from '../ops/metrics.service';
import { DeferredLog } from './deferred-log';
import { HOME_INDEX } from './home-index';
import { registerIndexMetrics } from './index.metrics';
import { SqliteHomeIndex } from './sqlite/sqlite-home-index';

/**
 * The home index: opened (or rebuilt) before the first scan, so the scan and the first
 * listing reuse what an earlier run stored; built and kept up to date in the background once
 * the application is up; closed at shutdown.
 */
@Global()
@Module({
  imports: [RateLimitModule],
  providers: [
    { provide: DeferredLog, useFactory: () => new DeferredLog(new Logger('Index')) },
    {
      provide: HOME_INDEX,
      inject: [APP_CONFIG, BrainStore, DeferredLog, InFlightBytes, IngestTraffic],
      useFactory: (
        config: AppConfig,
        store: BrainStore,
        log: DeferredLog,
        largeValues: InFlightBytes,
        ingestTraffic: IngestTraffic,
      ) =>
        new SqliteHomeIndex(store, {
          cacheDir: config.cacheDir,
          redact: config.redact,
          redactPatterns: config.redactPatterns,
          maxRecordBytes: store.transcripts.maxRecordBytes,
          engine: config.indexEngine,
          sessionWorkers: config.indexWorkers,
          log,
          largeValues,
          ingestTraffic,
        }),
    },
  ],
  exports: [HOME_INDEX],
})
export class IndexModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(HOME_INDEX) private readonly index: SqliteHomeIndex,
    private readonly store: BrainStore,
    private readonly metrics: MetricsService,
    private readonly log: DeferredLog,
  ) {}

  onApplicationBootstrap(): void {
    registerIndexMetrics(this.metrics.registry, this.index, this.store, Date.now());
    const { sessions, complete } = this.index.totals();
    const where = this.index.file ?? 'memory (see the warning above)';
    this.log.flush();
    this.log.log(
      `home index in ${where}: ${complete} of ${sessions} sessions kept from an earlier run; building in the background`,
    );
    this.index.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.index.close();
  }
}
