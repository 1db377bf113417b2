import type { InFlightBytes } from '../../ops/in-flight-bytes';
import { CacheBudget } from '../cache';
import { ProblemList } from '../problems';
import type { Admit, Problem, StepRecord } from '../types';
import { LineIndex, type LineIndexSnapshot } from './line-index';
import { scanShare } from './large-lines';
import { ParsedView } from './parsed-view';
import { parseLine } from './records';
import {
  MAX_RECORD_BYTES,
  readViewRange,
  RecordTooLargeError,
  UnreadableViewError,
  type LargeLines,
} from './scanner';
import { ViewCache } from './view-cache';
import { locateViews, type SessionViews, type ViewSource } from './view';

export interface TranscriptOptions {
  /** Where parsed views and indexes are kept (default: a budget of their own, 256 MiB). */
  budget?: CacheBudget;
  /** The longest line ever held in memory (LINE_TOO_LONG / RecordTooLargeError beyond it). */
  maxRecordBytes?: number;
  /** The process's large values in flight: long lines met by scans count against it. */
  largeValues?: InFlightBytes | null;
}

/**
 * The transcript side of the store: the parsed compact view of a session, the byte index of
 * its full view, and the lookup of one record's full twin through that index. A `signal`
 * stops long scans (see ViewCache).
 */
export class Transcripts {
  private readonly parsed: ViewCache<ParsedView>;
  private readonly checked: ViewCache<ParsedView>;
  private readonly indexes: ViewCache<LineIndex>;
  readonly maxRecordBytes: number;
  readonly budget: CacheBudget;
  /** A new share of the large values in flight, for work that reads long lines (none: uncounted). */
  readonly share: (() => LargeLines) | undefined;

  constructor(options: TranscriptOptions = {}) {
    const max = (this.maxRecordBytes = options.maxRecordBytes ?? MAX_RECORD_BYTES);
    const budget = (this.budget = options.budget ?? new CacheBudget());
    const large = options.largeValues;
    const share = (this.share = large ? () => scanShare(large) : undefined);
    this.parsed = new ViewCache('transcript', budget, (d, v, signal) =>
      ParsedView.build(d, v, true, max, signal, share),
    );
    this.checked = new ViewCache('full-check', budget, (d, v, signal) =>
      ParsedView.build(d, v, false, max, signal, share),
    );
    this.indexes = new ViewCache('line-index', budget, (d, v, signal) =>
      LineIndex.build(d, v, max, signal),
    );
  }

  /** Records and problems of the compact view (empty when the session has no transcript). */
  async compact(
    realDir: string,
    views?: SessionViews,
    signal?: AbortSignal,
  ): Promise<ParsedView | null> {
    const v = views ?? (await locateViews(realDir));
    return v.compact ? this.parsed.get(realDir, v.compact, signal) : null;
  }

  index(realDir: string, view: ViewSource, signal?: AbortSignal): Promise<LineIndex> {
    return this.indexes.get(realDir, view, signal);
  }

  /** The line index of `view` as it stands, to keep across runs (null: none complete). */
  async indexSnapshot(realDir: string, view: ViewSource): Promise<LineIndexSnapshot | null> {
    return (await this.indexes.settled(realDir, view))?.snapshot() ?? null;
  }

  /** A line index of this view's file(s) is cached (whatever bytes it covers). */
  hasIndex(realDir: string, view: ViewSource): boolean {
    return this.indexes.has(realDir, view);
  }

  /** An earlier run's line index: later twins are found reading only what was appended. */
  seedIndex(realDir: string, snap: LineIndexSnapshot): void {
    this.indexes.seed(realDir, LineIndex.restore(realDir, snap, this.maxRecordBytes));
  }

  /**
   * The record with the values `elide` left out read again from its line (the record itself
   * when nothing was left out). Throws UnreadableViewError when the line is no longer there.
   */
  async hydrate(realDir: string, record: StepRecord, admit?: Admit): Promise<StepRecord> {
    if (!record.elided) return record;
    const { view, start, end } = record.elided;
    await admit?.(end - start);
    const verdict = parseLine(
      await readViewRange(realDir, view, start, end),
      view.kind === 'compact',
      record.position,
      record.line,
    );
    if (verdict.kind !== 'record' || verdict.record.index !== record.index) {
      throw new UnreadableViewError(view.label, `${view.label} changed while being read`);
    }
    verdict.record.occurrence = record.occurrence;
    return verdict.record;
  }

  /**
   * The full record matching a compact one: the k-th full record with the same step_index for
   * the k-th compact record with it. Only candidate lines (by sniffed step_index) are read, one
   * line each, in file order. `undefined` means there is no full view, or it cannot be read
   * (the compact value is served; `problems` reports the file as UNREADABLE_FILE); `null` no
   * matching record.
   *
   * Lines longer than the cap are never read: one whose first bytes sniff as this step_index
   * counts as a record with it (its compact twin is an ordinary truncated line), and when it is
   * the one asked for, RecordTooLargeError is thrown; any other over-long line is skipped, as
   * the full view's check skips it (LINE_TOO_LONG).
   */
  async fullTwin(
    realDir: string,
    record: StepRecord,
    views?: SessionViews,
    signal?: AbortSignal,
    admit?: Admit,
  ): Promise<StepRecord | null | undefined> {
    if (record.elided) return this.hydrate(realDir, record, admit);
    const v = views ?? (await locateViews(realDir));
    if (!v.full) return undefined;
    if (v.compact === v.full) return record;
    try {
      return await this.findTwin(await this.index(realDir, v.full, signal), record, admit);
    } catch (err) {
      // Denied, replaced or shrunk under us: serve the compact value rather than fail.
      if (err instanceof UnreadableViewError) return undefined;
      throw err;
    }
  }

  private async findTwin(
    index: LineIndex,
    record: StepRecord,
    admit?: Admit,
  ): Promise<StepRecord | null> {
    const tooLarge = (line: number, bytes: number, start?: number) =>
      new RecordTooLargeError(index.view.label, line, bytes, index.maxLineBytes, start);
    let seen = 0;
    for (const line of index.candidates(record.index)) {
      if (index.lineBytes(line) > index.maxLineBytes) {
        if (index.sniff(line) !== record.index) continue;
        if (seen++ === record.occurrence)
          throw tooLarge(line + 1, index.lineBytes(line), index.range(line)[0]);
        continue;
      }
      await admit?.(index.lineBytes(line));
      const verdict = parseLine(await index.readLine(line), false, 0, line + 1);
      if (verdict.kind !== 'record' || verdict.record.index !== record.index) continue;
      if (seen++ === record.occurrence) return verdict.record;
    }
    if (seen !== record.occurrence || index.tailBytes === 0) return null;
    if (index.tailBytes > index.maxLineBytes) {
      if ((await index.sniffTail()) !== record.index) return null;
      throw tooLarge(index.count + 1, index.tailBytes);
    }
    await admit?.(index.tailBytes);
    const tail = await index.readTail();
    if (tail) {
      const verdict = parseLine(tail, false, 0, index.count + 1);
      if (verdict.kind === 'record' && verdict.record.index === record.index) {
        return verdict.record;
      }
    }
    return null;
  }

  /**
   * Every problem of the session's transcripts: both views line by line, plus full records
   * missing for truncated compact ones. Cached per file version like everything else; each
   * view lists at most MAX_PROBLEMS (sortProblems caps the whole list).
   *
   * A compact record's twin exists when the full view holds more records of its step_index
   * than the record's occurrence: counted by the check, so no twin is read again (a 32 MB one
   * cost every request that asked for problems its own parse). Lines too long to parse count
   * when their first bytes name the step_index, as fullTwin counts them (overlongPerStep).
   */
  async problems(realDir: string, signal?: AbortSignal): Promise<Problem[]> {
    const views = await locateViews(realDir);
    const problems = views.problems.slice();
    const add = (more: readonly Problem[]): void => {
      for (const p of more) problems.push(p);
    };
    const compact = await this.compact(realDir, views, signal);
    if (compact) add(compact.problems);
    if (views.full && views.full !== views.compact) {
      const checked = await this.checked.get(realDir, views.full, signal);
      add(checked.problems);
      // Unreadable, or cut short while being read: its counts say nothing of what is missing
      // (UNREADABLE_FILE says why; the compact values are served).
      if (!checked.reusable) return problems;
      const overlong = await checked.overlongPerStep();
      const missing = new ProblemList();
      for (const record of compact?.records ?? []) {
        if (record.truncatedFields.length === 0) continue;
        const twins = checked.recordsOfStep(record.index) + (overlong.get(record.index) ?? 0);
        if (twins > record.occurrence) continue;
        if (missing.full) missing.count(record.line);
        else {
          missing.add({
            code: 'MISSING_FULL_RECORD',
            message: `no full record for step_index ${record.index} (occurrence ${record.occurrence + 1})`,
            file: compact?.view.label ?? null,
            line: record.line,
          });
        }
      }
      if (compact) add(missing.snapshot(compact.view.label));
    }
    return problems;
  }
}
