import { Activity } from './activity/activity';
import type { CommandInfo, FileChangeInfo } from './activity/types';
import { listArtifacts, getArtifact, type ArtifactInfo } from './artifacts';
import { LruCache, versionKey } from './cache';
import {
  buildCatalog,
  HeadCache,
  substitutesOf,
  type Catalog,
  type ListedSession,
} from './catalog';
import {
  findStepOutput,
  listSessionFiles,
  readFileRange,
  type SessionFileInfo,
  type StepOutputInfo,
} from './files';
import { sortProblems } from './problems';
import { isUserInput, summarize, type SessionSummary } from './session-summary';
import { RecordTooLargeError } from './transcript/scanner';
import { Transcripts } from './transcript/transcript';
import { locateViews, type SessionViews, type ViewSource } from './transcript/view';
import type { ParsedView } from './transcript/parsed-view';
import type { Problem, SessionEntry, SessionFileKind, StepRecord, TruncatedField } from './types';

/**
 * The store's one entry point: discovery snapshots, per-session records, summaries, full
 * twins, files and problems. It knows files and the format and nothing about HTTP; every
 * read goes through the containment gate in safe-path.ts and nothing is ever written.
 */

export interface StoreOptions {
  geminiHome: string | null;
  brainRoots: string[];
  /** A listing older than this is rescanned in the background (stale-while-revalidate). */
  rescanMs?: number;
  /** Views kept per cache. */
  cacheCapacity?: number;
  /**
   * The longest transcript line ever held in memory (default MAX_RECORD_BYTES, 64 MiB): a
   * longer line is reported as LINE_TOO_LONG and not served; reading one as a full twin fails
   * with RecordTooLargeError.
   */
  maxRecordBytes?: number;
  onScanProgress?: (done: number, total: number | null) => void;
}

export type Resolution =
  | { kind: 'found'; session: ListedSession }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'too-short' }
  | { kind: 'none' };

export const MIN_PREFIX = 4;

/** The identity of a view's bytes, for caches that depend on more than one view. */
function viewVersion(view: ViewSource | null): string {
  return view ? view.segments.map((s) => `${s.relPath}:${versionKey(s.version)}`).join('|') : '-';
}
/** One background rescan in this many re-examines every session (the others are quick). */
export const FULL_SCAN_EVERY = 12;

export class BrainStore {
  readonly transcripts: Transcripts;
  private readonly activity: Activity;
  private catalogNow: Catalog | null = null;
  private scanning: Promise<Catalog> | null = null;
  private rescans = 0;
  private readonly heads: HeadCache;
  private readonly summaryCache: LruCache<
    string,
    { parsed: ParsedView; view: ViewSource; full: string; value: Promise<SessionSummary> }
  >;

  constructor(private readonly options: StoreOptions) {
    this.transcripts = new Transcripts(options.cacheCapacity ?? 2000, options.maxRecordBytes);
    this.heads = new HeadCache(options.maxRecordBytes);
    this.summaryCache = new LruCache('summary', options.cacheCapacity ?? 2000);
    this.activity = new Activity(this.transcripts, options.cacheCapacity ?? 2000);
  }

  /**
   * Scans the roots now; resolves with the new snapshot. Concurrent calls share one scan.
   * `quick`: only look for sessions that appeared or vanished (what background rescans do,
   * with a full one every FULL_SCAN_EVERY of them).
   */
  refresh(quick = false): Promise<Catalog> {
    const previous = quick ? (this.catalogNow ?? undefined) : undefined;
    this.scanning ??= buildCatalog(
      this.options.geminiHome,
      this.options.brainRoots,
      this.heads,
      this.options.onScanProgress,
      previous,
    ).then(
      (catalog) => {
        this.catalogNow = catalog;
        this.scanning = null;
        return catalog;
      },
      (err: unknown) => {
        this.scanning = null;
        throw err;
      },
    );
    return this.scanning;
  }

  /** Sessions in the current snapshot (0 before the first scan). */
  get knownSessions(): number {
    return this.catalogNow?.newestFirst.length ?? 0;
  }

  get ready(): boolean {
    return this.catalogNow !== null;
  }

  /** The current snapshot; an old one is served while a rescan runs behind it. */
  async catalog(): Promise<Catalog> {
    const now = this.catalogNow;
    if (!now) return this.refresh();
    if (Date.now() - now.scannedAt > (this.options.rescanMs ?? 5000) && !this.scanning) {
      const quick = ++this.rescans % FULL_SCAN_EVERY !== 0;
      this.refresh(quick).catch(() => undefined);
    }
    return now;
  }

  /**
   * Exact id (case-insensitive), else a unique prefix of at least MIN_PREFIX characters.
   * `visible` hides sessions from callers who may not see them: a hidden session neither
   * matches nor makes a prefix ambiguous, so nothing hints that it exists.
   */
  async resolve(
    id: string,
    visible: (s: ListedSession) => boolean = () => true,
  ): Promise<Resolution> {
    const catalog = await this.catalog();
    const key = id.toLowerCase();
    const exact = catalog.byKey.get(key);
    if (exact && visible(exact)) return { kind: 'found', session: exact };
    const substitutes = substitutesOf(catalog, visible);
    const copy = substitutes.get(key);
    if (copy) return { kind: 'found', session: copy };
    if (id.length < MIN_PREFIX) return { kind: 'too-short' };
    const matches = catalog.newestFirst.filter((s) => s.key.startsWith(key) && visible(s));
    for (const s of substitutes.values()) if (s.key.startsWith(key)) matches.push(s);
    if (matches.length === 1) return { kind: 'found', session: matches[0] };
    if (matches.length > 1) {
      return { kind: 'ambiguous', candidates: matches.map((s) => s.entry.id).sort() };
    }
    return { kind: 'none' };
  }

  views(entry: SessionEntry): Promise<SessionViews> {
    return locateViews(entry.realDir);
  }

  /** The compact view's records in file order (empty when there is no transcript). */
  async records(entry: SessionEntry): Promise<StepRecord[]> {
    return (await this.transcripts.compact(entry.realDir))?.records ?? [];
  }

  /** Session-level facts; recomputed only when the compact view changed. */
  async summary(listed: ListedSession): Promise<SessionSummary> {
    const { entry } = listed;
    const views = await locateViews(entry.realDir);
    const parsed = await this.transcripts.compact(entry.realDir, views);
    if (!parsed) {
      const dirTime = new Date(entry.mtimeMs);
      return summarize([], [], { createdAt: listed.createdAt, updatedAt: dirTime });
    }
    const hit = this.summaryCache.get(entry.realDir);
    // `parsed.view` is replaced whenever the bytes change (also when no record was added:
    // updatedAt may come from the files' mtime). The full view counts too when a USER_INPUT
    // was truncated: its twin may arrive after the compact line.
    const full = parsed.records.some((r) => isUserInput(r) && r.truncatedFields.includes('content'))
      ? viewVersion(views.full)
      : '';
    if (hit && hit.parsed === parsed && hit.view === parsed.view && hit.full === full) {
      return hit.value;
    }
    const value = this.computeSummary(listed, parsed, views);
    this.summaryCache.set(entry.realDir, { parsed, view: parsed.view, full, value });
    return value;
  }

  private async computeSummary(
    listed: ListedSession,
    parsed: ParsedView,
    views: SessionViews,
  ): Promise<SessionSummary> {
    const inputs: string[] = [];
    for (const record of parsed.records.filter(isUserInput)) {
      // A full twin too long to read: the session's facts come from the compact value.
      const text = await this.fullField(listed.entry, record, 'content', views).catch(
        (err: unknown) => {
          if (err instanceof RecordTooLargeError) return record.content;
          throw err;
        },
      );
      if (typeof text === 'string') inputs.push(text);
    }
    const newestFile = Math.max(...parsed.view.segments.map((s) => s.version.mtimeMs));
    return summarize(parsed.records, inputs, {
      createdAt: listed.createdAt,
      updatedAt: new Date(newestFile),
    });
  }

  /**
   * A field's value at full fidelity: the compact value when the field was not truncated or
   * there is no full record for it, else the value from its full twin (one line read).
   * Throws RecordTooLargeError when that twin is longer than `maxRecordBytes`.
   */
  async fullField(
    entry: SessionEntry,
    record: StepRecord,
    field: TruncatedField,
    views?: SessionViews,
  ): Promise<StepRecord[keyof Pick<StepRecord, 'content' | 'thinking' | 'toolCalls'>]> {
    const pick = (r: StepRecord) =>
      field === 'content' ? r.content : field === 'thinking' ? r.thinking : r.toolCalls;
    if (!record.truncatedFields.includes(field)) return pick(record);
    const twin = await this.transcripts.fullTwin(entry.realDir, record, views);
    return pick(twin ?? record);
  }

  stepOutput(
    entry: SessionEntry,
    stepIndex: number,
  ): Promise<{ output: StepOutputInfo | null; problems: Problem[] }> {
    return findStepOutput(entry.realDir, stepIndex);
  }

  readRange(entry: SessionEntry, relPath: string, offset: number, length: number): Promise<Buffer> {
    return readFileRange(entry.realDir, relPath, offset, length);
  }

  async artifacts(entry: SessionEntry): Promise<ArtifactInfo[]> {
    return (await listArtifacts(entry.realDir)).artifacts;
  }

  async artifact(entry: SessionEntry, name: string): Promise<ArtifactInfo | null> {
    return (await getArtifact(entry.realDir, name)).artifact;
  }

  async files(entry: SessionEntry, kind?: SessionFileKind | null): Promise<SessionFileInfo[]> {
    const { files } = await listSessionFiles(entry.realDir);
    return kind ? files.filter((f) => f.kind === kind) : files;
  }

  /** Every problem of the session, complete whatever was read before. */
  async problems(entry: SessionEntry): Promise<Problem[]> {
    const [transcript, files, artifacts] = await Promise.all([
      this.transcripts.problems(entry.realDir),
      listSessionFiles(entry.realDir),
      listArtifacts(entry.realDir),
    ]);
    // The walk and the artifact listing both see an escaping artifact: sortProblems de-duplicates.
    return sortProblems([...transcript, ...files.unsafe, ...artifacts.problems]);
  }

  /** Every run_command call, in transcript order, with what its result says. */
  commands(entry: SessionEntry): Promise<CommandInfo[]> {
    return this.activity.commands(entry);
  }

  /** Every write_to_file / replace_file_content / multi_replace_file_content call. */
  fileChanges(entry: SessionEntry): Promise<FileChangeInfo[]> {
    return this.activity.fileChanges(entry);
  }

  // Batch forms: one call per request-wide batch (DataLoader), so a page of sessions costs
  // the same number of store calls whatever its size.

  summaries(listed: readonly ListedSession[]): Promise<SessionSummary[]> {
    return Promise.all(listed.map((l) => this.summary(l)));
  }

  recordsOf(entries: readonly SessionEntry[]): Promise<StepRecord[][]> {
    return Promise.all(entries.map((e) => this.records(e)));
  }

  artifactsOf(entries: readonly SessionEntry[]): Promise<ArtifactInfo[][]> {
    return Promise.all(entries.map((e) => this.artifacts(e)));
  }

  filesOf(entries: readonly SessionEntry[]): Promise<SessionFileInfo[][]> {
    return Promise.all(entries.map((e) => this.files(e)));
  }

  problemsOf(entries: readonly SessionEntry[]): Promise<Problem[][]> {
    return Promise.all(entries.map((e) => this.problems(e)));
  }

  commandsOf(entries: readonly SessionEntry[]): Promise<CommandInfo[][]> {
    return Promise.all(entries.map((e) => this.commands(e)));
  }

  fileChangesOf(entries: readonly SessionEntry[]): Promise<FileChangeInfo[][]> {
    return Promise.all(entries.map((e) => this.fileChanges(e)));
  }

  stepOutputs(
    keys: readonly { entry: SessionEntry; index: number }[],
  ): Promise<(StepOutputInfo | null)[]> {
    return Promise.all(keys.map(async (k) => (await this.stepOutput(k.entry, k.index)).output));
  }

  /**
   * One result per key; a key that fails (a twin too long to read) gets its Error in its
   * place, so DataLoader fails that one field and not every full field of the request.
   */
  fullFields(
    keys: readonly { entry: SessionEntry; record: StepRecord; field: TruncatedField }[],
  ): Promise<(Awaited<ReturnType<BrainStore['fullField']>> | Error)[]> {
    return Promise.all(
      keys.map((k) =>
        this.fullField(k.entry, k.record, k.field).catch((err: unknown) =>
          err instanceof Error ? err : new Error(String(err)),
        ),
      ),
    );
  }
}
