import { BrainStore } from '../src/brain/store';
import { SqliteHomeIndex } from '../src/index/sqlite/sqlite-home-index';
import type { StageClock } from '../src/index/stage-clock';
import { sleep } from './stats';

/** A store and its home index over the bench home, as the app wires them (IndexModule). */

export interface Opened {
  store: BrainStore;
  index: SqliteHomeIndex;
}

/** Progress lines are the app's, not the bench's; warnings still show. */
const LOG = { log: () => undefined, warn: (m: string) => console.warn(`index: ${m}`) };

export function openIndex(
  home: string,
  roots: string[],
  cacheDir: string,
  stageClock?: StageClock,
): Opened {
  const store = new BrainStore({ geminiHome: home, brainRoots: roots, rescanMs: 3_600_000 });
  const index = new SqliteHomeIndex(store, {
    cacheDir,
    redact: true,
    redactPatterns: [],
    maxRecordBytes: store.transcripts.maxRecordBytes,
    stageClock,
    log: LOG,
  });
  return { store, index };
}

/**
 * Resolves when a pass of the indexer ends after `since` (its lastPassStartedAt). caughtUp() is not
 * used: called during a pass it also waits out the pause after it, which is not build time.
 */
export async function passEnd(index: SqliteHomeIndex, since: number, limitMs = 3_600_000) {
  const t0 = performance.now();
  while (index.progress.lastPassStartedAt === since) {
    if (performance.now() - t0 > limitMs) throw new Error('the indexer did not end a pass');
    await sleep(2);
  }
  return performance.now();
}
