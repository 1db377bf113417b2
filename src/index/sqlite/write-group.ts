import type { Db } from './database';

/**
 * A pass's writes are committed in groups of sessions, about this many transcript bytes or
 * milliseconds each: a session made several commits (its batches, its files, and each of its
 * statements outside them), each a write of the WAL. FTS5 writes the terms it holds as a
 * segment at a commit, and also at every savepoint and every statement that takes a statement
 * journal (an upsert, an UPDATE … RETURNING): inside a group, the session indexer runs its
 * writes without savepoints (see SessionIndexer.write) and the tables avoid such statements, so
 * FTS5 writes a segment per group (or per MiB of terms it holds) instead of one or two per
 * session (in a replay of the bench home's texts, 9.1 s of CPU with a savepoint per 30 texts
 * inside one transaction, as with a transaction per 30, against 6.6 s in one plain transaction).
 */
const GROUP_BYTES = 8 * 1024 * 1024;
const GROUP_MS = 1_000;

/**
 * The transaction a group of sessions is written in, on the index's one connection: searches
 * on it see the rows at once; a crash loses the group (its sessions' progress too, so a
 * restart indexes them again). The sessions' writes run in it directly, without savepoints.
 */
export class WriteGroup {
  private since = 0;
  private bytes = 0;

  constructor(
    private readonly db: Db,
    /** Run after each commit (Tables.checkpointIfSwept). */
    private readonly afterCommit: () => void = () => undefined,
  ) {}

  open(): void {
    if (this.db.inTransaction) return;
    this.db.exec('BEGIN');
    this.since = Date.now();
    this.bytes = 0;
  }

  /** Counts a session's bytes; commits once the group is large or old enough. */
  wrote(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes >= GROUP_BYTES || Date.now() - this.since >= GROUP_MS) this.commit();
  }

  commit(): void {
    // An error SQLite rolled the transaction back for has already ended it (the pass failed).
    if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
    this.afterCommit();
  }
}
