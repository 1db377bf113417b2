import type { BrainStore } from '../brain/store';
import type { IngestTraffic } from '../ops/ingest-traffic';
import type { ListedSession } from '../brain/catalog';
import type { SessionIndexer } from './session-indexer';
import type { PreparedSession, SessionWorkers } from './session-pool';
import type { Tables } from './sqlite/tables';
import type { WriteGroup } from './sqlite/write-group';
import { sliceStarted } from './slice';

export interface IndexerEvents {
  /** A session was checked (bytes: transcript bytes read for it; changed: rows were written). */
  indexed(bytes: number, changed: boolean): void;
  /** A session could not be indexed this pass (it is tried again on the next). */
  failed(dir: string, err: unknown): void;
  /** A pass over the catalog ended. */
  passed(sessions: number, ms: number): void;
}

/** Between passes: at least this long, and five times the last pass (big homes check less often). */
const MIN_PAUSE_MS = 500;
/** One pass in this many compares every output and artifact file (the others, folder mtimes). */
const THOROUGH_EVERY = 10;
/**
 * Sessions the index has no row for are handed to the workers up to this many ahead of the one
 * being written. A session the workers have finished waits here for its turn: its writes (a
 * scan batch's at most, 8 MiB of transcript) are held meanwhile.
 */
const AHEAD = 24;

/**
 * Keeps the index in step with the store's catalog: passes over every listed session (newest
 * first, so recent work is searchable first), each session brought up to date by the
 * SessionIndexer, which reads only what changed. Work yields to the event loop between
 * sessions and batches, so requests keep their latency while a big home is indexed; and it
 * waits while pushes arrive (IngestTraffic), catching up in their pauses.
 */
export class HomeIndexer {
  private stopped = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private waiters: (() => void)[] = [];
  /** Sessions indexed against their current files in the last or current pass. */
  passes = 0;

  constructor(
    private readonly store: BrainStore,
    private readonly tables: Tables,
    private readonly sessions: SessionIndexer,
    private readonly events: IndexerEvents,
    /** Ingest requests the indexer makes way for (none: it never waits). */
    private readonly traffic: IngestTraffic | null = null,
    /** The transaction groups of sessions are written in (none: each session's own). */
    private readonly writes: WriteGroup | null = null,
    /** Worker threads that index new sessions (none: all are indexed on this thread). */
    private readonly pool: SessionWorkers | null = null,
  ) {}

  start(): void {
    this.stopped = false;
    this.running ??= this.loop().finally(() => (this.running = null));
  }

  /** Ends the passes (the current one at its next session); `start` resumes them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
    await this.running;
    // A loop woken by stop() ends without another pass: its waiters are let go here.
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * Resolves after a pass that started after this call has ended. That pass is a thorough
   * one: a file rewritten in place changes no folder's mtime, and callers expect to see it.
   */
  caughtUp(): Promise<void> {
    this.thoroughNext = true;
    this.wake?.();
    const target = this.passes + (this.inPass ? 2 : 1);
    return new Promise((resolve) => {
      const check = () =>
        this.passes >= target || this.stopped ? resolve() : this.waiters.push(check);
      check();
    });
  }

  private inPass = false;
  /** Stops a long transcript scan at its next block: a close never waits for a whole file. */
  private readonly abort = new AbortController();
  private thoroughNext = false;

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const started = Date.now();
      this.inPass = true;
      try {
        await this.pass();
      } catch (err) {
        this.events.failed('', err);
      }
      this.inPass = false;
      this.passes++;
      const ms = Date.now() - started;
      this.events.passed(this.count, ms);
      for (const w of this.waiters.splice(0)) w();
      if (this.stopped) break;
      // Someone waits for a later pass: no pause. Otherwise the pause follows what checking
      // costs (not what indexing changed sessions cost), so a big home is not checked nonstop.
      if (this.waiters.length > 0) continue;
      await new Promise<void>((resolve) => {
        const checking = ms - this.workMs - this.waitedMs;
        const timer = setTimeout(resolve, Math.max(MIN_PAUSE_MS, 5 * checking));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private count = 0;

  /** Time the last pass spent on sessions that had changed. */
  private workMs = 0;

  /** Time the last pass waited for pushes to pause (not checking either). */
  private waitedMs = 0;

  private async pass(): Promise<void> {
    this.workMs = 0;
    this.waitedMs = 0;
    const thorough = this.thoroughNext || this.passes % THOROUGH_EVERY === 0;
    this.thoroughNext = false;
    // A pass that asks for a fresh scan sees new sessions without waiting for the store's rescan.
    const catalog = this.passes === 0 ? await this.store.catalog() : await this.store.refresh(true);
    const sessions: ListedSession[] = [...catalog.newestFirst, ...catalog.shadowed];
    this.count = sessions.length;
    const live = new Set<string>();
    const group = this.writes;
    // New sessions (no row yet) are indexed in the workers ahead of the one being written.
    const ahead = new Map<number, PreparedSession>();
    let next = 0;
    const handOut = (upTo: number) => {
      const pool = this.pool;
      for (; next < sessions.length && next <= upTo && pool?.usable; next++) {
        const l = sessions[next];
        if (this.tables.session(l.entry.realDir) === undefined) {
          ahead.set(next, pool.prepare(l, thorough));
        }
      }
    };
    try {
      for (const [i, listed] of sessions.entries()) {
        if (this.stopped) return;
        if (this.traffic) {
          // Pushes arrive: what is written so far is committed before waiting for them.
          if (!this.traffic.isQuiet()) group?.commit();
          this.waitedMs += await this.traffic.quiet(this.abort.signal);
        }
        if (this.stopped) return;
        live.add(listed.entry.realDir);
        group?.open();
        let bytes = 0;
        try {
          const started = Date.now();
          handOut(i + AHEAD);
          const prepared = ahead.get(i);
          ahead.delete(i);
          const changed = prepared
            ? await this.sessions.apply(prepared, this.abort.signal)
            : await this.sessions.index(listed, thorough, this.abort.signal);
          if (changed !== null) this.workMs += Date.now() - started;
          bytes = changed?.bytes ?? 0;
          this.events.indexed(bytes, changed !== null);
        } catch (err) {
          this.events.failed(listed.entry.realDir, err);
        }
        group?.wrote(bytes);
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted();
      }
    } finally {
      for (const p of ahead.values()) p.cancel();
      group?.commit();
    }
    const gone = this.tables.allSessions().filter((s) => !live.has(s.dir));
    if (gone.length > 0) {
      this.tables.db.transaction(() => {
        for (const s of gone) this.tables.dropSession(s.sid);
      })();
    }
  }
}
