import { ProblemList } from '../problems';
import type { Problem, StepRecord } from '../types';
import {
  duplicateProblem,
  malformedProblem,
  tooLongProblem,
  unreadableProblem,
} from './line-problems';
import { elide, RECORD_BYTES, recordBytes } from './record-size';
import { lineShape, parseLine } from './records';
import { sniffStepIndex } from './line-index';
import {
  HEAD_BYTES,
  type LargeLines,
  MAX_RECORD_BYTES,
  readViewRange,
  scanLines,
  UnreadableViewError,
} from './scanner';
import { ScanAborted, type Incremental } from './view-cache';
import { LastLine } from './last-line';
import { isAppendOnly, type ViewSource } from './view';

const PROBLEM_BYTES = 160;
/** One entry of the occurrences map. */
const OCCURRENCE_BYTES = 96;
/** One entry of a checked view's records per step_index. */
const STEP_COUNT_BYTES = 64;

/**
 * The records and problems of one view, parsed line by line in file order. Complete lines are
 * parsed once; when the file grows only the appended bytes are parsed. The unfinished last
 * line is judged afresh for every version: a record if it parses, else PARTIAL_LAST_LINE.
 *
 * With `keepRecords` false (checking a full view for problems) records are counted and
 * dropped, so a gigabyte transcript never sits in memory. A full view kept as the session's
 * only tier keeps its records without their large values (see `elide`).
 *
 * A line longer than `maxLineBytes` is never held whole: it is reported as LINE_TOO_LONG
 * (with its line number), is not a record, and the lines after it count as usual. Problems
 * past the first MAX_PROBLEMS are counted, not kept.
 *
 * A scan stopped by its signal keeps what it read (ScanAborted): the next request resumes it.
 */
export class ParsedView implements Incremental {
  private committed: StepRecord[] = [];
  private readonly found = new ProblemList();
  private readonly occurrences = new Map<number, { count: number; firstLine: number }>();
  /** A checked full view: its records per step_index (problems() matches compact records by it). */
  private readonly perStep = new Map<number, number>();
  /** Where lines of this view over maxLineBytes start (never parsed: see overlongPerStep). */
  private readonly overlongStarts: number[] = [];
  /** Records and problems held, for the cache budget. */
  private committedBytes = RECORD_BYTES;
  private lines = 0;
  private recordCount = 0;
  private committedEnd = 0;
  private readonly lastLine = new LastLine();
  private tailRecord: StepRecord | null = null;
  private tailProblem: Problem | null = null;
  private failure: Problem | null = null;
  /** The file ended before the size it was located with (it shrank while being read). */
  private cutShort = false;
  private withTail: StepRecord[] | null = null;
  private scanned = false;
  /** Keep records without their large values (a full view serving as the compact one). */
  private readonly slim: boolean;

  private constructor(
    readonly realDir: string,
    public view: ViewSource,
    private readonly keepRecords: boolean,
    private readonly maxLineBytes: number,
    /** A scan's share of the large values in flight (none: not counted). */
    private readonly large?: () => LargeLines,
  ) {
    this.slim = keepRecords && view.kind === 'full';
  }

  static async build(
    realDir: string,
    view: ViewSource,
    keepRecords: boolean,
    maxLineBytes: number = MAX_RECORD_BYTES,
    signal?: AbortSignal,
    large?: () => LargeLines,
  ): Promise<ParsedView> {
    const parsed = new ParsedView(realDir, view, keepRecords, maxLineBytes, large);
    await parsed.scan(signal);
    return parsed;
  }

  get complete(): boolean {
    return this.scanned;
  }

  /**
   * False when this parse must not be served again for the same version or extended: a file
   * that could not be read (it may be readable next time) or that shrank or was replaced while
   * being read. The view cache then parses the view afresh.
   */
  get reusable(): boolean {
    return this.failure === null && !this.cutShort;
  }

  canExtendTo(next: ViewSource): boolean {
    return this.reusable && isAppendOnly(this.view, next);
  }

  heldBy(next: ViewSource): Promise<boolean> {
    return this.lastLine.heldBy(this.realDir, next);
  }

  async extendTo(next: ViewSource, signal?: AbortSignal): Promise<void> {
    this.view = next;
    await this.scan(signal);
  }

  get records(): StepRecord[] {
    if (!this.tailRecord) return this.committed;
    this.withTail ??= [...this.committed, this.tailRecord];
    return this.withTail;
  }

  /** The records of complete lines only: an unfinished last line's record is left out. */
  get completeRecords(): StepRecord[] {
    return this.committed;
  }

  /** In file order; past MAX_PROBLEMS, one TOO_MANY_PROBLEMS counts the rest. */
  get problems(): Problem[] {
    const extra = [this.tailProblem, this.failure].filter((p): p is Problem => p !== null);
    return this.found.snapshot(this.view.label, extra);
  }

  /**
   * How many records of this view have `step` as their step_index, the unfinished last line's
   * included (a checked full view only: a compact record's twin exists when this count is
   * over its occurrence).
   */
  recordsOfStep(step: number): number {
    return (this.perStep.get(step) ?? 0) + (this.tailRecord?.index === step ? 1 : 0);
  }

  /**
   * The lines over maxLineBytes (the unfinished last one included), counted by the step_index
   * their first bytes name, as fullTwin counts them: a few bytes read from each.
   */
  async overlongPerStep(): Promise<Map<number, number>> {
    const starts = [...this.overlongStarts];
    if (this.tailProblem?.code === 'LINE_TOO_LONG') starts.push(this.committedEnd);
    const counts = new Map<number, number>();
    for (const start of starts) {
      const end = Math.min(this.view.size, start + HEAD_BYTES);
      const step = sniffStepIndex(await readViewRange(this.realDir, this.view, start, end));
      if (step >= 0) counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    return counts;
  }

  get size(): number {
    return this.recordCount + (this.tailRecord ? 1 : 0);
  }

  get bytes(): number {
    return this.committedBytes + (this.tailRecord ? recordBytes(this.tailRecord) : 0);
  }

  private async scan(signal?: AbortSignal): Promise<void> {
    this.tailRecord = null;
    this.tailProblem = null;
    this.withTail = null;
    this.scanned = false;
    const encoded = this.view.kind === 'compact';
    try {
      const result = await scanLines(
        this.realDir,
        this.view,
        this.committedEnd,
        'full',
        (start, end, buf, from, to) => this.line(start, end, buf, from, to, encoded),
        this.maxLineBytes,
        undefined,
        signal,
        this.large?.(),
      );
      this.committedEnd = result.committedEnd;
      if (result.aborted) throw new ScanAborted(this, signal?.reason);
      this.scanned = true;
      this.cutShort = result.scannedEnd < this.view.size;
      const n = this.lines + 1;
      if (!result.tail && result.tailBytes > 0) {
        this.tailProblem = tooLongProblem(this.view.label, n, result.tailBytes, this.maxLineBytes);
      } else if (result.tail) {
        const verdict = parseLine(result.tail, encoded, this.recordCount, n);
        if (verdict.kind === 'record') {
          const record = this.withOccurrence(verdict.record, false);
          this.tailRecord = this.slim
            ? elide(record, this.view, this.committedEnd, this.view.size)
            : record;
        } else if (verdict.kind === 'malformed') {
          this.tailProblem = malformedProblem(verdict, this.view.label, n, true);
        }
      }
    } catch (err) {
      if (!(err instanceof UnreadableViewError)) throw err;
      this.scanned = true;
      this.failure = unreadableProblem(err);
    }
  }

  /** One complete line, `buf[from, to)` (`buf` null: longer than the cap). */
  private line(
    start: number,
    end: number,
    buf: Buffer | null,
    from: number,
    to: number,
    encoded: boolean,
  ): void {
    const n = ++this.lines;
    this.lastLine.saw(start, buf, from, to);
    if (buf === null) {
      this.overlongStarts.push(start);
      this.committedBytes += 8;
      this.addProblem(n, () => tooLongProblem(this.view.label, n, end - start, this.maxLineBytes));
      return;
    }
    // Past the cap only records and counts matter: a line that cannot be one is counted unparsed.
    const shape = this.found.full ? lineShape(buf, from, to) : 'object';
    if (shape === 'other') this.found.count(n);
    else if (shape === 'object') {
      this.accept(parseLine(buf.subarray(from, to), encoded, this.recordCount, n), start, end);
    }
  }

  /** Keeps a committed problem, or only counts it past the cap (`make` is not called). */
  private addProblem(line: number, make: () => Problem): void {
    if (this.found.full) {
      this.found.count(line);
      return;
    }
    const p = make();
    this.found.add(p);
    this.committedBytes += PROBLEM_BYTES + 2 * p.message.length;
  }

  private accept(verdict: ReturnType<typeof parseLine>, start: number, end: number): void {
    if (verdict.kind === 'blank') return;
    if (verdict.kind === 'malformed') {
      this.addProblem(this.lines, () =>
        malformedProblem(verdict, this.view.label, this.lines, false),
      );
      return;
    }
    const record = this.withOccurrence(verdict.record, true);
    this.recordCount++;
    if (!this.keepRecords) return;
    const kept = this.slim ? elide(record, this.view, start, end) : record;
    this.committed.push(kept);
    this.committedBytes += recordBytes(kept);
  }

  /** Sets the record's occurrence; only committed records count towards later ones. */
  private withOccurrence(record: StepRecord, commit: boolean): StepRecord {
    // A full view only checked for problems counts records per step_index, nothing more.
    if (!this.keepRecords && this.view.kind === 'full') {
      if (commit) {
        const count = this.perStep.get(record.index);
        this.perStep.set(record.index, (count ?? 0) + 1);
        if (count === undefined) this.committedBytes += STEP_COUNT_BYTES;
      }
      return record;
    }
    const seen = this.occurrences.get(record.index);
    record.occurrence = seen?.count ?? 0;
    if (seen && this.view.kind === 'compact') {
      const problem = duplicateProblem(this.view.label, record.index, record.line, seen.firstLine);
      if (commit) this.addProblem(record.line, () => problem);
      else this.tailProblem = problem;
    }
    if (commit) {
      if (seen) seen.count++;
      else {
        this.occurrences.set(record.index, { count: 1, firstLine: record.line });
        this.committedBytes += OCCURRENCE_BYTES;
      }
    }
    return record;
  }
}
