/**
 * Pushes come before the home index. Both run on the main thread, and indexing a pushed home
 * costs several times what writing it does (parsing, redaction, FTS5 at a few MB/s), so an
 * index that kept pace with a bulk push would halve its throughput. The ingest routes mark
 * their requests here; the indexer asks `quiet()` before each session and waits while
 * requests keep arriving, then catches up in the first pause. The wait is bounded (`maxMs`
 * per session), so a server that is pushed to nonstop still indexes, only more slowly.
 */
export class IngestTraffic {
  private active = 0;
  private lastEnd = 0;

  constructor(
    /** The pause between requests after which the index resumes. */
    readonly quietMs = 300,
    /** The longest one session's indexing waits for a pause. */
    readonly maxMs = 2000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** An ingest request began; call the returned function once, when it has been answered. */
  begin(): () => void {
    this.active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      this.lastEnd = this.now();
    };
  }

  /** No request in flight, and none ended in the last `quietMs`. */
  isQuiet(): boolean {
    return this.active === 0 && this.now() - this.lastEnd >= this.quietMs;
  }

  /**
   * Resolves at once when quiet; else once it is (checked every `quietMs / 3`), or after
   * `maxMs` at most, or when `signal` aborts. Returns how long it waited.
   */
  async quiet(signal?: AbortSignal): Promise<number> {
    if (this.isQuiet()) return 0;
    const started = this.now();
    const step = Math.max(10, Math.floor(this.quietMs / 3));
    while (!this.isQuiet() && this.now() - started < this.maxMs && !signal?.aborted)
      await new Promise((resolve) => setTimeout(resolve, step));
    return this.now() - started;
  }
}
