import type { LineIndexSnapshot } from '../../brain/transcript/line-index';
import { echoMask } from '../session-values';
import type { ViewSource } from '../../brain/transcript/view';
import type { Findings } from '../redacted-texts';
import type { Db } from './database';
import { SEARCH_FIELDS } from '../home-index';

/** secrets.position of the findings of lines that are no record (see schema.ts). */
export const LINE_POSITION = -2;
const FIELD_CONTENT = SEARCH_FIELDS.indexOf('CONTENT');

/** A row of `sessions` as the indexer reads it back. */
export interface SessionRow {
  sid: number;
  view_kind: string | null;
  view_sig: string | null;
  view_end: number;
  view_check: string | null;
  view_lines: number;
  view_records: number;
  full_sig: string | null;
  files_sig: string | null;
  quick_sig: string | null;
  summary: string | null;
  bytes_indexed: number;
  complete: number;
}

export interface StepRow {
  position: number;
  stepIndex: number;
  line: number;
  start: number;
  end: number;
  type: string;
  status: string;
  createdAt: number | null;
  toolCalls: number;
  /** JSON of the calls' CallFacts, null without calls. */
  calls: string | null;
  exitCode: number | null;
  pendingTwin: boolean;
  tail: boolean;
}

/** A row of `steps` as read back. */
export interface StepInOrder {
  position: number;
  step_index: number;
  line: number;
  start_byte: number;
  end_byte: number;
  type: string;
  pending_twin: number;
  tail: number;
}

/** A row of `steps` as stats read it. */
export interface StatsStepRow {
  type: string;
  status: string;
  created_at: number | null;
  tool_calls: number;
  calls: string | null;
  exit_code: number | null;
}

export interface DocRow {
  /** Step position, or -1 for an artifact. */
  position: number;
  field: number;
  /** Artifact name, '' for steps. */
  name: string;
  text: string;
  findings: Findings;
}

export interface SessionFacts {
  dir: string;
  sessionId: string;
  root: string;
  flavor: string;
  environment: string;
  createdAt: number;
}

/**
 * Where searchable texts go when FTS5 is not the engine: the sink keeps them (the docs table
 * then holds their keys, with an empty text).
 */
export interface TextSink {
  put(rowid: number, text: string): void;
  /** `purge`: the text must leave CACHE_DIR (it shows a secret), not wait for a merge. */
  drop(rowid: number, purge?: boolean): void;
  /** The text stored under `rowid` (the docs row holds none then). */
  text(rowid: number): string | undefined;
}

/** The write side of the index database: prepared statements, used inside transactions. */
export class Tables {
  private readonly s;

  /** Bumped by every write that changes what a search finds. */
  generation = 0;

  /** `sink`: the trigram engine's texts (null: FTS5's table is written). */
  constructor(
    readonly db: Db,
    private readonly sink: TextSink | null = null,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      session: p('SELECT * FROM sessions WHERE dir = ?'),
      addSession: p(
        `INSERT INTO sessions (dir, session_id, root, flavor, environment, created_at)
         VALUES (@dir, @sessionId, @root, @flavor, @environment, @createdAt)`,
      ),
      facts: p(
        `UPDATE sessions SET session_id = @sessionId, root = @root, flavor = @flavor,
         environment = @environment, created_at = @createdAt WHERE sid = @sid`,
      ),
      docsOf: p('SELECT rowid, text FROM docs WHERE sid = ? AND position >= ? AND position <= ?'),
      docsOfField: p('SELECT rowid, text FROM docs WHERE sid = ? AND field = ?'),
      docAt: p(
        'SELECT rowid, text FROM docs WHERE sid = ? AND position = ? AND field = ? AND name = ?',
      ),
      ftsDelete: p("INSERT INTO docs_fts (docs_fts, rowid, text) VALUES ('delete', ?, ?)"),
      docDelete: p('DELETE FROM docs WHERE rowid = ?'),
      docInsert: p('INSERT INTO docs (sid, position, field, name, text) VALUES (?, ?, ?, ?, ?)'),
      ftsInsert: p('INSERT INTO docs_fts (rowid, text) VALUES (?, ?)'),
      secretInsert: p(
        'INSERT OR REPLACE INTO secrets (sid, position, field, name, kind, count) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      secretsDelete: p('DELETE FROM secrets WHERE sid = ? AND position >= ? AND position <= ?'),
      secretsDeleteAt: p(
        'DELETE FROM secrets WHERE sid = ? AND position = ? AND field = ? AND name = ?',
      ),
      secretsDeleteField: p('DELETE FROM secrets WHERE sid = ? AND field = ?'),
      lineSecretsDelete: p(
        `DELETE FROM secrets WHERE sid = ? AND position = ${LINE_POSITION}
         AND CAST(name AS INTEGER) > ?`,
      ),
      stepsDelete: p('DELETE FROM steps WHERE sid = ? AND position >= ?'),
      stepInsert: p(
        `INSERT OR REPLACE INTO steps (sid, position, step_index, line, start_byte, end_byte, type,
         status, created_at, tool_calls, calls, exit_code, pending_twin, tail)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      occurrences: p(
        'SELECT step_index AS i, count(*) AS n FROM steps WHERE sid = ? AND tail = 0 GROUP BY step_index',
      ),
      pending: p('SELECT position FROM steps WHERE sid = ? AND pending_twin = 1'),
      firstPositions: p(
        'SELECT step_index AS i, min(position) AS p FROM steps WHERE sid = ? GROUP BY step_index',
      ),
      progress: p(
        `UPDATE sessions SET view_kind = @viewKind, view_sig = @viewSig, view_end = @viewEnd,
         view_check = @viewCheck,
         view_lines = @viewLines, view_records = @viewRecords, full_sig = @fullSig,
         files_sig = @filesSig, summary = @summary, bytes_indexed = @bytesIndexed,
         complete = @complete, updated_at = @updatedAt, model = @model, step_count = @stepCount,
         tool_call_count = @toolCallCount, error_count = @errorCount WHERE sid = @sid`,
      ),
      head: p(
        'UPDATE sessions SET head_dev = ?, head_ino = ?, head_size = ?, head_created_at = ? WHERE dir = ?',
      ),
      allDirs: p('SELECT sid, dir FROM sessions'),
      dropSession: p('DELETE FROM sessions WHERE sid = ?'),
      dropSteps: p('DELETE FROM steps WHERE sid = ?'),
      dropSecrets: p('DELETE FROM secrets WHERE sid = ?'),
      dropLineIndex: p('DELETE FROM line_indexes WHERE sid = ?'),
      lineIndex: p('SELECT * FROM line_indexes WHERE sid = ?'),
      lineIndexView: p('SELECT view FROM line_indexes WHERE sid = ?'),
      putLineIndex: p(
        `INSERT OR REPLACE INTO line_indexes (sid, view, committed_end, starts, sniffed)
         VALUES (?, ?, ?, ?, ?)`,
      ),
      allDocs: p('SELECT rowid, text FROM docs WHERE sid = ?'),
      docKeys: p('SELECT rowid, position, field, name, text FROM docs WHERE sid = ?'),
      dropDocs: p('DELETE FROM docs WHERE sid = ?'),
      filesState: p('SELECT files_state AS s FROM sessions WHERE sid = ?'),
      setFilesState: p('UPDATE sessions SET files_state = ? WHERE sid = ?'),
      stepsInOrder: p('SELECT * FROM steps WHERE sid = ? ORDER BY position'),
      touch: p('UPDATE sessions SET indexed_at = ? WHERE sid = ?'),
      statsRows: p(
        'SELECT type, status, created_at, tool_calls, calls, exit_code FROM steps WHERE sid = ? ORDER BY position',
      ),
      // A counter of its own, never max(stats_seq) + 1: removing the session that holds the
      // highest number would hand it out again, below what a reader has already seen. Read,
      // then written by plain statements: an upsert (or an UPDATE … RETURNING) takes a statement
      // journal, and FTS5 writes the terms it holds as a segment at each one, as at a savepoint.
      statsSeq: p("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'stats_seq'").pluck(),
      addStatsSeq: p("INSERT INTO meta (key, value) VALUES ('stats_seq', ?)"),
      setStatsSeq: p("UPDATE meta SET value = ? WHERE key = 'stats_seq'"),
      putStats: p('UPDATE sessions SET stats = ?, stats_seq = ? WHERE sid = ?'),
      setQuick: p('UPDATE sessions SET quick_sig = ? WHERE sid = ?'),
    };
  }

  session(dir: string): SessionRow | undefined {
    return this.s.session.get(dir) as SessionRow | undefined;
  }

  /** The session's row id, made (or its facts refreshed) as needed. */
  ensureSession(facts: SessionFacts, existing: SessionRow | undefined): number {
    this.generation++;
    if (!existing) return Number(this.s.addSession.run(facts).lastInsertRowid);
    this.s.facts.run({ ...facts, sid: existing.sid });
    return existing.sid;
  }

  /** Removes the docs (and their findings) of step positions [from, to]. */
  deleteSteps(sid: number, from: number, to = Number.MAX_SAFE_INTEGER): void {
    for (const d of this.s.docsOf.all(sid, from, to) as { rowid: number; text: string }[]) {
      this.deleteDoc(d);
    }
    this.s.secretsDelete.run(sid, from, to);
    this.s.stepsDelete.run(sid, from);
  }

  /** Removes the findings of lines that are no record after line `after` (1-based). */
  deleteLineFindings(sid: number, after: number): void {
    this.s.lineSecretsDelete.run(sid, after);
  }

  /** Findings of a run of lines that are no record, starting at line `line` (1-based). */
  putLineFindings(sid: number, line: number, findings: Findings): void {
    for (const [kind, count] of findings) {
      this.s.secretInsert.run(sid, LINE_POSITION, FIELD_CONTENT, String(line), kind, count);
    }
  }

  deleteField(sid: number, field: number): void {
    for (const d of this.s.docsOfField.all(sid, field) as { rowid: number; text: string }[]) {
      this.deleteDoc(d);
    }
    this.s.secretsDeleteField.run(sid, field);
  }

  private deleteDoc(d: { rowid: number; text: string }, purge = false): void {
    this.generation++;
    if (this.sink) this.sink.drop(d.rowid, purge);
    else this.s.ftsDelete.run(d.rowid, d.text);
    this.s.docDelete.run(d.rowid);
  }

  /** Puts one text (replacing the one at its key) and its findings. */
  /** `fresh`: the caller knows nothing is stored at this key (no lookup, no delete). */
  putDoc(sid: number, doc: DocRow, fresh = false): void {
    if (!fresh) {
      const old = this.s.docAt.get(sid, doc.position, doc.field, doc.name) as
        { rowid: number; text: string } | undefined;
      if (old) this.deleteDoc(old);
      this.s.secretsDeleteAt.run(sid, doc.position, doc.field, doc.name);
    }
    this.generation++;
    if (doc.text.length > 0) {
      // The trigram engine's segments hold the text (the one copy): the row keeps its key.
      const text = this.sink ? '' : doc.text;
      const rowid = this.s.docInsert.run(
        sid,
        doc.position,
        doc.field,
        doc.name,
        text,
      ).lastInsertRowid;
      if (this.sink) this.sink.put(Number(rowid), doc.text);
      else this.s.ftsInsert.run(rowid, doc.text);
    }
    for (const [kind, count] of doc.findings) {
      this.s.secretInsert.run(sid, doc.position, doc.field, doc.name, kind, count);
    }
  }

  /**
   * Masks the session's stored texts with `values` as well (../session-values: values learned
   * after they were written, or by a process before this one), each text it changes written
   * anew under its key (FTS5's rows deleted and inserted, or the trigram engine's); findings
   * stay as counted. Returns how many texts changed.
   */
  sweepValues(sid: number, values: ReadonlyMap<string, string>): number {
    return values.size === 0 ? 0 : this.sweep(sid, (text) => echoMask(text, values));
  }

  /** See sweepValues: each stored text of the session put through `mask`. */
  sweep(sid: number, mask: (text: string) => string): number {
    const rows = this.s.docKeys.all(sid) as {
      rowid: number;
      position: number;
      field: number;
      name: string;
      text: string;
    }[];
    let changed = 0;
    for (const row of rows) {
      const text = this.sink ? (this.sink.text(row.rowid) ?? '') : row.text;
      const masked = mask(text);
      if (masked === text) continue;
      changed++;
      this.deleteDoc({ rowid: row.rowid, text }, true);
      const rowid = this.s.docInsert.run(
        sid,
        row.position,
        row.field,
        row.name,
        this.sink ? '' : masked,
      ).lastInsertRowid;
      if (this.sink) this.sink.put(Number(rowid), masked);
      else this.s.ftsInsert.run(rowid, masked);
    }
    if (changed > 0) this.swept = true;
    return changed;
  }

  /** A sweep changed texts since the last checkpoint (see checkpointIfSwept). */
  private swept = false;

  /**
   * After a commit: the texts a sweep replaced leave the WAL as well (their pages stay in its
   * older frames until it is truncated; secure_delete clears them in the database file).
   */
  checkpointIfSwept(): void {
    if (!this.swept || !this.db.open || this.db.inTransaction) return;
    this.swept = false;
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  putStep(sid: number, r: StepRow): void {
    this.s.stepInsert.run(
      sid,
      r.position,
      r.stepIndex,
      r.line,
      r.start,
      r.end,
      r.type,
      r.status,
      r.createdAt,
      r.toolCalls,
      r.calls,
      r.exitCode,
      r.pendingTwin ? 1 : 0,
      r.tail ? 1 : 0,
    );
  }

  occurrences(sid: number): Map<number, number> {
    const rows = this.s.occurrences.all(sid) as { i: number; n: number }[];
    return new Map(rows.map((r) => [r.i, r.n]));
  }

  /** Positions of steps whose truncated fields had no full twin. */
  pendingPositions(sid: number): number[] {
    return (this.s.pending.all(sid) as { position: number }[]).map((r) => r.position);
  }

  /** step_index -> the first position with it (a step output belongs to that step). */
  firstPositions(sid: number): Map<number, number> {
    const rows = this.s.firstPositions.all(sid) as { i: number; p: number }[];
    return new Map(rows.map((r) => [r.i, r.p]));
  }

  progress(values: Record<string, unknown>): void {
    this.s.progress.run(values);
  }

  /** The head memo; null forgets it. */
  setHead(
    dir: string,
    head: { dev: number; ino: number; size: number; createdAt: number | null } | null,
  ): void {
    this.s.head.run(
      head?.dev ?? null,
      head?.ino ?? null,
      head?.size ?? null,
      head?.createdAt ?? null,
      dir,
    );
  }

  allSessions(): { sid: number; dir: string }[] {
    return this.s.allDirs.all() as { sid: number; dir: string }[];
  }

  dropSession(sid: number): void {
    this.generation++;
    for (const d of this.s.allDocs.all(sid) as { rowid: number; text: string }[]) {
      if (this.sink) this.sink.drop(d.rowid);
      else this.s.ftsDelete.run(d.rowid, d.text);
    }
    this.s.dropDocs.run(sid);
    this.s.dropSteps.run(sid);
    this.s.dropSecrets.run(sid);
    this.s.dropLineIndex.run(sid);
    this.s.dropSession.run(sid);
  }

  getFilesState(sid: number): string | null {
    return (this.s.filesState.get(sid) as { s: string | null } | undefined)?.s ?? null;
  }

  setFilesState(sid: number, json: string): void {
    this.s.setFilesState.run(json, sid);
  }

  /** Every step (the unfinished last line's too), by position. */
  stepsInOrder(sid: number): StepInOrder[] {
    return this.s.stepsInOrder.all(sid) as StepInOrder[];
  }

  /** What the session's stats are made of: every step (the unfinished last line's too), in order. */
  statsRows(sid: number): StatsStepRow[] {
    return this.s.statsRows.all(sid) as StatsStepRow[];
  }

  putStats(sid: number, json: string): void {
    const last = this.s.statsSeq.get() as number | undefined;
    const seq = (last ?? 0) + 1;
    (last === undefined ? this.s.addStatsSeq : this.s.setStatsSeq).run(String(seq));
    this.s.putStats.run(json, seq, sid);
  }

  /** The session's rows changed now. */
  touch(sid: number, at: number): void {
    this.s.touch.run(at, sid);
  }

  setQuickSig(sid: number, sig: string): void {
    this.s.setQuick.run(sig, sid);
  }

  /** The full view's line index as last kept. */
  lineIndex(sid: number): LineIndexSnapshot | null {
    const row = this.s.lineIndex.get(sid) as
      { view: string; committed_end: number; starts: Buffer; sniffed: Buffer } | undefined;
    if (!row) return null;
    const view = JSON.parse(row.view) as ViewSource;
    return { view, committedEnd: row.committed_end, starts: row.starts, sniffed: row.sniffed };
  }

  /** The view (JSON) of the kept line index, without reading the index. */
  lineIndexView(sid: number): string | null {
    return (this.s.lineIndexView.get(sid) as { view: string } | undefined)?.view ?? null;
  }

  putLineIndex(sid: number, snap: LineIndexSnapshot): void {
    const view = JSON.stringify(snap.view);
    this.s.putLineIndex.run(sid, view, snap.committedEnd, snap.starts, snap.sniffed);
  }
}
