import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import * as path from 'node:path';
import { BrainStore } from '../brain/store';
import { fullGc } from '../ops/full-gc';
import { InFlightBytes, LARGE_VALUE_COST } from '../ops/in-flight-bytes';
import { secretNameTest } from '../redaction/names';
import { Redactor } from '../redaction/redactor';
import { chooseSource, StoreSource } from './brain-source';
import type { AppConfig } from './config';

export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Turns the validated configuration into the process's singletons: the frozen config itself,
 * the brain source it names (or the example home), the one BrainStore over it, and the one
 * budget of large values in flight.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: StoreSource, useFactory: () => chooseSource(config) },
        {
          // One budget of large values in flight for the whole process (LARGE_VALUES_MB): the
          // answers, the file routes, the home index and the store's scans all count in it.
          provide: InFlightBytes,
          useFactory: () =>
            new InFlightBytes(config.largeValuesMb * 1024 * 1024, {
              costFactor: LARGE_VALUE_COST,
              collect: fullGc(),
            }),
        },
        {
          provide: BrainStore,
          inject: [StoreSource, InFlightBytes],
          useFactory: (source: StoreSource, largeValues: InFlightBytes) => {
            const log = new Logger('Scan');
            const names = new Redactor({
              enabled: config.redact,
              extraPatterns: config.redactPatterns,
            });
            return new BrainStore({
              // REDACT=on: a folder named like a token is not served (its id is everywhere).
              withhold: secretNameTest(config),
              onWithheld: (withheld) => {
                if (withheld.length === 0) return;
                const masked = withheld.map((w) =>
                  names.redactText(path.join(w.root.path, w.name)),
                );
                log.warn(
                  `REDACT=on: ${withheld.length} session folder(s) not served because their ` +
                    `name holds a secret (rename them to serve them): ${masked.join(', ')}`,
                );
              },
              geminiHome: source.geminiHome,
              brainRoots: source.brainRoots,
              ingestDir: source.ingestDir,
              rescanMs: config.rescanMs,
              cacheBytes: config.cacheMaxMb * 1024 * 1024,
              largeValues,
              // REDACT=on: Session.userRequest cut from its input masked whole (review 18, H6).
              maskText: names.enabled ? (t) => names.redactText(t) : undefined,
              onScanProgress: (done, total) => {
                if (total !== null && done % 2048 === 0)
                  log.log(`scan: read the first records of ${done} of ${total} sessions`);
              },
            });
          },
        },
      ],
      exports: [APP_CONFIG, StoreSource, BrainStore, InFlightBytes],
    };
  }
}
