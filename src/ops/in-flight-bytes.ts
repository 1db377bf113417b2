/**
 * The process's budget of large values in flight (LARGE_VALUES_MB): bytes read from disk for
 * answers not yet sent. MAX_RESPONSE_BYTES bounds one answer; this bounds their sum, so memory
 * stays bounded whatever the concurrency (a 32 MB value costs several copies on its way out:
 * the bytes read, the parsed string, the serialized response).
 *
 * A holder (one answer) is given its bytes when they fit, or when it is the only holder (one
 * answer alone always runs; MAX_RESPONSE_BYTES bounds it). Otherwise it waits, first come
 * first served, until enough is released or its wait ends (then it is refused).
 *
 * Hold and wait: an answer reads its values one at a time, so it may wait for a second value
 * while it holds a first. Two answers doing that at once could each wait for what the other
 * holds (four exports of an 8.6 MB step did, for good: each held one read of its line and
 * waited for the second). So at most one holder waits while holding: it goes ahead of those
 * that hold nothing (what it holds comes back sooner once it is served), and any other holder
 * that holds bytes and does not fit is refused at once, so what it holds comes back (its answer
 * fails or retries from nothing) and the one waiting gets room.
 */
/** Values read whole from disk from this size on count against LARGE_VALUES_MB. */
export const LARGE_VALUE_BYTES = 64 * 1024;
/** How long an answer waits for room among the large values in flight before RATE_LIMITED. */
export const LARGE_VALUE_WAIT_MS = 2000;

export interface Holder {
  /** Bytes this answer holds now. */
  held: number;
  /**
   * Set by `close` once the answer's response is gone: whatever is still taken for it then
   * would never be given back, so nothing more is.
   */
  closed?: boolean;
}

interface Waiter {
  holder: Holder;
  bytes: number;
  grant: (ok: boolean) => void;
}

/**
 * What a full-tier value costs in memory on its way out, as a multiple of its size: measured on
 * the compiled server (README "Memory bounds"), one 32 MB `content(full: true)` raised its peak
 * RSS by 123 to 126 MiB over GraphQL and REST, with or without REDACT (the parsed value, the
 * serialized response and its send buffer; the bytes read and the line's string are collected
 * once parsed: `settle`). It was 188 to 190 MiB before that collection.
 */
export const LARGE_VALUE_COST = 4;

/**
 * Released values at least this large are collected (a full GC) before the next waiting answer
 * is granted: otherwise the garbage of each answer served one after the other piles up until
 * V8 decides to collect, and the sum is what the budget was meant to bound.
 */
export const COLLECT_BYTES = 8 * 1024 * 1024;

export interface InFlightOptions {
  /**
   * What a value costs in memory on its way out, as a multiple of its size on disk (the bytes
   * read, the line's string, the parsed value, the serialized response, its send buffer): what
   * a holder is charged. 1 when unset.
   */
  costFactor?: number;
  /** Frees the garbage of released values (a full GC); none: not collected here. */
  collect?: (() => void) | null;
}

export class InFlightBytes {
  private used = 0;
  private readonly queue: Waiter[] = [];
  private readonly costFactor: number;
  private readonly collect: (() => void) | null;
  private collecting = false;

  constructor(
    readonly capacity: number,
    options: InFlightOptions = {},
  ) {
    this.costFactor = options.costFactor ?? 1;
    this.collect = options.collect ?? null;
  }

  /** Bytes held now, by all answers. */
  get inFlight(): number {
    return this.used;
  }

  private fits(holder: Holder, bytes: number): boolean {
    return this.used + bytes <= this.capacity || this.used === holder.held;
  }

  /**
   * Resolves true once a value of `valueBytes` is added to `holder`'s (charged `costFactor`
   * times its size), false when `waitMs` pass first.
   */
  take(holder: Holder, valueBytes: number, waitMs: number): Promise<boolean> {
    if (holder.closed) return Promise.resolve(false);
    const bytes = Math.ceil(valueBytes * this.costFactor);
    if (this.queue.length === 0 && !this.collecting && this.fits(holder, bytes)) {
      this.grant(holder, bytes);
      return Promise.resolve(true);
    }
    if (waitMs <= 0) return Promise.resolve(false);
    // Background work (Infinity) is never refused; any other holder waits while holding only
    // when no other one does (see the class comment).
    if (holder.held > 0 && waitMs !== Infinity && this.otherHoldingWaiter(holder)) {
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { holder, bytes, grant: resolve };
      this.enqueue(waiter);
      // It may fit now: ahead of the others, nothing holding nothing goes before it.
      if (!this.collecting) this.wake();
      if (waitMs === Infinity) return; // background work: waits its turn, is never refused
      const timer = setTimeout(() => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(false);
        this.wake(); // the next one may fit where this one did not
      }, waitMs);
      timer.unref();
      waiter.grant = (ok) => {
        clearTimeout(timer);
        resolve(ok);
      };
    });
  }

  /**
   * Adds a value to `holder`'s at once, past the capacity if need be: for background work that
   * must not wait while it holds (a session worker's batch after its first value, see
   * session-pool.ts: two such holders waiting for each other would wait for good). Answers then
   * wait for it as for any holder's bytes.
   */
  forceTake(holder: Holder, valueBytes: number): void {
    if (holder.closed) return;
    this.grant(holder, Math.ceil(valueBytes * this.costFactor));
  }

  /**
   * Collects now when a value of `valueBytes` (at least COLLECT_BYTES) was just read: its raw
   * bytes and line string are garbage once parsed, and freeing them before the answer is
   * serialized keeps those copies from adding to the serialized ones.
   */
  settle(valueBytes: number): void {
    if (this.collect && valueBytes >= COLLECT_BYTES) this.collect();
  }

  /**
   * Gives back `bytes` of what `holder` holds (all of it by default; a part: what one failed
   * part of an answer took, while the parts before it are still being written).
   */
  release(holder: Holder, bytes: number = holder.held): void {
    const freed = Math.min(holder.held, Math.max(0, bytes));
    if (freed === 0) return;
    this.used -= freed;
    holder.held -= freed;
    if (!this.collect || freed < COLLECT_BYTES * this.costFactor || this.collecting) {
      if (!this.collecting) this.wake();
      return;
    }
    // Once the answer's last references are gone (the response that closed is still on the
    // stack here), collect, then let the next ones in: each starts without the last one's copies.
    this.collecting = true;
    setImmediate(() => {
      try {
        this.collect!();
      } finally {
        this.collecting = false;
        this.wake();
      }
    });
  }

  /**
   * Gives back everything `holder` holds for good (its response closed, whether sent, failed or
   * dropped by the client): its waits are refused and whatever it asks for later is refused too,
   * since no 'close' would come to give that back.
   */
  close(holder: Holder): void {
    holder.closed = true;
    for (const waiter of this.queue.filter((w) => w.holder === holder)) {
      this.queue.splice(this.queue.indexOf(waiter), 1);
      waiter.grant(false);
    }
    if (holder.held > 0) this.release(holder);
    else if (!this.collecting) this.wake(); // a waiter of its own may have been the first
  }

  private otherHoldingWaiter(holder: Holder): boolean {
    return this.queue.some((w) => w.holder !== holder && w.holder.held > 0);
  }

  /** A holder holding bytes goes before the waiters that hold nothing; the rest in order. */
  private enqueue(waiter: Waiter): void {
    const at = waiter.holder.held > 0 ? this.queue.findIndex((w) => w.holder.held === 0) : -1;
    if (at < 0) this.queue.push(waiter);
    else this.queue.splice(at, 0, waiter);
  }

  private grant(holder: Holder, bytes: number): void {
    this.used += bytes;
    holder.held += bytes;
  }

  /** Grants waiting holders in order while the first one fits. */
  private wake(): void {
    while (
      !this.collecting &&
      this.queue.length > 0 &&
      this.fits(this.queue[0].holder, this.queue[0].bytes)
    ) {
      const next = this.queue.shift()!;
      this.grant(next.holder, next.bytes);
      next.grant(true);
    }
  }
}
