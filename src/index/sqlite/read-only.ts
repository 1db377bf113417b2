import Database from 'better-sqlite3';
import * as path from 'node:path';
import { INDEX_FILE, type Db } from './database';
import { SCHEMA_VERSION } from './schema';

/**
 * The index file of an earlier run, opened for reading only (the command line's `list` reuses
 * its heads and summaries), or null when there is none usable: absent, of another version or
 * other redaction settings, damaged, or held by a running server (its lock is exclusive).
 */
export function openIndexReadOnly(cacheDir: string, fingerprint: string): Db | null {
  let db: Db | null = null;
  try {
    db = new Database(path.join(cacheDir, INDEX_FILE), {
      readonly: true,
      fileMustExist: true,
      timeout: 0,
    });
    if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) throw new Error('version');
    const row = db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").get() as
      { value: string } | undefined;
    if (row?.value !== fingerprint) throw new Error('fingerprint');
    return db;
  } catch {
    db?.close();
    return null;
  }
}
