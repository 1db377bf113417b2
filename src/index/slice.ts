/**
 * How long the indexer holds the thread that answers requests before it lets the event loop
 * turn. Between its awaits a session's parsing, redaction and rows (and its folder listings,
 * read synchronously) ran as one slice of the thread: 6 ms at the median on the small bench
 * home, tens of ms for a larger one, and a request waited for a whole slice at each of its own
 * awaits (figure 9p: the newest-20 page 2.8-3.1x its time after the build, issue 22 bounds it
 * at 1.5x). Small files are read through the thread pool again: read synchronously they kept
 * the thread from ever waiting on it (9p 3.3-6.6x).
 */
export const SLICE_MS = 1;

/** When this thread's indexer last let the event loop turn. */
let since = 0;

/** The event loop just turned (the pass's yield between sessions): a new slice starts. */
export function sliceStarted(): void {
  since = performance.now();
}

/**
 * Lets the event loop turn (setImmediate: pending I/O, a request's, runs first) once the
 * current slice has held the thread for SLICE_MS; otherwise returns at once (a check of the
 * clock, so callers may ask often: per record, per file).
 */
export async function endSliceIfLong(): Promise<void> {
  if (performance.now() - since < SLICE_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  since = performance.now();
}
