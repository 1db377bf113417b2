import type { Problem, StepRecord } from '../types';
import { parseLine } from './records';
import { MAX_RECORD_BYTES, scanLines, UnreadableViewError } from './scanner';
import { isAppendOnly, type ViewSource } from './view';

/**
 * The records and problems of one view, parsed line by line in file order. Complete lines are
 * parsed once; when the file grows only the appended bytes are parsed. The unfinished last
 * line is judged afresh for every version: a record if it parses, else PARTIAL_LAST_LINE.
 *
 * With `keepRecords` false (checking a full view for problems) records are counted and
 * dropped, so a gigabyte transcript never sits in memory.
 *
 * A line longer than `maxLineBytes` is never held whole: it is reported as LINE_TOO_LONG
 * (with its line number), is not a record, and the lines after it count as usual.
 */
export class ParsedView {
  private committed: StepRecord[] = [];
  private committedProblems: Problem[] = [];
  private occurrences = new Map<number, { count: number; firstLine: number }>();
  private lines = 0;
  private recordCount = 0;
  private committedEnd = 0;
  private tailRecord: StepRecord | null = null;
  private tailProblem: Problem | null = null;
  private failure: Problem | null = null;
  /** The file ended before the size it was located with (it shrank while being read). */
  private cutShort = false;
  private withTail: StepRecord[] | null = null;

  private constructor(
    readonly realDir: string,
    public view: ViewSource,
    private readonly keepRecords: boolean,
    private readonly maxLineBytes: number,
  ) {}

  static async build(
    realDir: string,
    view: ViewSource,
    keepRecords: boolean,
    maxLineBytes: number = MAX_RECORD_BYTES,
  ): Promise<ParsedView> {
    const parsed = new ParsedView(realDir, view, keepRecords, maxLineBytes);
    await parsed.scan();
    return parsed;
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

  async extendTo(next: ViewSource): Promise<void> {
    this.view = next;
    await this.scan();
  }

  get records(): StepRecord[] {
    if (!this.tailRecord) return this.committed;
    this.withTail ??= [...this.committed, this.tailRecord];
    return this.withTail;
  }

  get problems(): Problem[] {
    const extra = [this.tailProblem, this.failure].filter((p): p is Problem => p !== null);
    return extra.length ? [...this.committedProblems, ...extra] : this.committedProblems;
  }

  get size(): number {
    return this.recordCount + (this.tailRecord ? 1 : 0);
  }

  private async scan(): Promise<void> {
    this.tailRecord = null;
    this.tailProblem = null;
    this.withTail = null;
    const encoded = this.view.kind === 'compact';
    try {
      const result = await scanLines(
        this.realDir,
        this.view,
        this.committedEnd,
        'full',
        (start, end, bytes) => {
          this.lines++;
          if (bytes === null) this.committedProblems.push(this.tooLong(this.lines, end - start));
          else this.accept(parseLine(bytes, encoded, this.recordCount, this.lines));
        },
        this.maxLineBytes,
      );
      this.committedEnd = result.committedEnd;
      this.cutShort = result.scannedEnd < this.view.size;
      if (!result.tail && result.tailBytes > 0) {
        this.tailProblem = this.tooLong(this.lines + 1, result.tailBytes);
      } else if (result.tail) {
        const verdict = parseLine(result.tail, encoded, this.recordCount, this.lines + 1);
        if (verdict.kind === 'record') this.tailRecord = this.withOccurrence(verdict.record, false);
        else if (verdict.kind === 'malformed') {
          // A last line that parses but is not a record is complete: MALFORMED_LINE.
          this.tailProblem = {
            code: verdict.json ? 'MALFORMED_LINE' : 'PARTIAL_LAST_LINE',
            message: verdict.json
              ? verdict.reason
              : 'the last line has no newline and does not parse (still being written?)',
            file: this.view.label,
            line: this.lines + 1,
          };
        }
      }
    } catch (err) {
      if (!(err instanceof UnreadableViewError)) throw err;
      this.failure = {
        code: 'UNREADABLE_FILE',
        message: err.message,
        file: err.relPath,
        line: null,
      };
    }
  }

  private tooLong(line: number, bytes: number): Problem {
    return {
      code: 'LINE_TOO_LONG',
      message: `the line is ${bytes} bytes long, over the limit of ${this.maxLineBytes} bytes: not read`,
      file: this.view.label,
      line,
    };
  }

  private accept(verdict: ReturnType<typeof parseLine>): void {
    if (verdict.kind === 'blank') return;
    if (verdict.kind === 'malformed') {
      this.committedProblems.push({
        code: 'MALFORMED_LINE',
        message: verdict.reason,
        file: this.view.label,
        line: this.lines,
      });
      return;
    }
    const record = this.withOccurrence(verdict.record, true);
    this.recordCount++;
    if (this.keepRecords) this.committed.push(record);
  }

  /** Sets the record's occurrence; only committed records count towards later ones. */
  private withOccurrence(record: StepRecord, commit: boolean): StepRecord {
    const seen = this.occurrences.get(record.index);
    record.occurrence = seen?.count ?? 0;
    if (seen && this.view.kind === 'compact') {
      const problem: Problem = {
        code: 'DUPLICATE_STEP_INDEX',
        message: `step_index ${record.index} already appeared on line ${seen.firstLine}`,
        file: this.view.label,
        line: record.line,
      };
      if (commit) this.committedProblems.push(problem);
      else this.tailProblem = problem;
    }
    if (commit) {
      if (seen) seen.count++;
      else this.occurrences.set(record.index, { count: 1, firstLine: record.line });
    }
    return record;
  }
}
