import type { ParsedView } from '../brain/transcript/parsed-view';
import { isAppendOnly, sameView, type ViewSource } from '../brain/transcript/view';
import type { StepRecord } from '../brain/types';

/** Records handed to the transport per read of the view (replays go out in slices). */
const SLICE = 256;

/** What identifies a record across a rewrite of its file: its step_index, type, time and text. */
function fingerprint(r: StepRecord | undefined): string | null {
  if (!r) return null;
  return JSON.stringify([r.index, r.type, r.createdAt?.getTime() ?? null, r.content]);
}

export interface StepSource {
  /** The session's compact view as the store parses it now (null: no transcript). */
  read(): Promise<ParsedView | null>;
  /** False once the session is gone: the stream then ends. */
  listed(): boolean;
}

/**
 * `steps(sessionId, fromPosition)`: every record of the compact view from `fromPosition`, then
 * each record as its line is completed (a partial last line waits). It holds a position, not
 * records: the records live in the store's parsed view, shared by every subscriber, so a
 * consumer that reads slowly costs a number, not a queue. `wake()` says the view may have
 * changed (the change feed calls it).
 *
 * A view replaced or shorter than before (rotated, truncated, rewritten) restarts from the
 * new file without duplicates or gaps: when the new view holds, at the last position sent, the
 * same record (same step_index, type, created_at and content), sending resumes after it
 * (the file was rewritten with the same beginning); otherwise the new file is a new transcript
 * and is sent from its first record (position 0).
 */
export class StepStream implements AsyncIterableIterator<StepRecord> {
  private batch: StepRecord[] = [];
  private view: ViewSource | null = null;
  /** The parsed view last read (weak: the store's cache decides how long it lives). */
  private parsed: WeakRef<ParsedView> | null = null;
  private last: string | null = null;
  private signalled = false;
  private waiting: (() => void) | null = null;
  private ended = false;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly source: StepSource,
    private position: number,
    /** False (WATCH=off): nothing would say the view grew, so the stream ends after its replay. */
    private readonly follow = true,
  ) {}

  onEnd(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  wake(): void {
    this.signalled = true;
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  async next(): Promise<IteratorResult<StepRecord>> {
    for (;;) {
      if (this.ended) return { value: undefined, done: true };
      const record = this.batch.shift();
      if (record) return { value: record, done: false };
      this.signalled = false;
      const parsed = await this.source.read();
      if (this.ended) continue;
      if (parsed) this.take(parsed);
      else if (!this.source.listed()) await this.return();
      if (this.batch.length === 0) {
        if (!this.follow) await this.return();
        else await this.wait();
      }
    }
  }

  private take(parsed: ParsedView): void {
    const records = parsed.completeRecords;
    // A view the store parsed afresh (not extended in place) may hold other records at the
    // positions already sent: a file rewritten in place grows like an append.
    const fresh = this.parsed !== null && this.parsed.deref() !== parsed;
    this.parsed = new WeakRef(parsed);
    const moved =
      this.view && !sameView(this.view, parsed.view) && !isAppendOnly(this.view, parsed.view);
    if (moved || fresh) {
      if (this.last !== null && fingerprint(records[this.position - 1]) !== this.last) {
        this.position = 0;
      }
    }
    this.view = parsed.view;
    if (this.last === null && this.position > 0)
      this.last = fingerprint(records[this.position - 1]);
    if (records.length <= this.position) return;
    this.batch = records.slice(this.position, this.position + SLICE);
    this.position += this.batch.length;
    this.last = fingerprint(records[this.position - 1]);
  }

  private wait(): Promise<void> {
    if (this.signalled || this.ended) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<StepRecord>> {
    if (!this.ended) {
      this.ended = true;
      this.batch = [];
      for (const c of this.cleanups.splice(0)) c();
      this.wake();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<StepRecord>> {
    return this.return().then(() => Promise.reject(error as Error));
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StepRecord> {
    return this;
  }
}
