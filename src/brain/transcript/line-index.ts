import { readViewRange, scanLines } from './scanner';
import { isAppendOnly, type ViewSource } from './view';

/**
 * A byte-offset index of a view's complete lines, plus the `step_index` sniffed from each
 * line's first bytes. With it, reading one record of a gigabyte transcript is one seek and one
 * read, and finding the full twin of a compact record needs no JSON parsing of other lines.
 */

/** Sniff results that are not a step_index: parse the line to know. */
export const SNIFF_UNKNOWN = -2147483648;
/** An empty line: never a record. */
export const SNIFF_EMPTY = -2147483647;

const PREFIX = Buffer.from('{"step_index":');

/** Reads `{"step_index":N` (the layout every writer uses) without parsing JSON. */
export function sniffStepIndex(head: Buffer): number {
  if (head.length === 0) return SNIFF_EMPTY;
  if (
    head.length <= PREFIX.length ||
    head.compare(PREFIX, 0, PREFIX.length, 0, PREFIX.length) !== 0
  ) {
    return SNIFF_UNKNOWN;
  }
  let i = PREFIX.length;
  let value = 0;
  let digits = 0;
  while (i < head.length && head[i] >= 48 && head[i] <= 57 && digits < 9) {
    value = value * 10 + (head[i] - 48);
    i++;
    digits++;
  }
  // Anything unusual (a fraction, an exponent, a huge number) is left to the real parser.
  if (digits === 0 || i >= head.length || (head[i] !== 44 && head[i] !== 125)) return SNIFF_UNKNOWN;
  return value;
}

export class LineIndex {
  private starts: Float64Array;
  private sniffed: Int32Array;
  private byStep: Map<number, number[]> | null = null;
  count = 0;
  /** Offset just past the last newline; bytes beyond it are an unfinished last line. */
  committedEnd = 0;

  private constructor(
    readonly realDir: string,
    public view: ViewSource,
    capacity = 1024,
  ) {
    this.starts = new Float64Array(capacity);
    this.sniffed = new Int32Array(capacity);
  }

  static async build(realDir: string, view: ViewSource): Promise<LineIndex> {
    const index = new LineIndex(realDir, view);
    await index.scanFrom(0);
    return index;
  }

  canExtendTo(next: ViewSource): boolean {
    return isAppendOnly(this.view, next);
  }

  /** Indexes what was appended since the last scan; reads only the new bytes. */
  async extendTo(next: ViewSource): Promise<void> {
    this.view = next;
    this.byStep = null;
    await this.scanFrom(this.committedEnd);
  }

  private async scanFrom(from: number): Promise<void> {
    const result = await scanLines(this.realDir, this.view, from, 'head', (start, _end, head) => {
      this.push(start, sniffStepIndex(head));
    });
    this.committedEnd = result.committedEnd;
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

  /** The bytes of complete line `i` (0-based): one read. */
  readLine(i: number): Promise<Buffer> {
    const [start, end] = this.range(i);
    return readViewRange(this.realDir, this.view, start, end);
  }

  /** The unfinished bytes after the last newline, or null. */
  async readTail(): Promise<Buffer | null> {
    if (this.committedEnd >= this.view.size) return null;
    return readViewRange(this.realDir, this.view, this.committedEnd, this.view.size);
  }

  sniff(i: number): number {
    return this.sniffed[i];
  }

  /** 0-based line numbers whose sniffed step_index is `step`, or unknown, in file order. */
  candidates(step: number): number[] {
    if (!this.byStep) {
      const map = new Map<number, number[]>();
      const unknown: number[] = [];
      for (let i = 0; i < this.count; i++) {
        const s = this.sniffed[i];
        if (s === SNIFF_EMPTY) continue;
        if (s === SNIFF_UNKNOWN) unknown.push(i);
        else {
          const list = map.get(s);
          if (list) list.push(i);
          else map.set(s, [i]);
        }
      }
      map.set(SNIFF_UNKNOWN, unknown);
      this.byStep = map;
    }
    const known = this.byStep.get(step) ?? [];
    const unknown = this.byStep.get(SNIFF_UNKNOWN) ?? [];
    if (unknown.length === 0) return known;
    return [...known, ...unknown].sort((a, b) => a - b);
  }

  /** Approximate heap held by the index, for the bench and cache sizing. */
  get bytes(): number {
    return this.starts.byteLength + this.sniffed.byteLength;
  }
}
