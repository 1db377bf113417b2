/**
 * The async iterator a subscription's source is: values wait in a queue until the transport
 * pulls them; `return()` (the client left) ends it at once, even while a pull waits. The
 * queue is capped: a consumer that leaves more than `cap` values waiting is failed with
 * `overflow()` rather than let the server's memory grow without bound.
 */
export class Channel<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting: (() => void) | null = null;
  private ended = false;
  private failure: Error | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly cap: number,
    private readonly overflow: (cap: number) => Error,
  ) {}

  /** Runs once when the channel ends, however it ends. */
  onEnd(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  get closed(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.queue.length >= this.cap) {
      this.fail(this.overflow(this.cap));
      return;
    }
    this.queue.push(value);
    this.wake();
  }

  /** Ends the channel with `error`: what was queued is dropped, the next pull throws it. */
  fail(error: Error): void {
    if (this.ended) return;
    this.failure = error;
    this.queue.length = 0;
    this.end();
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.queue.length > 0) return { value: this.queue.shift()!, done: false };
      if (this.failure) {
        const error = this.failure;
        this.failure = null;
        throw error;
      }
      if (this.ended) return { value: undefined, done: true };
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.failure = null;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    return this.return().then(() => Promise.reject(error as Error));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  /** Ends normally once what is queued has been pulled. */
  end(): void {
    if (!this.ended) {
      this.ended = true;
      for (const c of this.cleanups.splice(0)) c();
    }
    this.wake();
  }

  protected wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }
}
