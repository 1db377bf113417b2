/**
 * Cost points per minute per caller, as a token bucket: each caller's bucket holds up to
 * `perMinute` points and refills continuously at `perMinute` per minute; a query takes its cost
 * before it runs. A query costing more than a whole minute's points runs when the bucket is
 * full and leaves it in debt, so a caller's average stays at `perMinute`. The points taken up
 * front are an estimate; `settle` corrects the bucket by what the query actually cost.
 *
 * Memory is bounded: a bucket idle long enough to be full again is the same as no bucket and is
 * dropped (checked on every call, oldest first), and beyond `maxCallers` the least recently
 * seen callers are forgotten (they start again with a full bucket).
 */
export type RateVerdict =
  { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  points: number;
  at: number;
}

export class RateLimiter {
  /** Least recently used first (Map keeps insertion order; a touched key is re-inserted). */
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    readonly maxCallers = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  get size(): number {
    return this.buckets.size;
  }

  private pointsOf(bucket: Bucket | undefined, now: number): number {
    if (!bucket) return this.perMinute;
    return Math.min(this.perMinute, bucket.points + (now - bucket.at) * this.perMs);
  }

  /**
   * Takes `cost` points from `caller`'s bucket, or says how long until it could. `taken`: points
   * the same request took before (a download's 1 for asking): a cost over the whole bucket runs
   * when the bucket holds all but those, or a file dearer than a minute's points answered 429
   * "retry in 1 s" forever (review 22: its own point had kept the bucket from ever being full).
   */
  take(caller: string, cost: number, taken = 0): RateVerdict {
    const now = this.now();
    this.evictIdle(now);
    const bucket = this.buckets.get(caller);
    const points = this.pointsOf(bucket, now);
    const needed = Math.min(cost, Math.max(0, this.perMinute - taken));
    if (points < needed) {
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((needed - points) / this.perMs / 1000)),
      };
    }
    this.buckets.delete(caller);
    this.buckets.set(caller, { points: points - cost, at: now });
    while (this.buckets.size > this.maxCallers) {
      this.buckets.delete(this.buckets.keys().next().value as string);
    }
    return { ok: true, remaining: Math.max(0, Math.floor(points - cost)) };
  }

  /**
   * Adjusts a caller's bucket once a query has run: `delta` points back (positive, when it cost
   * less than was taken) or more taken (negative, when it cost more).
   */
  settle(caller: string, delta: number): void {
    if (delta === 0) return;
    const now = this.now();
    const bucket = this.buckets.get(caller);
    if (!bucket && delta > 0) return; // already full
    this.buckets.delete(caller);
    this.buckets.set(caller, {
      points: Math.min(this.perMinute, this.pointsOf(bucket, now) + delta),
      at: now,
    });
  }

  /** Drops buckets (oldest first) that have refilled completely. */
  private evictIdle(now: number): void {
    for (const [caller, bucket] of this.buckets) {
      if (this.pointsOf(bucket, now) < this.perMinute) break;
      this.buckets.delete(caller);
    }
  }
}
