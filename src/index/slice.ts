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

/**
 * Quiet: no request arrived for this long. The indexer then reads small files with synchronous
 * calls (`readsInline`): nobody is waiting for the thread, and every read through the thread
 * pool was a round trip of 0.3-0.7 ms on 2 loaded cores (a first build of the bench home made
 * three to five per session, most of its read stage). While requests arrive, they read through
 * the pool as before: there the thread's waits on the pool are the turns the requests beside
 * the build get (figure 9p; synchronous reads regardless of requests made the page 3.3-6.6x).
 */
export const QUIET_MS = 1000;

/** When the last request arrived (performance.now()). */
let lastRequest = -Infinity;

/** A request arrived (the HTTP server calls this for every one, see app.factory.ts). */
export function requestArrived(): void {
  lastRequest = performance.now();
}

/** No request arrived for QUIET_MS. */
export function quiet(): boolean {
  return performance.now() - lastRequest >= QUIET_MS;
}
