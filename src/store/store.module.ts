import { Global, Logger, Module } from '@nestjs/common';
import { discoverRoots } from '../brain/roots';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** Where the store reads from, and whether that is the shipped example home. */
export class StoreSource {
  constructor(
    readonly geminiHome: string,
    readonly brainRoots: string[],
    readonly isExample: boolean,
  ) {}
}

/**
 * Chooses the brain home (the configured one, or the shipped example when no brain root
 * exists at all) and provides the one BrainStore of the process.
 */
export async function chooseSource(config: AppConfig): Promise<StoreSource> {
  const roots = await discoverRoots(config.geminiHome, config.brainRoots);
  if (roots.length > 0) return new StoreSource(config.geminiHome, config.brainRoots, false);
  return new StoreSource(config.exampleHome, [], true);
}

@Global()
@Module({
  providers: [
    {
      provide: StoreSource,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => chooseSource(config),
    },
    {
      provide: BrainStore,
      inject: [APP_CONFIG, StoreSource],
      useFactory: (config: AppConfig, source: StoreSource) => {
        const log = new Logger('Scan');
        return new BrainStore({
          geminiHome: source.geminiHome,
          brainRoots: source.brainRoots,
          rescanMs: config.rescanMs,
          cacheBytes: config.cacheMaxMb * 1024 * 1024,
          onScanProgress: (done, total) => {
            if (total !== null && done % 2048 === 0)
              log.log(`scan: read the first records of ${done} of ${total} sessions`);
          },
        });
      },
    },
  ],
  exports: [BrainStore, StoreSource],
})
export class StoreModule {}
