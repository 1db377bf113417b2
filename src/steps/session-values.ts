import type { BrainStore } from '../brain/store';
import { UnreadableViewError } from '../brain/transcript/scanner';
import type { SessionEntry } from '../brain/types';
import { offloadOf } from '../offload/redact-pool';
import { outputBytesLearned, outputFiles, outputValues } from './output-values';
import type { Redactor } from '../redaction/redactor';
import {
  learnedBytes,
  learnStep,
  NO_VALUES,
  tierValues,
  unionValues,
  type LearnStep,
  type TierSource,
} from '../redaction/tier-values';

/**
 * The values of every secret the redactor finds anywhere in a session's transcript, which every
 * record route masks too (review H-B): `export DB_PASSWORD=V` in one step and `it printed V` in
 * the next (or the one before) showed V clear on every record route, as nothing finds a bare
 * echo. Learned from the full view and from the compact view when it is a file of its own: the
 * full one holds every value whole, and the compact one may hold records the full one has not
 * written yet (both grow by appending, each learned once and then only from its new bytes).
 */

/**
 * How long a server request waits for a session's first learning before RATE_LIMITED: a session
 * of up to about 60 to 100 MiB is answered on its first ask (see LEARN_BYTES_PER_SECOND), within
 * the default QUERY_TIMEOUT_MS of 15 s.
 */
export const LEARN_WAIT_MS = 10_000;
/**
 * Bytes per second a Retry-After is estimated from when the wait saw no progress: what learning
 * measured on a loaded 2-core machine with its one redaction worker (6.4 to 10.5 MiB/s; 12 to 23
 * in-thread), so a retry mostly finds it learned (bench/session-values.bench.ts). Otherwise the
 * pace the wait saw.
 */
export const LEARN_BYTES_PER_SECOND = 10 * 1024 * 1024;

/** The session's values were not learned within the wait; the learning goes on. */
export class StillLearning extends Error {
  constructor(
    readonly bytes: number,
    readonly retryAfterSeconds: number,
    /** The session has step outputs, learned too (../output-values). */
    outputs = false,
  ) {
    super(
      `This session's transcript${outputs ? ' and step outputs' : ''} (${bytes} bytes) ` +
        `${outputs ? 'are' : 'is'} still being read for the secret values every record of it ` +
        'masks with redaction on; no record of it is answered before they are known. ' +
        `Retry in ${retryAfterSeconds} s.`,
    );
  }
}

/**
 * A view that cannot be read (EACCES, removed meanwhile) has nothing learned from it: what the
 * routes serve then comes from the readable one (a full value falls back to its compact one),
 * whose values are learned. Not kept: the next ask reads it again.
 */
const readable = (values: Promise<ReadonlyMap<string, string>>) =>
  values.catch((err: unknown) => {
    if (err instanceof UnreadableViewError) return NO_VALUES;
    if (typeof (err as { code?: unknown } | null)?.code === 'string') return NO_VALUES;
    throw err;
  });

/**
 * The session's values (value → kind; none with redaction off). `waitMs`: how long to wait for
 * them; past it StillLearning is thrown and the learning goes on for the next ask.
 */
export async function sessionValues(
  store: BrainStore,
  redactor: Redactor,
  entry: SessionEntry,
  waitMs = Infinity,
): Promise<ReadonlyMap<string, string>> {
  if (!redactor.enabled) return NO_VALUES;
  const tiers = await store.transcriptTiers(entry);
  const outputs = outputFiles(store, entry, tiers);
  if (tiers.length === 0 && outputs.length === 0) return NO_VALUES;
  // A large step learned in a worker when there are workers: the event loop answers meanwhile
  // (a small one costs less here than the round trip).
  const pool = offloadOf(redactor);
  const learn: LearnStep | undefined = pool
    ? (bytes, carry, last) =>
        pool.takes(bytes.length + carry.length)
          ? pool.learnStep(bytes, carry, last)
          : learnStep(redactor, bytes, carry, last)
    : undefined;
  const learnedNow = () => learned(tiers) + outputBytesLearned(entry);
  const learnedBefore = learnedNow();
  const learning = Promise.all([
    ...tiers.map((t) => readable(tierValues(redactor, t, learn))),
    ...(outputs.length > 0 ? [readable(outputValues(store, redactor, entry, outputs, learn))] : []),
  ]);
  if (waitMs === Infinity) return unionValues(await learning);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, waitMs, null)));
  try {
    const maps = await Promise.race([learning, late]);
    if (maps) return unionValues(maps);
  } finally {
    clearTimeout(timer);
  }
  // Still learning: a failure later is the next ask's (tierValues starts that session over).
  learning.catch(() => undefined);
  const bytes = tiers.reduce((n, t) => n + t.size, 0) + outputs.reduce((n, f) => n + f.size, 0);
  const retry = retrySeconds(bytes, learnedBefore, learnedNow(), waitMs);
  throw new StillLearning(bytes, retry, outputs.length > 0);
}

/**
 * Seconds until `total` bytes are learned, `before` of them learned when a wait of `waitMs`
 * started and `now` at its end: what is left at the pace that wait saw (other sessions learned
 * meanwhile share the worker: review 25 was told "Retry in 11 s" three times over 40 s), else
 * (no progress seen) at LEARN_BYTES_PER_SECOND. At least 1.
 */
export function retrySeconds(total: number, before: number, now: number, waitMs: number): number {
  const pace = now > before && waitMs > 0 ? (now - before) / (waitMs / 1000) : 0;
  return Math.max(1, Math.ceil((total - now) / (pace || LEARN_BYTES_PER_SECOND)));
}

const learned = (tiers: readonly TierSource[]) => tiers.reduce((n, t) => n + learnedBytes(t), 0);
