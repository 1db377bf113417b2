import type { InFlightBytes } from '../../ops/in-flight-bytes';
import type { IngestTraffic } from '../../ops/ingest-traffic';
import type { BrainStore } from '../../brain/store';
import type {
  HomeIndex,
  IndexedStats,
  IndexStatusRow,
  SearchPage,
  SearchRequest,
  SecretFindingRow,
  SessionCountsRow,
} from '../home-index';
import { HomeIndexer, type IndexerEvents } from '../home-indexer';
import { TextRedaction } from '../redacted-texts';
import { SessionIndexer } from '../session-indexer';
import { StageClock, timed } from '../stage-clock';
import { searchEngine, type SearchEngine } from '../search-engine';
import { TrigramTexts } from '../trigram/home-texts';
import type { SegmentBuilder, TrigramIndex } from '../trigram/trigram-index';
import { WorkerBuilder } from '../trigram/worker-builder';
import { indexFingerprint, isCorrupt, openDatabase, type OpenedDatabase } from './database';
import { TrigramSearcher } from './trigram-search';
import { SqliteReader } from './sqlite-index';
import { Tables } from './tables';
import { WriteGroup } from './write-group';
import { defaultSessionWorkers, SessionPool, type SessionWorkers } from '../session-pool';

/** INDEX_WORKERS: how many session workers (default: defaultSessionWorkers(); 0: none). */
export function sessionWorkers(env: string | undefined): number {
  if (env === undefined || env.trim() === '') return defaultSessionWorkers();
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0 || n > 16) {
    throw new Error(
      `INDEX_WORKERS must be a whole number from 0 to 16, not ${JSON.stringify(env)}`,
    );
  }
  return n;
}

export interface SqliteIndexOptions {
  cacheDir: string;
  redact: boolean;
  redactPatterns: string[];
  maxRecordBytes: number;
  /** The search engine; default: INDEX_ENGINE's (see searchEngine), else FTS5. */
  engine?: SearchEngine;
  /** Who writes trigram segments (default: worker threads). */
  builder?: SegmentBuilder;
  /** The budget of large values in flight (LARGE_VALUES_MB) the index's reads wait in too. */
  largeValues?: InFlightBytes | null;
  /** Pushes the indexer makes way for (it waits while they arrive; see IngestTraffic). */
  ingestTraffic?: IngestTraffic | null;
  /** Times the indexer's stages (the bench's build; see stage-clock.ts). */
  stageClock?: StageClock;
  /**
   * Worker threads that read, parse and redact new sessions (SessionPool); default:
   * INDEX_WORKERS, else defaultSessionWorkers(). 0: every session is indexed on the main thread.
   */
  sessionWorkers?: number;
  /** Logs (warnings about the file, progress while building). */
  log: { log(message: string): void; warn(message: string): void };
}

/** Progress counters, read by /metrics and the progress log. */
export interface IndexProgress {
  bytesRead: number;
  sessionsChanged: number;
  failures: number;
  lastPassMs: number;
  /** When the last complete pass started: the files as of then are in the index. */
  lastPassStartedAt: number;
}

/** One database and everything bound to it; replaced whole when the file turns out damaged. */
interface Backend {
  opened: OpenedDatabase;
  texts: TrigramTexts | null;
  tables: Tables;
  pool: SessionWorkers | null;
  reader: SqliteReader;
  indexer: HomeIndexer;
}

/**
 * The SQLite backend of the HomeIndex: one file, one writer (this process), reads beside it.
 * Damage SQLite finds while the file serves (a page of it corrupt) is never fatal: the file is
 * made anew and indexed again from the files, answering meanwhile from what is indexed.
 */
export class SqliteHomeIndex implements HomeIndex {
  private backend: Backend;
  private started = false;
  private readonly fingerprint: string;
  private readonly redaction: TextRedaction;
  readonly progress: IndexProgress = {
    bytesRead: 0,
    sessionsChanged: 0,
    failures: 0,
    lastPassMs: 0,
    lastPassStartedAt: 0,
  };
  private lastLog = Date.now();

  constructor(
    private readonly store: BrainStore,
    private readonly options: SqliteIndexOptions,
  ) {
    // Stored texts and findings depend on these: a file built with others is rebuilt.
    this.fingerprint = indexFingerprint(options.redact, options.redactPatterns);
    this.redaction = new TextRedaction(options.redact, options.redactPatterns);
    this.backend = this.connect(null);
    const heads = this.guard(() => this.backend.reader.heads(), []);
    store.usePersisted(heads, (listed, views) =>
      this.guard(() => this.backend.reader.summary(listed, views), null),
    );
  }

  get opened(): OpenedDatabase {
    return this.backend.opened;
  }

  get file(): string | null {
    return this.backend.opened.file;
  }

  start(): void {
    this.started = true;
    this.backend.indexer.start();
    this.backend.texts?.start();
  }

  /** The session workers' stage times (the bench's build; null without workers). */
  get workerClock(): StageClock | null {
    return this.backend.pool?.clock ?? null;
  }

  /** This index's share of the session workers (null without). */
  get sessionWorkers(): SessionWorkers | null {
    return this.backend.pool;
  }

  /** The trigram engine's segments (null with FTS5): tests and the bench look into them. */
  get trigram(): TrigramIndex | null {
    return this.backend.texts?.index ?? null;
  }

  /**
   * Stops the background passes without closing the file (search and summaries keep working on
   * what is indexed); `start` resumes them. Tests that count file reads or measure time use it.
   */
  pause(): Promise<void> {
    this.started = false;
    return this.backend.indexer.stop();
  }

  /** For /metrics and the logs: totals over every session in the index. */
  totals(): { sessions: number; complete: number; bytes: number } {
    return this.guard(() => this.backend.reader.totals());
  }

  async close(): Promise<void> {
    this.started = false;
    await this.backend.indexer.stop();
    this.backend.pool?.close();
    await this.backend.texts?.close();
    this.backend.opened.db.close();
  }

  async caughtUp(): Promise<void> {
    const { indexer } = this.backend;
    await indexer.caughtUp();
    // Rebuilt meanwhile: the new indexer is the one to wait for.
    if (this.backend.indexer !== indexer) return this.caughtUp();
    await this.backend.texts?.flush();
  }

  search(request: SearchRequest): SearchPage {
    return this.guard(() => this.backend.reader.search(request));
  }

  secrets(dirs: readonly string[]): SecretFindingRow[][] {
    return this.guard(() => this.backend.reader.secrets(dirs));
  }

  exposedSessions(dirs: readonly string[], kinds: readonly string[] | null): string[] {
    return this.guard(() => this.backend.reader.exposedSessions(dirs, kinds));
  }

  stats(dirs: readonly string[]): (IndexedStats | null)[] {
    return this.guard(() => this.backend.reader.stats(dirs));
  }

  counts(dirs: readonly string[]): (SessionCountsRow | null)[] {
    return this.guard(() => this.backend.reader.counts(dirs));
  }

  tools(dirs: readonly string[]): (readonly string[] | null)[] {
    return this.guard(() => this.backend.reader.tools(dirs));
  }

  status(dirs: readonly string[]): IndexStatusRow {
    return this.guard(() => this.backend.reader.status(dirs));
  }

  /** Runs `read`; when it finds the file damaged, rebuilds and answers from the new index. */
  private guard<T>(read: () => T, fallback?: T): T {
    try {
      return read();
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      this.rebuild(err);
      return fallback !== undefined ? fallback : read();
    }
  }

  private rebuild(err: unknown): void {
    const old = this.backend;
    old.indexer
      .stop()
      .then(() => old.pool?.close())
      .catch(() => undefined);
    old.texts?.close().catch(() => undefined);
    old.opened.db.close();
    const reason = `is damaged (${(err as { code: string }).code})`;
    this.backend = this.connect(reason);
    if (this.started) this.start();
  }

  private connect(discard: string | null): Backend {
    const engine = this.options.engine ?? searchEngine(process.env.INDEX_ENGINE);
    const opened = openDatabase(this.options.cacheDir, this.fingerprint, discard, engine);
    if (opened.warning) this.options.log.warn(opened.warning);
    const db = opened.db;
    // With REDACT=on a text stored before a secret it echoes was known is masked again
    // (Tables.sweep), or deleted first (a record rewritten): its clear copy would stay in the
    // freed page. Zeroing every freed page costs FTS5's merges their pages' writes (about a
    // fifth of a large session's build): REDACT=off stores clear text anyway and skips it.
    if (this.options.redact) db.pragma('secure_delete = ON');
    const texts =
      engine === 'trigram'
        ? new TrigramTexts(
            db,
            opened.file === null ? null : this.options.cacheDir,
            this.options.builder ?? new WorkerBuilder(),
            (m) => this.options.log.warn(m),
          )
        : null;
    const tables = new Tables(db, texts);
    const generation = () => tables.generation + (texts?.index.generation ?? 0);
    const searcher = texts && new TrigramSearcher(db, texts.index, generation);
    const reader = new SqliteReader(db, generation, searcher);
    const clock = this.options.stageClock ?? new StageClock(false);
    const sessions = new SessionIndexer({
      tables,
      transcripts: this.store.transcripts,
      redaction: this.redaction,
      maxRecordBytes: this.store.transcripts.maxRecordBytes,
      largeValues: this.options.largeValues ?? null,
      clock,
    });
    const workers = this.options.sessionWorkers ?? sessionWorkers(process.env.INDEX_WORKERS);
    const pool =
      workers > 0
        ? SessionPool.acquire(
            workers,
            {
              redact: this.options.redact,
              redactPatterns: this.options.redactPatterns,
              maxRecordBytes: this.store.transcripts.maxRecordBytes,
              timed: clock.on,
              largeValues: (this.options.largeValues ?? null) !== null,
            },
            this.options.largeValues ?? null,
          )
        : null;
    const backend: Backend = {
      opened,
      texts,
      tables,
      pool,
      reader,
      indexer: new HomeIndexer(
        // Timed (the bench's build): the catalog's walk, and the group commits FTS5 writes in.
        timed(this.store, clock, 'walk'),
        tables,
        sessions,
        this.events(() => backend),
        this.options.ingestTraffic ?? null,
        new WriteGroup(timed(db, clock, 'sqlite'), () => tables.checkpointIfSwept()),
        pool,
      ),
    };
    try {
      // A first read of the sessions table: a file damaged there is made anew now.
      db.prepare('SELECT count(*) FROM sessions').get();
    } catch (e) {
      if (!isCorrupt(e) || discard !== null) throw e;
      db.close();
      return this.connect(`is damaged (${(e as { code: string }).code})`);
    }
    return backend;
  }

  private events(self: () => Backend): IndexerEvents {
    return {
      indexed: (bytes, changed) => {
        this.progress.bytesRead += bytes;
        if (!changed || self() !== this.backend) return;
        this.progress.sessionsChanged++;
        if (Date.now() - this.lastLog > 5000) {
          this.lastLog = Date.now();
          this.options.log.log(
            `index: ${this.progress.sessionsChanged} sessions updated, ${(this.progress.bytesRead / 1048576).toFixed(1)} MiB of transcripts read`,
          );
        }
      },
      failed: (dir, err) => {
        // A stopped (replaced) indexer's last steps fail on its closed database: not news.
        if (self() !== this.backend) return;
        if (isCorrupt(err)) return this.rebuild(err);
        this.progress.failures++;
        this.options.log.warn(
          `index: ${dir || 'a pass'} could not be indexed: ${(err as Error).message ?? String(err)}`,
        );
      },
      passed: (_sessions, ms) => {
        this.progress.lastPassMs = ms;
        this.progress.lastPassStartedAt = Date.now() - ms;
      },
    };
  }
}
