import type { BrainStore } from '../../brain/store';
import type {
  HomeIndex,
  IndexStatusRow,
  SearchPage,
  SearchRequest,
  SecretFindingRow,
} from '../home-index';
import { HomeIndexer } from '../home-indexer';
import { TextRedaction } from '../redacted-texts';
import { SessionIndexer } from '../session-indexer';
import { openDatabase, type OpenedDatabase } from './database';
import { SqliteReader } from './sqlite-index';
import { Tables } from './tables';

export interface SqliteIndexOptions {
  cacheDir: string;
  redact: boolean;
  redactPatterns: string[];
  maxRecordBytes: number;
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

/** The SQLite backend of the HomeIndex: one file, one writer (this process), reads beside it. */
export class SqliteHomeIndex implements HomeIndex {
  readonly opened: OpenedDatabase;
  private readonly reader: SqliteReader;
  private readonly indexer: HomeIndexer;
  readonly progress: IndexProgress = {
    bytesRead: 0,
    sessionsChanged: 0,
    failures: 0,
    lastPassMs: 0,
    lastPassStartedAt: 0,
  };
  private updatedAt: Date | null = null;

  constructor(store: BrainStore, options: SqliteIndexOptions) {
    // Stored texts and findings depend on these: a file built with others is rebuilt.
    const fingerprint = JSON.stringify({
      redact: options.redact,
      patterns: options.redactPatterns,
    });
    this.opened = openDatabase(options.cacheDir, fingerprint);
    if (this.opened.warning) options.log.warn(this.opened.warning);
    const db = this.opened.db;
    const tables = new Tables(db);
    this.reader = new SqliteReader(db, () => tables.generation);
    const last = db.prepare("SELECT value FROM meta WHERE key = 'updated_at'").get() as
      { value: string } | undefined;
    this.updatedAt = last ? new Date(Number(last.value)) : null;
    const sessions = new SessionIndexer({
      tables,
      transcripts: store.transcripts,
      redaction: new TextRedaction(options.redact, options.redactPatterns),
      maxRecordBytes: store.transcripts.maxRecordBytes,
    });
    let lastLog = Date.now();
    this.indexer = new HomeIndexer(store, tables, sessions, {
      indexed: (bytes, changed) => {
        this.progress.bytesRead += bytes;
        if (!changed) return;
        this.progress.sessionsChanged++;
        this.updatedAt = new Date();
        tables.setMeta('updated_at', String(this.updatedAt.getTime()));
        if (Date.now() - lastLog > 5000) {
          lastLog = Date.now();
          options.log.log(
            `index: ${this.progress.sessionsChanged} sessions updated, ${(this.progress.bytesRead / 1048576).toFixed(1)} MiB of transcripts read`,
          );
        }
      },
      failed: (dir, err) => {
        this.progress.failures++;
        options.log.warn(
          `index: ${dir || 'a pass'} could not be indexed: ${(err as Error).message ?? String(err)}`,
        );
      },
      passed: (_sessions, ms) => {
        this.progress.lastPassMs = ms;
        this.progress.lastPassStartedAt = Date.now() - ms;
      },
    });
    store.usePersisted(this.reader.heads(), (listed, views) => this.reader.summary(listed, views));
  }

  /** For /metrics and the logs: totals over every session in the index. */
  totals(): { sessions: number; complete: number; bytes: number } {
    return this.reader.totals();
  }

  get file(): string | null {
    return this.opened.file;
  }

  start(): void {
    this.indexer.start();
  }

  /**
   * Stops the background passes without closing the file (search and summaries keep working on
   * what is indexed); `start` resumes them. Tests that count file reads or measure time use it.
   */
  pause(): Promise<void> {
    return this.indexer.stop();
  }

  async close(): Promise<void> {
    await this.indexer.stop();
    this.opened.db.close();
  }

  caughtUp(): Promise<void> {
    return this.indexer.caughtUp();
  }

  search(request: SearchRequest): SearchPage {
    return this.reader.search(request);
  }

  secrets(dirs: readonly string[]): SecretFindingRow[][] {
    return this.reader.secrets(dirs);
  }

  exposedSessions(dirs: readonly string[], kinds: readonly string[] | null): string[] {
    return this.reader.exposedSessions(dirs, kinds);
  }

  status(dirs: readonly string[]): IndexStatusRow {
    return this.reader.status(dirs, this.updatedAt);
  }
}
