import type { Admit } from '../brain/types';
import { LARGE_VALUE_BYTES, type Holder, type InFlightBytes } from '../ops/in-flight-bytes';
import * as fs from 'node:fs';
import { DiffBudget } from '../brain/activity/line-diff';
import type { ListedSession } from '../brain/catalog';
import {
  addToSummary,
  emptySummaryState,
  type RequestOf,
  type SummaryState,
} from '../brain/session-summary';
import { lineShape, parseLine } from '../brain/transcript/records';
import { boundaryOf } from '../brain/transcript/boundary';
import { scanLines } from '../brain/transcript/scanner';
import type { Transcripts } from '../brain/transcript/transcript';
import {
  isAppendOnly,
  locateViews,
  type SessionViews,
  type ViewSource,
} from '../brain/transcript/view';
import { keepLineIndex, seedLineIndex } from './kept-line-index';
import { fullInputs, pendingRecords, withInputs, type TwinRecord } from './late-twins';
import { FIELD, recordTexts } from './record-texts';
import { summaryTexts, type TextRedaction } from './redacted-texts';
import { createHash } from 'node:crypto';
import { namedFiles, readText, stepOutputs, type FileDoc, type FileText } from './session-files';
import type { DocRow, StepRow, Tables } from './sqlite/tables';
import { sessionStats } from './session-stats';
import { StageClock, timed } from './stage-clock';
import type { Piece, PreparedSession } from './session-pool';
import { opBytes, replayTape, type TapeOp } from './session-tape';
import { endSliceIfLong, quiet } from './slice';
import { withFileHandles, withSyncReads } from '../brain/safe-read';
import { stepFacts, type StepFacts } from './step-facts';
import { echoMask, learnedTier, MaskedValues } from './session-values';

/**
 * Lines are read in batches of about this many bytes (a batch's progress is saved at its end;
 * the scan's last block is read again by the next batch, so batches are much larger than it).
 */
const SCAN_BATCH_BYTES = 8 * 1024 * 1024;
/** ...and written in transactions of about this many: each holds the event loop while it runs. */
const WRITE_BATCH_BYTES = 128 * 1024;
/** A batch's records are read and written in parts of about this many full-tier bytes. */
const TWIN_PART_BYTES = 16 * 1024 * 1024;

/** What the index keeps of a session's summary: committed lines, and with the unfinished one. */
export interface StoredSummaryState {
  committed: SummaryState;
  served: SummaryState;
  /** Newest transcript file mtime: the summary's updatedAt when no record has a time. */
  filesMtime: number;
}

interface FilesState {
  outputs: Record<string, string>;
  /** By nameKey: the name as stored (masked with REDACT=on) and the file's version. */
  artifacts: Record<string, NamedVersion>;
  /** The same for the other served files (see namedFiles); absent in older index files. */
  others?: Record<string, NamedVersion>;
}

interface NamedVersion {
  name: string;
  version: string;
}

function nameKey(name: string): string {
  return createHash('sha256').update(name).digest('base64url');
}

type Scanned = TwinRecord;

export interface SessionIndexerDeps {
  tables: Tables;
  transcripts: Transcripts;
  redaction: TextRedaction;
  maxRecordBytes: number;
  /**
   * The budget of large values in flight (LARGE_VALUES_MB): a full-tier value read whole for
   * the index waits its turn there like an answer's (never refused), until its batch is written.
   */
  largeValues?: InFlightBytes | null;
  /** Times the pipeline's stages (the bench's build); absent: not timed. */
  clock?: StageClock;
  /**
   * Called after each batch's progress is saved, with the transcript bytes read so far: a
   * worker hands the batch's writes (a SessionTape's) to the thread that owns the file there.
   */
  flush?: (read: number) => Promise<void>;
}

/**
 * Brings one session's rows up to date with its files, reading only what changed: nothing
 * when every version matches, the appended bytes of a transcript that grew in place, the
 * whole transcript when it was replaced, and only the outputs and artifacts that changed.
 */
export class SessionIndexer {
  private readonly d: SessionIndexerDeps;
  readonly clock: StageClock;

  constructor(deps: SessionIndexerDeps) {
    const c = (this.clock = deps.clock ?? new StageClock(false));
    // Timed, each call of the tables, the redactor and the transcripts counts as its stage.
    this.d = {
      ...deps,
      tables: timed(deps.tables, c, 'sqlite', ['db']),
      redaction: timed(deps.redaction, c, 'redaction'),
      transcripts: timed(deps.transcripts, c, 'read'),
    };
  }

  /** The summary's request: with REDACT=on cut from its input masked whole (review 18, H6). */
  private readonly requestOf: RequestOf = (content) => this.d.redaction.request(content);

  /** A session whose writes an error interrupted inside a group (see write): reset on the way out. */
  private torn: number | null = null;

  /** Per session, the values its stored texts are masked with (./session-values). */
  private readonly maskedValues = new MaskedValues();
  /** The session being indexed and its secrets' values (REDACT=on), else null. */
  private learning: { dir: string; values: Map<string, string> } | null = null;

  /** null: nothing changed; else the transcript bytes this call read. */
  async index(
    listed: ListedSession,
    thorough = true,
    signal?: AbortSignal,
  ): Promise<{ bytes: number } | null> {
    this.torn = null;
    try {
      return await this.update(listed, thorough, signal);
    } catch (err) {
      if (this.torn !== null) this.forget(this.torn);
      // A write rolled back may have undone a sweep: the session's texts are swept whole again.
      this.maskedValues.forget(listed.entry.realDir);
      throw err;
    } finally {
      this.torn = null;
      this.learning = null;
      this.d.redaction.learnInto(null);
    }
  }

  /**
   * Writes a session a worker indexed (SessionPool) piece by piece, as `index` would have
   * written it here: the same statements in the same order, a transaction per piece of about
   * WRITE_BATCH_BYTES (or the pass's group), the event loop let go between them. The worker
   * indexed the session as one the index had no row for: when it has one now (another entry
   * of the same folder came first), or the worker failed, the session is indexed here instead,
   * so a worker's crash costs time, never the session (an error of the session itself comes
   * again here and is reported as ever).
   */
  async apply(prepared: PreparedSession, signal?: AbortSignal): Promise<{ bytes: number } | null> {
    const { listed, thorough } = prepared;
    if (this.d.tables.session(listed.entry.realDir) !== undefined) {
      prepared.cancel();
      return this.index(listed, thorough, signal);
    }
    this.torn = null;
    const at = { sid: 0 };
    try {
      for (;;) {
        let piece: Piece;
        try {
          piece = await prepared.next();
        } catch {
          if (signal?.aborted) return { bytes: 0 };
          // Pieces written before the failure are the progress of batches saved: the session
          // goes on from there, as after a pass stopped between batches.
          return await this.index(listed, thorough, signal);
        }
        // Closing: what the worker read since is left for the next run (as a scan's batch).
        if (signal?.aborted) {
          prepared.cancel();
          return { bytes: 0 };
        }
        const { ops } = piece;
        for (let i = 0; i < ops.length;) {
          let size = 0;
          const part: TapeOp[] = [];
          while (i < ops.length && (part.length === 0 || size < WRITE_BATCH_BYTES)) {
            size += opBytes(ops[i]);
            part.push(ops[i++]);
          }
          this.write(at.sid || null, () => replayTape(this.d.tables, at, part));
          if (i < ops.length) await new Promise((resolve) => setImmediate(resolve));
        }
        prepared.written();
        if (piece.last) return piece.result;
      }
    } catch (err) {
      prepared.cancel();
      // A piece that made the session's row and failed after it is torn as well.
      const torn = this.torn ?? (at.sid || null);
      if (torn !== null) this.forget(torn);
      throw err;
    } finally {
      this.torn = null;
    }
  }

  /**
   * Runs `fn`'s statements as one write. Alone, in a transaction of its own. Inside the pass's
   * group (WriteGroup), directly: a transaction there would be a savepoint, and FTS5 writes what
   * it holds as a segment at every savepoint, so a group's terms were written once per batch
   * instead of once per group. Without the savepoint, an error in `fn` can leave part of its
   * statements written: the session (`sid`; null: `fn` is one statement, atomic by itself) is
   * then forgotten as a whole (see forget), never kept half written.
   */
  private write(sid: number | null, fn: () => void): void {
    const db = this.d.tables.db;
    if (!db.inTransaction) {
      db.transaction(fn)();
      this.d.tables.checkpointIfSwept();
      return;
    }
    try {
      fn();
    } catch (err) {
      if (sid !== null) this.torn = sid;
      throw err;
    }
  }

  /**
   * Drops the rows of a session whose write an error interrupted in the group, so the next pass
   * indexes it anew from its files (as a session it never saw). If SQLite ended the transaction
   * for the error, the group went with it (its sessions' progress too, so they are indexed
   * again); if the drop fails too, the group is rolled back the same way.
   */
  private forget(sid: number): void {
    const db = this.d.tables.db;
    if (!db.open || !db.inTransaction) return;
    try {
      this.d.tables.dropSession(sid);
    } catch {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  }

  private async update(
    listed: ListedSession,
    thorough: boolean,
    signal?: AbortSignal,
  ): Promise<{ bytes: number } | null> {
    const { entry } = listed;
    const dir = entry.realDir;
    // A pushed session's [REDACTED:kind] markers are findings (push --redact masked them).
    const marked = entry.root.source !== undefined;
    const t = this.d.tables;
    const row = t.session(dir);
    const clock = this.clock;
    const views = await clock.wait('walk', () => locateViews(dir));
    const view = views.compact;
    const viewSig = view ? JSON.stringify(view) : null;
    const full = views.full && views.full !== views.compact ? views.full : null;
    const fullSig = full ? JSON.stringify(full) : null;
    // New outputs and artifacts change their folder's mtime; files rewritten in place are
    // caught by the thorough passes, which compare every file's version.
    const quickSig = clock.run(
      'walk',
      () => `${viewSig}|${fullSig}|${mtimeOf(dir)}|${mtimeOf(`${dir}/.system_generated/steps`)}`,
    );
    if (!thorough && row?.complete && row.quick_sig === quickSig) return null;
    await endSliceIfLong();
    const outputs = clock.run('walk', () => stepOutputs(dir));
    const { artifacts, others } = await clock.wait('walk', () => namedFiles(dir));
    await endSliceIfLong();
    const filesSig = JSON.stringify([
      [...outputs].map(([i, f]) => [i, f.version]),
      [...artifacts].map(([n, f]) => [nameKey(n), f.version]),
      [...others].map(([n, f]) => [nameKey(n), f.version]),
    ]);
    if (
      row?.complete &&
      row.view_sig === viewSig &&
      row.full_sig === fullSig &&
      row.files_sig === filesSig
    ) {
      if (row.quick_sig !== quickSig) t.setQuickSig(row.sid, quickSig);
      return null;
    }
    const facts = {
      dir,
      sessionId: entry.id,
      root: entry.root.realPath,
      flavor: entry.root.flavor,
      environment: entry.root.environment,
      createdAt: listed.createdAt.getTime(),
    };
    let sid = row?.sid ?? 0;
    // One statement: atomic without a transaction of its own.
    this.write(null, () => (sid = t.ensureSession(facts, row)));
    await this.learnValues(sid, dir, views, row !== undefined, { outputs, artifacts, others });
    if (row) seedLineIndex(t, this.d.transcripts, sid, dir, full);
    let stored: StoredSummaryState | null = row?.summary
      ? (JSON.parse(row.summary) as StoredSummaryState)
      : null;
    let end = row?.view_end ?? 0;
    let lines = row?.view_lines ?? 0;
    let records = row?.view_records ?? 0;
    let bytes = row?.bytes_indexed ?? 0;
    let read = 0;
    // The session's progress as the variables above stand: after each batch, then complete.
    const save = (complete: boolean, check: boolean) =>
      this.saveProgress(sid, {
        dirOf: dir,
        view,
        viewSig,
        end,
        lines,
        records,
        fullSig,
        filesSig: complete ? filesSig : null,
        stored,
        bytes,
        complete,
        check,
      });
    const transcriptChanged = !row?.complete || row.view_sig !== viewSig;
    /** Docs of positions from here on were deleted: outputs attached to them are put again. */
    let deletedFrom = Number.MAX_SAFE_INTEGER;
    if (transcriptChanged) {
      const old = row?.view_sig ? (JSON.parse(row.view_sig) as ViewSource) : null;
      const extend =
        old !== null &&
        view !== null &&
        old.kind === view.kind &&
        isAppendOnly(old, view) &&
        stored !== null &&
        // Same inode and not smaller is also what a rewrite in place looks like (`cat > f`).
        (await clock.wait('read', () => boundaryOf(dir, view, end))) === row?.view_check;
      if (!extend) [end, lines, records, bytes, stored] = [0, 0, 0, 0, null];
      deletedFrom = records;
      this.write(sid, () => {
        t.deleteSteps(sid, records);
        // Lines past those committed are read again (all of them when not extending).
        t.deleteLineFindings(sid, lines);
      });
      let state = stored?.committed ?? emptySummaryState();
      const occurrences = extend ? t.occurrences(sid) : new Map<number, number>();
      let served = state;
      while (view) {
        const from = end;
        const batch: Scanned[] = [];
        let size = 0;
        let stopped = false;
        // Lines that are no record are served too (raw, downloads): their secrets are counted
        // per run of such lines, keyed by the run's first line (see LINE_POSITION).
        const runs: { line: number; text: string }[] = [];
        let run: { line: number; parts: string[] } | null = null;
        const endRun = () => {
          if (run) runs.push({ line: run.line, text: run.parts.join('\n') });
          run = null;
        };
        const noRecord = (line: number, text: string) => {
          if (!run) run = { line, parts: [] };
          run.parts.push(text);
        };
        const parse = (buf: Buffer, f: number, to: number) =>
          lineShape(buf, f, to) === 'object'
            ? parseLine(buf.subarray(f, to), view.kind === 'compact', records, lines)
            : null;
        const scan = () =>
          scanLines(
            dir,
            view,
            from,
            'full',
            (start, lineEnd, buf, f, to) => {
              lines++;
              // Every line counts, records or not: a file of bad lines is sliced as well.
              size += lineEnd + 1 - start;
              stopped = size >= SCAN_BATCH_BYTES;
              // Only an object can be a record: a failed parse costs microseconds, a million of
              // them seconds of a thread that also serves requests.
              if (buf === null) return stopped;
              const verdict = clock.run('parse', () => parse(buf, f, to));
              if (verdict?.kind !== 'record') {
                noRecord(lines, buf.toString('utf8', f, to));
                return stopped;
              }
              endRun();
              const r = verdict.record;
              r.occurrence = occurrences.get(r.index) ?? 0;
              occurrences.set(r.index, r.occurrence + 1);
              records++;
              batch.push({ record: r, start, end: lineEnd, tail: false });
              return stopped;
            },
            this.d.maxRecordBytes,
            undefined,
            signal,
          );
        const result = await clock.wait('read', () => readsInline(view.size - from, scan));
        await endSliceIfLong();
        end = result.committedEnd;
        endRun();
        if (!stopped && result.tail) {
          const verdict = clock.run('parse', () =>
            parseLine(result.tail!, view.kind === 'compact', records, lines + 1),
          );
          if (verdict.kind !== 'record') {
            runs.push({ line: lines + 1, text: result.tail.toString('utf8') });
          } else {
            verdict.record.occurrence = occurrences.get(verdict.record.index) ?? 0;
            batch.push({
              record: verdict.record,
              start: end,
              end: end + result.tailBytes,
              tail: true,
            });
          }
        }
        read += result.scannedEnd - from;
        bytes += end - from;
        const inputs = await this.writeRecords(sid, dir, batch, views, marked, true);
        this.writeLineFindings(sid, runs);
        clock.run('facts', () => {
          state = structuredClone(state);
          addToSummary(
            state,
            batch.filter((b) => !b.tail).map((b) => b.record),
            inputs.committed,
            this.requestOf,
          );
          served = state;
          if (inputs.tail.length > 0 || batch.some((b) => b.tail)) {
            served = structuredClone(state);
            addToSummary(
              served,
              batch.filter((b) => b.tail).map((b) => b.record),
              inputs.tail,
              this.requestOf,
            );
          }
        });
        stored = { committed: state, served, filesMtime: newestMtime(view) };
        // More follows (a full batch, or the index is closing): a later run resumes here.
        await save(false, stopped || result.aborted || signal?.aborted === true);
        await this.d.flush?.(read);
        // Stopped (the index is closing): the next run resumes from the progress saved.
        if (result.aborted || signal?.aborted) return { bytes: read };
        if (!stopped) break;
      }
    }
    if (row && row.full_sig !== fullSig) {
      // Records read before this call may find their twins now (later ones just did).
      const late = await pendingRecords(this.d, sid, dir, views, deletedFrom);
      if (late) {
        await this.writeRecords(sid, dir, late.again, views, marked);
        const pending = new Set(t.pendingPositions(sid));
        const input = late.again.some(
          (a) => a.record.type === 'USER_INPUT' && !pending.has(a.record.position),
        );
        if (input && stored) {
          const inputs = await fullInputs(this.d, sid, dir, views);
          stored = {
            ...stored,
            committed: withInputs(stored.committed, inputs.committed, this.requestOf),
            served: withInputs(
              stored.served,
              [...inputs.committed, ...inputs.tail],
              this.requestOf,
            ),
          };
        }
      }
    }
    await this.indexFiles(sid, dir, { outputs, artifacts, others }, deletedFrom, marked);
    await endSliceIfLong();
    t.putStats(
      sid,
      clock.run('facts', () => JSON.stringify(sessionStats(t.statsRows(sid)))),
    );
    t.touch(sid, Date.now());
    await save(true, true);
    t.setQuickSig(sid, quickSig);
    // The scan's head memo, for a restart that reads no transcript (see HeadCache.seed): the
    // first valid created_at, or (a single file only) that its bytes hold none.
    const first = stored?.served.createdAt ?? null;
    const single = view?.segments.length === 1 && view.segments[0].relPath === view.label;
    if (view && (first !== null ? first === listed.createdAt.getTime() : single)) {
      const v = view.segments[0].version;
      t.setHead(dir, { dev: v.dev, ino: v.ino, size: v.size, createdAt: first });
    } else t.setHead(dir, null);
    await keepLineIndex(t, this.d.transcripts, sid, dir, full);
    return { bytes: read };
  }

  /**
   * Writes the records' steps and texts; returns the USER_INPUT contents, committed and tail.
   * `fresh`: their positions hold nothing yet (appended lines), so nothing is looked up to replace.
   * Written in parts of at most TWIN_PART_BYTES of full-tier values read, each part holding its
   * share of LARGE_VALUES_MB only until it is written: a batch is bounded by its compact bytes
   * (SCAN_BATCH_BYTES), and 8 MiB of cut compact records had 200 MB of twins, all held in memory
   * and in the budget until the batch ended (review 21 M1: 1.4 GB RSS, and every answer of a
   * large value refused for ten minutes while one session was indexed).
   */
  private async writeRecords(
    sid: number,
    dir: string,
    batch: Scanned[],
    views: SessionViews,
    marked: boolean,
    fresh = false,
  ) {
    const large = this.d.largeValues ?? null;
    const out = { committed: [] as string[], tail: [] as string[] };
    const budget = new DiffBudget();
    for (let from = 0; from < batch.length;) {
      const hold: Holder = { held: 0 };
      let read = 0;
      const admit = async (bytes: number) => {
        read += bytes;
        if (large && bytes >= LARGE_VALUE_BYTES) await large.take(hold, bytes, Infinity);
      };
      try {
        from = await this.writeHeld(
          sid,
          dir,
          batch,
          from,
          views,
          marked,
          fresh,
          budget,
          out,
          () => read >= TWIN_PART_BYTES,
          admit,
        );
      } finally {
        large?.release(hold);
      }
    }
    return out;
  }

  /**
   * writeRecords from `batch[from]` until `full()` says a part has been read (or the batch
   * ends), each full-tier line read once `admit` lets it in; returns where it stopped.
   */
  private async writeHeld(
    sid: number,
    dir: string,
    batch: Scanned[],
    from: number,
    views: SessionViews,
    marked: boolean,
    fresh: boolean,
    budget: DiffBudget,
    out: { committed: string[]; tail: string[] },
    full: () => boolean,
    admit: Admit,
  ): Promise<number> {
    const rows: { step: StepRow; docs: DocRow[]; bytes: number }[] = [];
    let at = from;
    for (; at < batch.length && (at === from || !full()); at++) {
      const b = batch[at];
      await endSliceIfLong();
      // A first twin builds the full view's line index (a scan of it) and reads its line; without
      // a full view only an elided record is read again (the compact view's size: not bounded).
      const texts = await this.clock.wait('texts', () =>
        readsInline(views.full?.size ?? Infinity, () =>
          recordTexts(dir, b.record, views, this.d.transcripts, this.d.redaction, marked, admit),
        ),
      );
      if (texts.input !== null) (b.tail ? out.tail : out.committed).push(texts.input);
      const facts = this.clock.run('facts', () => stepFacts(texts.calls, texts.content, budget));
      // Names reach the file as the API shows them: masked with REDACT=on.
      const name = (n: string) => this.d.redaction.name(n);
      for (const call of facts.calls) call[0] = name(call[0]);
      rows.push({
        step: stepRow(b, texts.pendingTwin, facts, name),
        docs: texts.docs,
        bytes: b.end - b.start,
      });
    }
    const t = this.d.tables;
    for (let i = 0; i < rows.length;) {
      let size = 0;
      const part: typeof rows = [];
      while (i < rows.length && (part.length === 0 || size < WRITE_BATCH_BYTES)) {
        size += rows[i].bytes;
        part.push(rows[i++]);
      }
      this.write(sid, () => {
        this.maskStored(
          sid,
          part.flatMap((r) => r.docs),
        );
        for (const r of part) {
          t.putStep(sid, r.step);
          for (const doc of r.docs) t.putDoc(sid, doc, fresh);
        }
      });
      if (i < rows.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return at;
  }

  /**
   * With REDACT=on, the session's secrets' values known before its new texts are written
   * (review H-B: a secret found in one record and echoed in another was stored clear): those
   * this process learned from its texts already; when the index holds texts of the session this
   * process knows no values for (a restart, a session a worker indexed), those of its whole
   * transcript tier (read once) and of every file (a file not changed is not indexed again), as
   * the stored texts are masked and cannot be learned from. The stored texts are then masked
   * with the values this process did not know they were masked with (a restart: all of them).
   * Each text indexed adds its own (TextRedaction.learnInto), and every text is masked with all
   * of them where it is written (maskStored): a part's texts are all read before it is written,
   * so an echo before its secret in the same part is never written clear; one in an earlier
   * part (or a file's secret echoed in the transcript) is masked by the sweep of the write that
   * learns it, which also takes its clear copy out of CACHE_DIR (Tables.checkpointIfSwept, the
   * trigram engine's purge). Reading the tier up front on every first index instead cost a second
   * detector pass over every transcript (the bench's build went from 21 s to 32 s).
   */
  private async learnValues(
    sid: number,
    dir: string,
    views: SessionViews,
    stored: boolean,
    files: {
      outputs: Map<number, FileDoc>;
      artifacts: Map<string, FileDoc>;
      others: Map<string, FileDoc>;
    },
  ): Promise<void> {
    const redaction = this.d.redaction;
    if (!redaction.storesRedacted) return;
    const known = this.maskedValues.known(dir);
    const values = new Map(known ?? []);
    if (stored && !known) {
      const tier = learnedTier(dir, views);
      if (tier) await this.clock.wait('redaction', () => redaction.learnTier(tier, values));
      for (const file of [
        ...files.outputs.values(),
        ...files.artifacts.values(),
        ...files.others.values(),
      ]) {
        await endSliceIfLong();
        const text = await this.clock.wait('read', () =>
          readsInline(file.size, () => readText(dir, file)),
        );
        this.clock.run('redaction', () => redaction.learnFile(text.text, values));
      }
    }
    this.learning = { dir, values };
    redaction.learnInto(values);
    if (stored) this.write(sid, () => this.maskStored(sid, []));
    // Known now, even with no value: a session without secrets is not read whole again.
    this.maskedValues.masked(dir, values);
  }

  /**
   * Inside a write: the session's stored texts masked with the values learned since they were
   * (Tables.sweepValues: an echo written before its secret was found), then `docs` with all.
   */
  private maskStored(sid: number, docs: DocRow[]): void {
    const learning = this.learning;
    if (!learning || learning.values.size === 0) return;
    const { dir, values } = learning;
    const unmasked = this.maskedValues.unmasked(dir, values);
    if (unmasked.size > 0) {
      this.clock.run('redaction', () => this.d.tables.sweepValues(sid, unmasked));
      this.maskedValues.masked(dir, values);
    }
    this.clock.run('redaction', () => {
      for (const doc of docs) doc.text = echoMask(doc.text, values);
    });
  }

  /**
   * A summary as stored (written whole at each save, so masked with every value known then):
   * its request may echo a secret another record reveals, and CACHE_DIR holds none.
   */
  private echoMasked(state: SummaryState): SummaryState {
    const values = this.learning?.values;
    if (!values || values.size === 0) return state;
    return summaryTexts(state, (t) => echoMask(t, values));
  }

  /** Counts what the download masks in runs of lines that are no record. */
  private writeLineFindings(sid: number, runs: { line: number; text: string }[]): void {
    const found = runs
      .map((r) => ({ line: r.line, findings: this.d.redaction.fileText(r.text, false).findings }))
      .filter((r) => r.findings.size > 0);
    if (found.length === 0) return;
    const t = this.d.tables;
    this.write(sid, () => {
      for (const r of found) t.putLineFindings(sid, r.line, r.findings);
    });
  }

  private async indexFiles(
    sid: number,
    dir: string,
    files: {
      outputs: Map<number, FileDoc>;
      artifacts: Map<string, FileDoc>;
      others: Map<string, FileDoc>;
    },
    deletedFrom: number,
    marked: boolean,
  ): Promise<void> {
    const t = this.d.tables;
    const old = filesState(t.getFilesState(sid));
    const next: FilesState = { outputs: {}, artifacts: {}, others: {} };
    const positions = t.firstPositions(sid);
    // Written in one transaction below; an empty doc deletes what its key held.
    const docs: DocRow[] = [];
    const stale = new Set(Object.keys(old.outputs));
    for (const [index, file] of files.outputs) {
      const position = positions.get(index);
      if (position === undefined) continue; // its step is not (yet) in the transcript
      const key = `${position}|${file.version}`;
      next.outputs[index] = key;
      stale.delete(String(index));
      if (old.outputs[index] === key && position < deletedFrom) continue;
      await endSliceIfLong();
      const text = await this.clock.wait('read', () =>
        readsInline(file.size, () => readText(dir, file)),
      );
      docs.push(this.fileDoc(position, FIELD.OUTPUT, '', text, marked));
    }
    for (const index of stale) {
      const position = Number(old.outputs[index].split('|')[0]);
      if (position < deletedFrom) docs.push(emptyDoc(position, FIELD.OUTPUT, ''));
    }
    // Artifacts are searched; the other served files only counted in the secrets report (as
    // ARTIFACT findings named by their path): what their downloads mask is reported too. Both
    // are known by a hash of their name: a name may hold a secret, and with REDACT=on the
    // index keeps only its masked form.
    const named = [
      { from: files.artifacts, was: old.artifacts, now: next.artifacts, searched: true },
      { from: files.others, was: old.others ?? {}, now: next.others ?? {}, searched: false },
    ];
    for (const { from, was, now, searched } of named) {
      for (const [raw, file] of from) {
        const key = nameKey(raw);
        const name = this.d.redaction.name(raw);
        now[key] = { name, version: file.version };
        const before = was[key];
        if (before?.version === file.version && before.name === name) continue;
        if (before && before.name !== name) docs.push(emptyDoc(-1, FIELD.ARTIFACT, before.name));
        await endSliceIfLong();
        const text = await this.clock.wait('read', () =>
          readsInline(file.size, () => readText(dir, file)),
        );
        const doc = this.fileDoc(-1, FIELD.ARTIFACT, name, text, marked);
        // A secret in the file's name (or a folder's) is masked wherever the path is listed:
        // reported as one of this file's findings.
        for (const [kind, n] of this.d.redaction.text(raw).findings)
          doc.findings.set(kind, (doc.findings.get(kind) ?? 0) + n);
        docs.push(searched ? doc : { ...doc, text: '' });
      }
      for (const [key, gone] of Object.entries(was)) {
        if (!(key in now)) docs.push(emptyDoc(-1, FIELD.ARTIFACT, gone.name));
      }
    }
    this.write(sid, () => {
      this.maskStored(sid, docs);
      for (const doc of docs) t.putDoc(sid, doc);
      t.setFilesState(sid, JSON.stringify(next));
    });
  }

  private fileDoc(
    position: number,
    field: number,
    name: string,
    file: FileText,
    marked: boolean,
  ): DocRow {
    const { text, findings } = this.d.redaction.fileText(file.text, file.cut, marked, file.reading);
    return { position, field, name, text, findings };
  }

  private async saveProgress(
    sid: number,
    p: {
      view: ViewSource | null;
      viewSig: string | null;
      end: number;
      lines: number;
      records: number;
      fullSig: string | null;
      filesSig: string | null;
      stored: StoredSummaryState | null;
      bytes: number;
      complete: boolean;
      dirOf: string;
      /** Remember the bytes before `end` (see boundaryOf): a later run may resume from it. */
      check: boolean;
    },
  ): Promise<void> {
    // The last batch of a pass needs none: the session's final save follows at once.
    const viewCheck =
      p.view && p.check
        ? await this.clock.wait('read', () => boundaryOf(p.dirOf, p.view!, p.end))
        : null;
    const stored = p.stored && {
      ...p.stored,
      committed: this.echoMasked(this.d.redaction.summary(p.stored.committed)),
      served: this.echoMasked(this.d.redaction.summary(p.stored.served)),
    };
    const served = stored?.served ?? emptySummaryState();
    this.d.tables.progress({
      sid,
      viewKind: p.view?.kind ?? null,
      viewSig: p.viewSig,
      viewEnd: p.end,
      viewCheck,
      viewLines: p.lines,
      viewRecords: p.records,
      fullSig: p.fullSig,
      filesSig: p.filesSig,
      summary: stored ? JSON.stringify(stored) : null,
      bytesIndexed: p.bytes,
      complete: p.complete ? 1 : 0,
      // The summary's updatedAt: the newest record time, else the newest transcript mtime.
      updatedAt: served.updatedAt ?? stored?.filesMtime ?? null,
      model: served.model,
      stepCount: served.stepCount,
      toolCallCount: served.toolCallCount,
      errorCount: served.errorCount,
    });
  }
}

function stepRow(
  b: Scanned,
  pendingTwin: boolean,
  facts: StepFacts,
  name: (raw: string) => string,
): StepRow {
  const r = b.record;
  return {
    position: r.position,
    stepIndex: r.index,
    line: r.line,
    start: b.start,
    end: b.end,
    type: name(r.type),
    status: name(r.status),
    createdAt: r.createdAt?.getTime() ?? null,
    toolCalls: r.toolCalls.length,
    calls: facts.calls.length > 0 ? JSON.stringify(facts.calls) : null,
    exitCode: facts.exitCode,
    pendingTwin,
    tail: b.tail,
  };
}

function mtimeOf(path: string): number {
  try {
    return fs.statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestMtime(view: ViewSource): number {
  let newest = -Infinity;
  for (const s of view.segments) newest = Math.max(newest, s.version.mtimeMs);
  return newest;
}

function filesState(json: string | null): FilesState {
  return json ? (JSON.parse(json) as FilesState) : { outputs: {}, artifacts: {} };
}

/**
 * A read of up to this many bytes is made with synchronous calls while no request arrives
 * (slice.ts `quiet`): about a millisecond of this thread at most, scanned and parsed.
 */
const INLINE_READ_BYTES = 256 * 1024;

/**
 * `read()` with synchronous file calls when its bytes are few and no request arrives; else
 * through FileHandles, as the indexer always read (see withFileHandles: its round trips are the
 * requests' turns).
 */
function readsInline<T>(bytes: number, read: () => T): T {
  if (!quiet()) return withFileHandles(read);
  return bytes <= INLINE_READ_BYTES ? withSyncReads(read) : withFileHandles(read);
}

/** A doc with no text and no finding: putting it deletes what its key held. */
function emptyDoc(position: number, field: number, name: string): DocRow {
  return { position, field, name, text: '', findings: new Map() };
}
