import type { IndexedStats } from '../index/home-index';
import { TimeBucket, type TimeBucketStats } from './stats.model';

/** Buckets one timeline may answer: more than a year of hours. */
export const MAX_TIMELINE_BUCKETS = 10_000;
/** Buckets a timeline is assumed to hold when a query is costed (a dashboard's range). */
export const TIMELINE_LIST_SIZE = 100;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The UTC start of the bucket holding `ms`; weeks start on Monday (1970-01-01 was a Thursday). */
export function bucketStart(ms: number, bucket: TimeBucket): number {
  switch (bucket) {
    case TimeBucket.HOUR:
      return Math.floor(ms / HOUR) * HOUR;
    case TimeBucket.DAY:
      return Math.floor(ms / DAY) * DAY;
    case TimeBucket.WEEK: {
      const day = Math.floor(ms / DAY);
      return (day - ((((day + 3) % 7) + 7) % 7)) * DAY;
    }
    case TimeBucket.MONTH: {
      // Not Date.UTC: it reads the years 0-99 as 1900-1999.
      const d = new Date(ms);
      return new Date(0).setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** What a timeline is made of: each matching session's createdAt and its indexed stats. */
export interface TimelineSource {
  createdAt: number;
  indexed: IndexedStats | null;
}

/**
 * Non-empty buckets, ascending. Steps (and failed commands, at the step holding the call) come
 * pre-counted by UTC hour, and every bucket starts on
 * an hour, so adding hours up is exact. A step without a valid created_at is where its
 * Step.createdAt puts it: at the session's createdAt.
 */
export function timeline(
  sources: readonly TimelineSource[],
  bucket: TimeBucket,
): TimeBucketStats[] {
  const buckets = new Map<number, [number, number, number, number, number]>();
  const at = (ms: number) => {
    const start = bucketStart(ms, bucket);
    let b = buckets.get(start);
    if (!b) buckets.set(start, (b = [0, 0, 0, 0, 0]));
    return b;
  };
  for (const s of sources) {
    const stats = s.indexed?.stats;
    const timed = Number.isFinite(s.createdAt);
    if (timed) at(s.createdAt)[0]++;
    const steps: (readonly [number, number, number, number, number])[] = stats?.hours ?? [];
    const [n, calls, errs, failed] = stats?.untimed ?? [0, 0, 0, 0];
    const rest = timed && n > 0 ? [[s.createdAt, n, calls, errs, failed] as const] : [];
    for (const [time, count, toolCalls, errors, failedCommands] of [...steps, ...rest]) {
      const b = at(time);
      b[1] += count;
      b[2] += toolCalls;
      b[3] += errors;
      b[4] += failedCommands;
    }
  }
  return [...buckets]
    .sort((a, b) => a[0] - b[0])
    .map(([start, [sessions, steps, toolCalls, errors, failedCommands]]) => ({
      start: new Date(start),
      sessions,
      steps,
      toolCalls,
      errors,
      failedCommands,
    }));
}
