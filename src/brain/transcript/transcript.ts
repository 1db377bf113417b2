import type { Problem, StepRecord } from '../types';
import { LineIndex } from './line-index';
import { ParsedView } from './parsed-view';
import { parseLine } from './records';
import { ViewCache } from './view-cache';
import { locateViews, type SessionViews, type ViewSource } from './view';

/**
 * The transcript side of the store: the parsed compact view of a session, the byte index of
 * its full view, and the lookup of one record's full twin through that index.
 */
export class Transcripts {
  private readonly parsed: ViewCache<ParsedView>;
  private readonly checked: ViewCache<ParsedView>;
  private readonly indexes: ViewCache<LineIndex>;

  /** `capacity`: views kept per cache (least recently used are dropped). */
  constructor(capacity = 2000) {
    this.parsed = new ViewCache('transcript', capacity, (d, v) => ParsedView.build(d, v, true));
    this.checked = new ViewCache('full-check', capacity, (d, v) => ParsedView.build(d, v, false));
    this.indexes = new ViewCache('line-index', capacity, (d, v) => LineIndex.build(d, v));
  }

  views(realDir: string): Promise<SessionViews> {
    return locateViews(realDir);
  }

  /** Records and problems of the compact view (empty when the session has no transcript). */
  async compact(realDir: string, views?: SessionViews): Promise<ParsedView | null> {
    const v = views ?? (await locateViews(realDir));
    return v.compact ? this.parsed.get(realDir, v.compact) : null;
  }

  index(realDir: string, view: ViewSource): Promise<LineIndex> {
    return this.indexes.get(realDir, view);
  }

  /**
   * The full record matching a compact one: the k-th full record with the same step_index for
   * the k-th compact record with it. Only candidate lines (by sniffed step_index) are read, one
   * line each, in file order. `undefined` means there is no full view; `null` no matching record.
   */
  async fullTwin(
    realDir: string,
    record: StepRecord,
    views?: SessionViews,
  ): Promise<StepRecord | null | undefined> {
    const v = views ?? (await locateViews(realDir));
    if (!v.full) return undefined;
    if (v.compact === v.full) return record;
    const index = await this.index(realDir, v.full);
    let seen = 0;
    for (const line of index.candidates(record.index)) {
      const verdict = parseLine(await index.readLine(line), false, 0, line + 1);
      if (verdict.kind !== 'record' || verdict.record.index !== record.index) continue;
      if (seen++ === record.occurrence) return verdict.record;
    }
    const tail = await index.readTail();
    if (tail) {
      const verdict = parseLine(tail, false, 0, index.count + 1);
      if (
        verdict.kind === 'record' &&
        verdict.record.index === record.index &&
        seen === record.occurrence
      ) {
        return verdict.record;
      }
    }
    return null;
  }

  /**
   * Every problem of the session's transcripts: both views line by line, plus full records
   * missing for truncated compact ones. Cached per file version like everything else.
   */
  async problems(realDir: string): Promise<Problem[]> {
    const views = await locateViews(realDir);
    const problems = [...views.problems];
    const compact = await this.compact(realDir, views);
    if (compact) problems.push(...compact.problems);
    if (views.full && views.full !== views.compact) {
      problems.push(...(await this.checked.get(realDir, views.full)).problems);
      for (const record of compact?.records ?? []) {
        if (record.truncatedFields.length === 0) continue;
        if ((await this.fullTwin(realDir, record, views)) === null) {
          problems.push({
            code: 'MISSING_FULL_RECORD',
            message: `no full record for step_index ${record.index} (occurrence ${record.occurrence + 1})`,
            file: compact?.view.label ?? null,
            line: record.line,
          });
        }
      }
    }
    return problems;
  }
}
