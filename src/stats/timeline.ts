import type { IndexedStats } from '../index/home-index';
import { TimeBucket, type TimeBucketStats } from './stats.model';

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
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** What a timeline is made of: each matching session's createdAt and its indexed stats. */
export interface TimelineSource {
  createdAt: number;
  indexed: IndexedStats | null;
}

/**
 * Non-empty buckets, ascending. Steps come pre-counted by UTC hour, and every bucket starts on
 * an hour, so adding hours up is exact.
 */
export function timeline(
  sources: readonly TimelineSource[],
  bucket: TimeBucket,
): TimeBucketStats[] {
  const buckets = new Map<number, [number, number, number, number]>();
  const at = (ms: number) => {
    const start = bucketStart(ms, bucket);
    let b = buckets.get(start);
    if (!b) buckets.set(start, (b = [0, 0, 0, 0]));
    return b;
  };
  for (const s of sources) {
    if (Number.isFinite(s.createdAt)) at(s.createdAt)[0]++;
    for (const [hour, steps, toolCalls, errors] of s.indexed?.stats.hours ?? []) {
      const b = at(hour);
      b[1] += steps;
      b[2] += toolCalls;
      b[3] += errors;
    }
  }
  return [...buckets]
    .sort((a, b) => a[0] - b[0])
    .map(([start, [sessions, steps, toolCalls, errors]]) => ({
      start: new Date(start),
      sessions,
      steps,
      toolCalls,
      errors,
    }));
}
