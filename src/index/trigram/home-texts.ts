import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { metaValue, type Db } from '../sqlite/database';
import type { TextSink } from '../sqlite/tables';
import { TrigramIndex, type SegmentBuilder } from './trigram-index';

/**
 * Texts waiting in memory are written as a segment once FLUSH_MS pass without a new one (an
 * append is searchable that soon after it is indexed), once they fill a segment, or once the
 * first has waited MAX_WAIT_MS. A first build adds texts without a pause: flushing every
 * FLUSH_MS then wrote a small segment (and a manifest, two fsyncs) four times a second, and
 * merged them again and again.
 */
const FLUSH_MS = 250;
const MAX_WAIT_MS = 2_000;
/** More live segments than this: small ones are merged. */
const MAX_SEGMENTS = 8;

/**
 * The trigram engine's texts beside the SQLite index: the docs table names them (rowid, with
 * the keys search orders by, and an empty text); the segments in CACHE_DIR (see layout.ts) hold
 * them, the only copy: they find them and give them back as written (snippets). Texts are
 * written as segments in the background, a few hundred milliseconds after they are indexed,
 * and on close. On open, the segments are reconciled with the docs table: texts it no longer
 * has are deleted, and a session whose texts a crash lost (those that were waiting, a segment
 * half written) is dropped from the SQLite file, so the indexer reads it again from its files.
 */
export class TrigramTexts implements TextSink {
  readonly index: TrigramIndex;
  private timer: NodeJS.Timeout | null = null;
  private failed: unknown = null;
  /** When the first text now waiting and the last one were put (ms, performance.now()). */
  private firstPut = 0;
  private lastPut = 0;
  /** A text written in a segment was dropped: the next flush merges it away. */
  private purge = false;

  constructor(
    db: Db,
    cacheDir: string | null,
    builder: SegmentBuilder,
    private readonly warn: (message: string) => void,
  ) {
    // The files sit beside index.sqlite, named after it (`<meta trigram_dir>-*`): a file made
    // anew names new ones, and files of earlier ones are deleted.
    const prefix = `${metaValue(db, 'trigram_dir') as string}-`;
    let dir: string;
    if (cacheDir === null) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-trigram-'));
    } else {
      dir = cacheDir;
      for (const f of fs.readdirSync(cacheDir)) {
        if (f.startsWith('trigram-') && !f.startsWith(prefix)) {
          fs.rmSync(path.join(cacheDir, f), { force: true });
        }
      }
    }
    this.index = new TrigramIndex(dir, { builder }, prefix);
    this.reconcile(db);
  }

  /**
   * Deletes the texts the docs table no longer has, and drops the sessions whose docs the
   * segments lack (their texts were lost: the indexer reads them again, as new sessions).
   */
  private reconcile(db: Db): void {
    const live = new Set(this.index.liveIds());
    // Row ids alone first (what a clean restart reads): sessions only when a text is missing.
    const ids = db.prepare('SELECT rowid FROM docs').pluck();
    let known = 0;
    let missing = false;
    for (const id of ids.iterate() as IterableIterator<number>) {
      if (live.has(id)) known++;
      else missing = true;
    }
    if (known < live.size) {
      const has = db.prepare('SELECT 1 FROM docs WHERE rowid = ?').pluck();
      for (const id of live) if (has.get(id) === undefined) this.index.delete(id);
    }
    if (!missing) return;
    const lost = new Set<number>();
    const docs = db.prepare('SELECT rowid, sid FROM docs').raw();
    for (const [id, sid] of docs.iterate() as IterableIterator<[number, number]>) {
      if (!live.has(id)) lost.add(sid);
    }
    if (lost.size === 0) return;
    this.warn(
      `index: the texts of ${lost.size} session(s) were lost (the process ended before their segment was written): they are indexed again`,
    );
    const drop = db.prepare('SELECT rowid FROM docs WHERE sid = ?').pluck();
    const tables = ['docs', 'steps', 'secrets', 'line_indexes', 'sessions'].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE sid = ?`),
    );
    db.transaction(() => {
      for (const sid of lost) {
        for (const id of drop.all(sid) as number[]) this.index.delete(id);
        for (const stmt of tables) stmt.run(sid);
      }
    })();
  }

  put(rowid: number, text: string): void {
    const now = performance.now();
    if (this.index.waiting === 0) this.firstPut = now;
    this.lastPut = now;
    this.index.add(rowid, text);
  }

  /** Whether what waits is written now (see FLUSH_MS). */
  private due(): boolean {
    if (this.purge) return true;
    if (this.index.waiting === 0) return false;
    const now = performance.now();
    return this.index.full || now - this.lastPut >= FLUSH_MS || now - this.firstPut >= MAX_WAIT_MS;
  }

  drop(rowid: number, purge = false): void {
    // A text already in a segment stays there, dead, until a merge: one masked again (see
    // Tables.sweep) must not stay clear in CACHE_DIR, so the next flush merges.
    if (purge) this.purge = true;
    this.index.delete(rowid);
  }

  text(rowid: number): string | undefined {
    return this.index.text(rowid);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.due()) this.flush().catch(() => undefined);
    }, FLUSH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Writes what waits; merges when segments pile up. */
  async flush(): Promise<void> {
    try {
      await this.index.flush();
      const purge = this.purge;
      this.purge = false;
      if (purge || this.index.census().segments > MAX_SEGMENTS) await this.index.merge();
      this.failed = null;
    } catch (err) {
      if (this.failed === null)
        this.warn(`index: a trigram segment could not be written: ${String(err)}`);
      this.failed = err;
      throw err;
    }
  }

  /** Writes what waits (a restart then reads no transcript again), then closes. */
  async close(): Promise<void> {
    this.stop();
    await this.flush().catch(() => undefined);
    await this.index.close();
  }
}
