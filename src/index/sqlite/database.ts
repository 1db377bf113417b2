import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchEngine } from '../search-engine';
import { VERSION as TRIGRAM_LAYOUT } from '../trigram/layout';
import { REDACTION_RULES } from '../../redaction/rules-version';
import { SCHEMA, SCHEMA_VERSION } from './schema';

export type Db = Database.Database;

export const INDEX_FILE = 'index.sqlite';

/** Stored texts and findings depend on these settings: a file built with others is rebuilt. */
export function indexFingerprint(redact: boolean, patterns: readonly string[]): string {
  // `findings`: how findings are counted. "pushed-markers": a pushed session's own
  // [REDACTED:kind] markers count (push --redact); "record-values": a record's error and other
  // values count (CONTENT); "request-once": a request's secrets are not counted again in its
  // CONTENT; "request-masked": a USER_REQUEST (and the summary's request) is cut from its
  // input masked whole (review 18, H6); "session-echoes": with REDACT=on a text is stored
  // masked with the secrets of its whole session too (review H-B: an echo of a secret another
  // record reveals was stored clear), uncounted. An index counted or stored otherwise is rebuilt.
  return JSON.stringify({
    redact,
    patterns,
    findings: 'pushed-markers,record-values,request-once,request-masked,session-echoes',
    rules: REDACTION_RULES,
  });
}

export interface OpenedDatabase {
  db: Db;
  /** The database file; null for the in-memory fallback. */
  file: string | null;
  /** Why the file was rebuilt or not used (logged as a warning), else null. */
  warning: string | null;
}

/**
 * Opens (or makes) the index database in `cacheDir`. The index is a cache of the files, so
 * nothing here is fatal: a file that is corrupt, of another schema version or built with other
 * redaction settings (`fingerprint`) is deleted and made anew; a directory that cannot be
 * written, or a file another process holds, gives an in-memory index.
 */
export function openDatabase(
  cacheDir: string,
  fingerprint: string,
  /** Why the existing file must not be used (damage found while it served): made anew. */
  discard: string | null = null,
  engine: SearchEngine = 'fts5',
): OpenedDatabase {
  const file = path.join(cacheDir, INDEX_FILE);
  try {
    makeDir(cacheDir);
    fs.accessSync(cacheDir, fs.constants.W_OK);
  } catch (err) {
    return memory(
      `CACHE_DIR ${cacheDir} is not writable (${code(err)}): the index is kept in memory`,
      engine,
    );
  }
  let warning: string | null = discard && `the index file ${file} ${discard}: it is rebuilt`;
  if (!warning) {
    let db: Db | null = null;
    try {
      db = open(file);
      const reason = unusable(db, fingerprint, engine);
      if (reason === null) return { db, file, warning };
      warning = `the index file ${file} ${reason}: it is rebuilt`;
    } catch (err) {
      db?.close();
      db = null;
      if (isBusy(err)) {
        return memory(
          `the index file ${file} is in use by another process: this one keeps its index in memory`,
          engine,
        );
      }
      warning = `the index file ${file} cannot be read (${code(err)}): it is rebuilt`;
    }
    db?.close();
  }
  try {
    remove(file);
    const db = open(file);
    create(db, fingerprint, engine);
    return { db, file, warning };
  } catch (err) {
    return memory(
      `${warning ?? ''} the index file ${file} cannot be made (${code(err)}): the index is kept in memory`.trim(),
      engine,
    );
  }
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir loops forever on a path it cannot make
 * whose parent it cannot make either (under /proc it spins at full CPU and never returns).
 */
function makeDir(dir: string): void {
  if (fs.existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) makeDir(parent);
  fs.mkdirSync(dir, { mode: 0o700 });
}

function open(file: string): Db {
  // Owner-only, whatever the folder's mode: the file holds transcript text (masked). SQLite
  // gives its -wal file the database file's mode. A file made before stays as it was.
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR, 0o600));
  const db = new Database(file, { timeout: 0 });
  try {
    // One writer: this process holds the file for as long as it runs (WAL needs no -shm then).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -32768');
    return db;
  } catch (err) {
    db.close(); // a connection left open would keep the file (and its lock) to itself
    throw err;
  }
}

function memory(warning: string, engine: SearchEngine): OpenedDatabase {
  const db = new Database(':memory:');
  create(db, '', engine);
  return { db, file: null, warning };
}

/** Why an existing file cannot serve (null: it can). Reads it, so a corrupt file throws. */
function unusable(db: Db, fingerprint: string, engine: SearchEngine): string | null {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0) {
    const tables = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")
      .get() as { n: number };
    if (tables.n === 0) {
      create(db, fingerprint, engine);
      return null;
    }
  }
  if (version !== SCHEMA_VERSION) return `has schema version ${version}, not ${SCHEMA_VERSION}`;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").get() as
    { value: string } | undefined;
  if (row?.value !== fingerprint) return 'was built with other redaction settings';
  if (metaValue(db, 'engine') !== engine)
    return `was built for another search engine than ${engine}`;
  // Its docs rows and its segments go together: segments of another layout are not read.
  const layout = metaValue(db, 'trigram_layout');
  if (engine === 'trigram' && layout !== String(TRIGRAM_LAYOUT))
    return `has trigram segments of layout ${layout ?? 1}, not ${TRIGRAM_LAYOUT}`;
  // No integrity check here (it reads the whole file): damage found later rebuilds too.
  return null;
}

function create(db: Db, fingerprint: string, engine: SearchEngine): void {
  db.exec(SCHEMA);
  // With the trigram engine a docs row holds no text: the table is as small as the index
  // that spares FTS5's searcher reading texts to order hits (see Searcher.ordered).
  if (engine === 'trigram') db.exec('DROP INDEX docs_order');
  db.prepare("INSERT INTO meta (key, value) VALUES ('fingerprint', ?)").run(fingerprint);
  db.prepare("INSERT INTO meta (key, value) VALUES ('engine', ?)").run(engine);
  db.prepare("INSERT INTO meta (key, value) VALUES ('trigram_layout', ?)").run(
    String(TRIGRAM_LAYOUT),
  );
  // The trigram engine's folder belongs to this file: a file made anew starts a new folder.
  db.prepare("INSERT INTO meta (key, value) VALUES ('trigram_dir', ?)").run(
    `trigram-${randomBytes(6).toString('hex')}`,
  );
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

export function metaValue(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
    { value: string } | undefined;
  return row?.value ?? null;
}

function remove(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`])
    fs.rmSync(f, { force: true });
}

function code(err: unknown): string {
  return (err as { code?: string }).code ?? (err as Error).message;
}

/** SQLite found the file damaged (or not a database at all): it is rebuilt. */
export function isCorrupt(err: unknown): boolean {
  const c = (err as { code?: unknown }).code;
  return typeof c === 'string' && (c.startsWith('SQLITE_CORRUPT') || c === 'SQLITE_NOTADB');
}

function isBusy(err: unknown): boolean {
  const c = (err as { code?: string }).code;
  return c === 'SQLITE_BUSY' || c === 'SQLITE_LOCKED';
}
