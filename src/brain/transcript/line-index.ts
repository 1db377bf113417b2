import {
  HEAD_BYTES,
  MAX_RECORD_BYTES,
  readViewRange,
  RecordTooLargeError,
  scanLines,
} from './scanner';
import { SNIFF_EMPTY, SNIFF_UNKNOWN, StepOrder } from './step-order';
import { ScanAborted, type Incremental } from './view-cache';
import { LastLine } from './last-line';
import { isAppendOnly, type ViewSource } from './view';

/**
 * A byte-offset index of a view's complete lines, plus the `step_index` sniffed from each
 * line's first bytes. With it, reading one record of a gigabyte transcript is one seek and one
 * read, and finding the full twin of a compact record needs no JSON parsing of other lines.
 */

export { SNIFF_EMPTY, SNIFF_UNKNOWN };

const PREFIX = Buffer.from('{"step_index":');

/** Reads `{"step_index":N` (the layout every writer uses) from `buf[from, to)` without parsing JSON. */
export function sniffStepIndex(buf: Buffer, from = 0, to = buf.length): number {
  if (to <= from) return SNIFF_EMPTY;
  if (
    to - from <= PREFIX.length ||
    buf.compare(PREFIX, 0, PREFIX.length, from, from + PREFIX.length) !== 0
  ) {
    return SNIFF_UNKNOWN;
  }
  let i = from + PREFIX.length;
  let value = 0;
  let digits = 0;
  while (i < to && buf[i] >= 48 && buf[i] <= 57 && digits < 9) {
    value = value * 10 + (buf[i] - 48);
    i++;
    digits++;
  }
  // Anything unusual (a fraction, an exponent, a huge number) is left to the real parser.
  if (digits === 0 || i >= to || (buf[i] !== 44 && buf[i] !== 125)) return SNIFF_UNKNOWN;
  return value;
}

export interface LineIndexSnapshot {
  view: ViewSource;
  committedEnd: number;
  /** Line starts (Float64, host byte order) and sniffed step indexes (Int32), `count` each. */
  starts: Buffer;
  sniffed: Buffer;
}

export class LineIndex implements Incremental {
  private starts: Float64Array;
  private sniffed: Int32Array;
  private byStep: StepOrder | null = null;
  count = 0;
  /** Offset just past the last newline; bytes beyond it are an unfinished last line. */
  committedEnd = 0;
  /** The file ended before its located size (it shrank while being indexed): rebuild next time. */
  private cutShort = false;
  /** False while a scan stopped by its signal has not reached the end of the view. */
  complete = false;
  private readonly lastLine = new LastLine();

  private constructor(
    readonly realDir: string,
    public view: ViewSource,
    /** Lines longer than this are never read whole (RecordTooLargeError). */
    readonly maxLineBytes: number,
    capacity = 1024,
  ) {
    this.starts = new Float64Array(capacity);
    this.sniffed = new Int32Array(capacity);
  }

  static async build(
    realDir: string,
    view: ViewSource,
    maxLineBytes: number = MAX_RECORD_BYTES,
    signal?: AbortSignal,
  ): Promise<LineIndex> {
    const index = new LineIndex(realDir, view, maxLineBytes);
    await index.scanFrom(0, signal);
    return index;
  }

  get reusable(): boolean {
    return !this.cutShort;
  }

  /** What `restore` needs to serve this view again without reading it (null: incomplete). */
  snapshot(): LineIndexSnapshot | null {
    if (!this.complete || this.cutShort) return null;
    return {
      view: this.view,
      committedEnd: this.committedEnd,
      starts: Buffer.from(this.starts.buffer, 0, this.count * 8),
      sniffed: Buffer.from(this.sniffed.buffer, 0, this.count * 4),
    };
  }

  /** An index as `snapshot` left it, for the same view (an earlier run's, kept by the home index). */
  static restore(realDir: string, snap: LineIndexSnapshot, maxLineBytes: number): LineIndex {
    const count = snap.sniffed.length / 4;
    const index = new LineIndex(realDir, snap.view, maxLineBytes, Math.max(1024, count));
    // Copied out: a Buffer from a database row need not be aligned for typed-array views.
    Buffer.from(index.starts.buffer).set(snap.starts);
    Buffer.from(index.sniffed.buffer).set(snap.sniffed);
    index.count = count;
    index.committedEnd = snap.committedEnd;
    index.complete = true;
    return index;
  }

  heldBy(next: ViewSource): Promise<boolean> {
    return this.lastLine.heldBy(this.realDir, next);
  }

  canExtendTo(next: ViewSource): boolean {
    return this.reusable && isAppendOnly(this.view, next);
  }

  /** Indexes what was appended since the last scan; reads only the new bytes. */
  async extendTo(next: ViewSource, signal?: AbortSignal): Promise<void> {
    this.view = next;
    this.byStep = null;
    await this.scanFrom(this.committedEnd, signal);
  }

  private async scanFrom(from: number, signal?: AbortSignal): Promise<void> {
    this.complete = false;
    const result = await scanLines(
      this.realDir,
      this.view,
      from,
      'head',
      (start, _end, buf, from, to) => {
        this.lastLine.saw(start, buf, from, to);
        this.push(start, buf ? sniffStepIndex(buf, from, to) : SNIFF_UNKNOWN);
      },
      undefined,
      undefined,
      signal,
    );
    this.committedEnd = result.committedEnd;
    if (result.aborted) throw new ScanAborted(this, signal?.reason);
    this.complete = true;
    this.cutShort = result.scannedEnd < this.view.size;
  }

  private push(start: number, sniff: number): void {
    if (this.count === this.starts.length) {
      const starts = new Float64Array(this.count * 2);
      starts.set(this.starts);
      this.starts = starts;
      const sniffed = new Int32Array(this.count * 2);
      sniffed.set(this.sniffed);
      this.sniffed = sniffed;
    }
    this.starts[this.count] = start;
    this.sniffed[this.count] = sniff;
    this.count++;
  }

  /** Byte range [start, end) of complete line `i` (0-based), without its newline. */
  range(i: number): [number, number] {
    const start = this.starts[i];
    const end = i + 1 < this.count ? this.starts[i + 1] - 1 : this.committedEnd - 1;
    return [start, end];
  }

  /** Length in bytes of complete line `i` (0-based), without its newline. */
  lineBytes(i: number): number {
    const [start, end] = this.range(i);
    return end - start;
  }

  /**
   * The bytes of complete line `i` (0-based): one read. A line longer than `maxLineBytes` is
   * not read: RecordTooLargeError.
   */
  readLine(i: number): Promise<Buffer> {
    const [start, end] = this.range(i);
    if (end - start > this.maxLineBytes) {
      return Promise.reject(
        new RecordTooLargeError(this.view.label, i + 1, end - start, this.maxLineBytes),
      );
    }
    return readViewRange(this.realDir, this.view, start, end);
  }

  /** Length of the unfinished last line (0 when the view ends with a newline). */
  get tailBytes(): number {
    return Math.max(0, this.view.size - this.committedEnd);
  }

  /**
   * The unfinished bytes after the last newline, or null. Longer than `maxLineBytes`:
   * RecordTooLargeError (sniff it with `tailHead` instead).
   */
  async readTail(): Promise<Buffer | null> {
    if (this.committedEnd >= this.view.size) return null;
    if (this.tailBytes > this.maxLineBytes) {
      throw new RecordTooLargeError(
        this.view.label,
        this.count + 1,
        this.tailBytes,
        this.maxLineBytes,
      );
    }
    return readViewRange(this.realDir, this.view, this.committedEnd, this.view.size);
  }

  /** The step_index sniffed from the first bytes of the unfinished last line. */
  async sniffTail(): Promise<number> {
    if (this.committedEnd >= this.view.size) return SNIFF_EMPTY;
    const end = Math.min(this.view.size, this.committedEnd + HEAD_BYTES);
    return sniffStepIndex(await readViewRange(this.realDir, this.view, this.committedEnd, end));
  }

  sniff(i: number): number {
    return this.sniffed[i];
  }

  /** 0-based line numbers whose sniffed step_index is `step`, or unknown, in file order. */
  candidates(step: number): number[] {
    this.byStep ??= StepOrder.of(this.sniffed, this.count);
    return this.byStep.candidates(step);
  }

  /** Approximate heap held by the index (with its lookup by step), for the cache budget. */
  get bytes(): number {
    return 256 + this.starts.byteLength + this.sniffed.byteLength + this.count * 4;
  }
}
