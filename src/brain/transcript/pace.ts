import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done between two turns of the event loop. */
const SLICE_MS = 10;

/**
 * A loop over data already in memory never gives the event loop a turn by itself (awaiting
 * settled promises is not enough), so a timer (the request's deadline) could not fire in it.
 * `pace()` yields every SLICE_MS, letting timers and other requests run, and throws the
 * signal's reason once the signal is aborted.
 */
export class Pacer {
  private last = performance.now();

  constructor(private readonly signal?: AbortSignal) {}

  async pace(): Promise<void> {
    this.signal?.throwIfAborted();
    if (performance.now() - this.last < SLICE_MS) return;
    await nextTurn();
    this.last = performance.now();
    this.signal?.throwIfAborted();
  }
}
