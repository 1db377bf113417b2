import type { InFlightBytes } from '../ops/in-flight-bytes';
import { Activity } from './activity/activity';
import type { CommandInfo, FileChangeInfo } from './activity/types';
import { listArtifacts, getArtifact, type ArtifactInfo } from './artifacts';
import { CacheBudget } from './cache';
import {
  buildCatalog,
  HeadCache,
  substitutesOf,
  type HeadMemo,
  type Catalog,
  type ListedSession,
} from './catalog';
import {
  findStepOutput,
  listSessionFiles,
  listStepOutputs,
  readFileRange,
  stepsFolderStamp,
  type SessionFileInfo,
  type StepOutputFile,
  type StepOutputInfo,
} from './files';
import { sortProblems } from './problems';
import { requestOfMasked, type SessionSummary } from './session-summary';
import { Summaries, type PersistedSummary } from './summaries';
import { isElided } from './transcript/record-size';
import { Transcripts } from './transcript/transcript';
import { locateViews, type SessionViews } from './transcript/view';
import { viewTier } from './transcript/scanner';
import type {
  Admit,
  Problem,
  SessionEntry,
  SessionFileKind,
  StepRecord,
  TruncatedField,
} from './types';

/**
 * The store's one entry point: discovery snapshots, per-session records, summaries, full
 * twins, files and problems. It knows files and the format and nothing about HTTP; every
 * read goes through the containment gate in safe-path.ts and nothing is ever written.
 */

export interface StoreOptions {
  geminiHome: string | null;
  brainRoots: string[];
  /** INGEST_DIR when pushed sessions are served: `<source>/<flavor>/brain` roots in it. */
  ingestDir?: string | null;
  /** A listing older than this is rescanned in the background (stale-while-revalidate). */
  rescanMs?: number;
  /** The byte budget of every cache of the store together (CACHE_MAX_MB; default 256 MiB). */
  cacheBytes?: number;
  /**
   * The longest transcript line ever held in memory (default MAX_RECORD_BYTES, 64 MiB): a
   * longer line is reported as LINE_TOO_LONG and not served; reading one as a full twin fails
   * with RecordTooLargeError.
   */
  maxRecordBytes?: number;
  onScanProgress?: (done: number, total: number | null) => void;
  /**
   * True for a folder name holding a secret (REDACT=on): the folder is not served as a session
   * (its id would show in every listing, URL, export and log). See Catalog.withheld.
   */
  withhold?: (name: string) => boolean;
  /** Called after a scan whose withheld folders differ from the previous scan's. */
  onWithheld?: (withheld: Catalog['withheld']) => void;
  /** The process's large values in flight (LARGE_VALUES_MB): long lines parsed count in it. */
  largeValues?: InFlightBytes | null;
  /**
   * REDACT=on: a text with its secrets masked (Redactor.redactText). Session.userRequest is then
   * cut from its USER_INPUT's content masked whole, so a secret the content shows twice is
   * masked in the request as in the content (see requestOfMasked).
   */
  maskText?: (text: string) => string;
}

export type Resolution =
  | { kind: 'found'; session: ListedSession }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'too-short' }
  | { kind: 'none' };

export const MIN_PREFIX = 4;

/** One background rescan in this many re-examines every session (the others are quick). */
export const FULL_SCAN_EVERY = 12;
/**
 * A lookup of a full id the snapshot lacks rescans (quickly) at most this often: a session made
 * a moment ago is found at once, and a caller asking for random ids cannot make every request
 * a scan.
 */
export const MISS_RESCAN_MS = 250;
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A transcript tier read as one byte stream (see BrainStore.fullTier). */
export interface FullTier {
  key: string;
  identity: string;
  size: number;
  read: (start: number, end: number) => Promise<Buffer>;
}

export class BrainStore {
  readonly transcripts: Transcripts;
  private readonly activity: Activity;
  private catalogNow: Catalog | null = null;
  private scanning: Promise<Catalog> | null = null;
  /** The scan after the one running, shared by the calls made during it (see refresh). */
  private nextScan: Promise<Catalog> | null = null;
  private nextQuick = true;
  private rescans = 0;
  private missRescanAt = 0;
  private readonly heads: HeadCache;
  private readonly summaryOf: Summaries;
  /** Parsed views, line indexes and summaries share it. */
  readonly cache: CacheBudget;

  constructor(private readonly options: StoreOptions) {
    this.cache = new CacheBudget(options.cacheBytes);
    this.transcripts = new Transcripts({
      budget: this.cache,
      maxRecordBytes: options.maxRecordBytes,
      largeValues: options.largeValues,
    });
    this.heads = new HeadCache(options.maxRecordBytes);
    this.summaryOf = new Summaries(
      this.transcripts,
      this.cache,
      (entry, record, views) => this.fullField(entry, record, 'content', views),
      options.maskText ? requestOfMasked(options.maskText) : undefined,
    );
    this.activity = new Activity(this.transcripts, this.cache);
  }

  /**
   * Scans the roots now; resolves with a snapshot that saw every folder made before the call.
   * `quick`: only look for sessions that appeared or vanished (what background rescans do,
   * with a full one every FULL_SCAN_EVERY of them).
   * A call during a scan does not share that scan (it may have listed the roots before a
   * folder the caller just wrote: the fuzz spec's new session was null under load): it waits
   * for one more, which every call made meanwhile shares.
   */
  refresh(quick = false): Promise<Catalog> {
    if (!this.scanning) return (this.scanning = this.scan(quick));
    this.nextQuick = (this.nextScan === null || this.nextQuick) && quick;
    this.nextScan ??= this.scanning
      .catch(() => undefined)
      .then(() => {
        this.nextScan = null;
        return (this.scanning ??= this.scan(this.nextQuick));
      });
    return this.nextScan;
  }

  private scan(quick: boolean): Promise<Catalog> {
    const previous = quick ? (this.catalogNow ?? undefined) : undefined;
    return buildCatalog(
      this.options.geminiHome,
      this.options.brainRoots,
      this.heads,
      this.options.onScanProgress,
      previous,
      this.options.ingestDir ?? null,
      this.options.withhold,
    ).then(
      (catalog) => {
        const before = (this.catalogNow?.withheld ?? []).map((w) => w.root.path + '\0' + w.name);
        const after = catalog.withheld.map((w) => w.root.path + '\0' + w.name);
        if (before.join('\n') !== after.join('\n')) this.options.onWithheld?.(catalog.withheld);
        this.catalogNow = catalog;
        this.scanning = null;
        return catalog;
      },
      (err: unknown) => {
        this.scanning = null;
        throw err;
      },
    );
  }

  /**
   * What an earlier run left (the home index): heads, so the first scan reads no transcript
   * whose first record is known, and summaries, served while the views they came from stand.
   */
  usePersisted(heads: Iterable<[string, HeadMemo]>, summary: PersistedSummary): void {
    this.heads.seed(heads);
    this.summaryOf.persisted = summary;
  }

  /** Sessions in the current snapshot (0 before the first scan). */
  get knownSessions(): number {
    return this.catalogNow?.newestFirst.length ?? 0;
  }

  /** Folders the last scan did not serve because their name holds a secret (REDACT=on). */
  get withheldFolders(): number {
    return this.catalogNow?.withheld.length ?? 0;
  }

  /** Session directories in the current snapshot, copies that lost to another root's included. */
  get knownDirectories(): number {
    return (this.catalogNow?.newestFirst.length ?? 0) + (this.catalogNow?.shadowed.length ?? 0);
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
    const found = this.resolveIn(await this.catalog(), id, visible);
    if (found.kind !== 'none' || !FULL_ID.test(id.toLowerCase())) return found;
    // The folder may have appeared since the snapshot (the watcher's event, or RESCAN_MS, is
    // still to come): a quick rescan only lists the roots and reads the new folders' heads.
    const now = Date.now();
    if (!this.scanning && now - this.missRescanAt < MISS_RESCAN_MS) return found;
    if (!this.scanning) this.missRescanAt = now;
    return this.resolveIn(await this.refresh(true), id, visible);
  }

  private resolveIn(
    catalog: Catalog,
    id: string,
    visible: (s: ListedSession) => boolean,
  ): Resolution {
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

  /**
   * The full tier as one byte stream when it is a view of its own beside a compact one (what
   * the compact tier was cut from), else null; with `compactFile`, only when that file is one of
   * the compact tier's. `identity` names its first file's inode: the view grows by appending,
   * and another inode is another transcript.
   */
  async fullTier(entry: SessionEntry, compactFile?: string): Promise<FullTier | null> {
    const views = await locateViews(entry.realDir);
    const full = views.full;
    if (!full || !views.compact || views.compact === full) return null;
    if (compactFile !== undefined && !views.compact.segments.some((s) => s.relPath === compactFile))
      return null;
    return viewTier(entry.realDir, full);
  }

  /**
   * Every transcript view of the session as one byte stream each (the full view first, then a
   * compact one of its own): what the session's secret values are learned from
   * (../steps/session-values). None without a transcript.
   */
  async transcriptTiers(entry: SessionEntry): Promise<FullTier[]> {
    const views = await locateViews(entry.realDir);
    const distinct = [views.full, views.compact].filter(
      (v, i, all): v is NonNullable<typeof v> => v !== null && all.indexOf(v) === i,
    );
    return distinct.map((view) => viewTier(entry.realDir, view));
  }

  /**
   * The compact view's records in file order (empty when there is no transcript). Records of a
   * view with no compact tier may leave large values on disk: see `fullField`.
   */
  async records(entry: SessionEntry, signal?: AbortSignal): Promise<StepRecord[]> {
    return (await this.transcripts.compact(entry.realDir, undefined, signal))?.records ?? [];
  }

  /** Session-level facts; recomputed only when the compact view changed. */
  summary(listed: ListedSession, signal?: AbortSignal): Promise<SessionSummary> {
    return this.summaryOf.of(listed, signal);
  }

  /**
   * A field's value at full fidelity: the compact value when the field was not truncated or
   * there is no full record for it, else the value from its full twin (one line read).
   * Throws RecordTooLargeError when that twin is longer than `maxRecordBytes`. `admit` is
   * awaited with the size of each line before it is read.
   */
  async fullField(
    entry: SessionEntry,
    record: StepRecord,
    field: TruncatedField,
    views?: SessionViews,
    admit?: Admit,
  ): Promise<StepRecord[keyof Pick<StepRecord, 'content' | 'thinking' | 'toolCalls'>]> {
    const pick = (r: StepRecord) =>
      field === 'content' ? r.content : field === 'thinking' ? r.thinking : r.toolCalls;
    if (!record.truncatedFields.includes(field) && !isElided(record, field)) return pick(record);
    const twin = await this.transcripts.fullTwin(entry.realDir, record, views, undefined, admit);
    return pick(twin ?? record);
  }

  stepOutput(
    entry: SessionEntry,
    stepIndex: number,
  ): Promise<{ output: StepOutputInfo | null; problems: Problem[] }> {
    return findStepOutput(entry.realDir, stepIndex);
  }

  /** Every step's output file, by step index (metadata only). */
  stepOutputFiles(entry: SessionEntry): StepOutputFile[] {
    return listStepOutputs(entry.realDir);
  }

  /** Changes when a step folder comes or goes (see stepsFolderStamp). */
  stepsStamp(entry: SessionEntry): string {
    return stepsFolderStamp(entry.realDir);
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

  /**
   * Every problem of the session, complete whatever was read before; past MAX_PROBLEMS, one
   * TOO_MANY_PROBLEMS counts the rest.
   */
  async problems(entry: SessionEntry, signal?: AbortSignal): Promise<Problem[]> {
    const [transcript, files, artifacts] = await Promise.all([
      this.transcripts.problems(entry.realDir, signal),
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

  summaries(listed: readonly ListedSession[], signal?: AbortSignal): Promise<SessionSummary[]> {
    return Promise.all(listed.map((l) => this.summary(l, signal)));
  }

  recordsOf(entries: readonly SessionEntry[], signal?: AbortSignal): Promise<StepRecord[][]> {
    return Promise.all(entries.map((e) => this.records(e, signal)));
  }

  artifactsOf(entries: readonly SessionEntry[]): Promise<ArtifactInfo[][]> {
    return Promise.all(entries.map((e) => this.artifacts(e)));
  }

  filesOf(entries: readonly SessionEntry[]): Promise<SessionFileInfo[][]> {
    return Promise.all(entries.map((e) => this.files(e)));
  }

  problemsOf(entries: readonly SessionEntry[], signal?: AbortSignal): Promise<Problem[][]> {
    return Promise.all(entries.map((e) => this.problems(e, signal)));
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
    admit?: Admit,
  ): Promise<(Awaited<ReturnType<BrainStore['fullField']>> | Error)[]> {
    return Promise.all(
      keys.map((k) =>
        this.fullField(k.entry, k.record, k.field, undefined, admit).catch((err: unknown) =>
          err instanceof Error ? err : new Error(String(err)),
        ),
      ),
    );
  }
}
