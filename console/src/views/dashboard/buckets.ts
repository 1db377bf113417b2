/** A timeline bucket as the API answers it: its UTC start, then its counts. */
export interface Bucket {
  start: string;
}

/** The API's buckets stop at this many; a filled axis does too (its empty ones are cheap). */
const MAX_BUCKETS = 10_000;

function next(t: number, bucket: string): number {
  const d = new Date(t);
  if (bucket === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return t + (bucket === 'week' ? 7 : 1) * 86_400_000;
}

/**
 * The API's non-empty buckets with the empty ones between them (`empty(start)`), so the date
 * axis is continuous: a day with no session is a bar of 0, not a day left out (the axis read
 * 07-01, 07-04 as if they followed each other). Starts are written as the API writes them.
 */
export function continuous<T extends Bucket>(
  buckets: readonly T[],
  bucket: string,
  empty: (start: string) => T,
): T[] {
  if (buckets.length < 2) return [...buckets];
  const byStart = new Map(buckets.map((b) => [Date.parse(b.start), b]));
  const last = Date.parse(buckets[buckets.length - 1].start);
  const out: T[] = [];
  for (let t = Date.parse(buckets[0].start); t <= last; t = next(t, bucket)) {
    if (out.length >= MAX_BUCKETS) return [...buckets];
    out.push(byStart.get(t) ?? empty(new Date(t).toISOString()));
  }
  // A start the stepping missed (a bucket not on the API's grid): the answer as it came.
  return out.length >= buckets.length && buckets.every((b) => out.includes(b)) ? out : [...buckets];
}
