/**
 * The process's budget of large values in flight (LARGE_VALUES_MB): bytes read from disk for
 * answers not yet sent. MAX_RESPONSE_BYTES bounds one answer; this bounds their sum, so memory
 * stays bounded whatever the concurrency (a 32 MB value costs several copies on its way out:
 * the bytes read, the parsed string, the serialized response).
 *
 * A holder (one answer) is given its bytes when they fit, or when it is the only holder (one
 * answer alone always runs; MAX_RESPONSE_BYTES bounds it). Otherwise it waits, first come
 * first served, until enough is released or its wait ends (then it is refused).
 */
export interface Holder {
  /** Bytes this answer holds now. */
  held: number;
}

interface Waiter {
  holder: Holder;
  bytes: number;
  grant: (ok: boolean) => void;
}

export class InFlightBytes {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly capacity: number) {}

  /** Bytes held now, by all answers. */
  get inFlight(): number {
    return this.used;
  }

  private fits(holder: Holder, bytes: number): boolean {
    return this.used + bytes <= this.capacity || this.used === holder.held;
  }

  /** Resolves true once `bytes` are added to `holder`'s, false when `waitMs` pass first. */
  take(holder: Holder, bytes: number, waitMs: number): Promise<boolean> {
    if (this.queue.length === 0 && this.fits(holder, bytes)) {
      this.grant(holder, bytes);
      return Promise.resolve(true);
    }
    if (waitMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = { holder, bytes, grant: resolve };
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
      this.queue.push(waiter);
    });
  }

  /** Gives back everything `holder` holds. */
  release(holder: Holder): void {
    if (holder.held === 0) return;
    this.used -= holder.held;
    holder.held = 0;
    this.wake();
  }

  private grant(holder: Holder, bytes: number): void {
    this.used += bytes;
    holder.held += bytes;
  }

  /** Grants waiting holders in order while the first one fits. */
  private wake(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0].holder, this.queue[0].bytes)) {
      const next = this.queue.shift()!;
      this.grant(next.holder, next.bytes);
      next.grant(true);
    }
  }
}
