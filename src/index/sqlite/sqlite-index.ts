import type { HeadMemo, ListedSession } from '../../brain/catalog';
import { summaryOf, type SessionSummary } from '../../brain/session-summary';
import type { SessionViews } from '../../brain/transcript/view';
import type {
  IndexedStats,
  IndexStatusRow,
  SearchPage,
  SearchRequest,
  SecretFindingRow,
  SessionCountsRow,
  SessionStatsRow,
} from '../home-index';
import { SEARCH_FIELDS } from '../home-index';
import type { StoredSummaryState } from '../session-indexer';
import type { Db } from './database';
import { Searcher } from './search';
import { LINE_POSITION } from './tables';

interface SecretRow {
  sid: number;
  position: number;
  field: number;
  name: string;
  kind: string;
  count: number;
}

/** The read side of the SQLite index: search, secrets, status, and what the store reuses. */
export class SqliteReader {
  private sidCache: { count: number; map: Map<string, number> } | null = null;

  private readonly searcher: Searcher;

  /** Parsed stats by sid, as of stats_seq `statsSeen` (see stats). */
  private readonly statsBySid = new Map<number, IndexedStats>();
  private statsSeen = 0;

  /** `generation`: changes whenever the index is written (cached answers are then stale). */
  constructor(
    private readonly db: Db,
    generation: () => number,
    /** The searcher of another engine than FTS5. */
    searcher: Searcher | null = null,
  ) {
    this.searcher = searcher ?? new Searcher(db, generation);
  }

  /**
   * dir -> sid, reloaded when sessions were added or removed: sids are never reused, so any
   * addition raises max(sid) and a removal alone lowers the count.
   */
  private sids(): Map<string, number> {
    const count = this.db.prepare('SELECT count(*) AS n, max(sid) AS m FROM sessions').get() as {
      n: number;
      m: number | null;
    };
    const stamp = count.n * 1e9 + (count.m ?? 0);
    if (this.sidCache?.count !== stamp) {
      const rows = this.db.prepare('SELECT sid, dir FROM sessions').all() as {
        sid: number;
        dir: string;
      }[];
      this.sidCache = { count: stamp, map: new Map(rows.map((r) => [r.dir, r.sid])) };
      const live = new Set(this.sidCache.map.values());
      for (const sid of this.statsBySid.keys()) if (!live.has(sid)) this.statsBySid.delete(sid);
    }
    return this.sidCache.map;
  }

  /** The sids of `dirs` (unindexed ones left out); null when that is every indexed session. */
  private sidsOf(dirs: readonly string[]): number[] | null {
    const map = this.sids();
    // A set: a dir named twice must not make the subset look like every session.
    const out = new Set<number>();
    for (const dir of dirs) {
      const sid = map.get(dir);
      if (sid !== undefined) out.add(sid);
    }
    return out.size === map.size ? null : [...out];
  }

  search(request: SearchRequest): SearchPage {
    const sids = this.sidsOf(request.dirs);
    if (sids !== null && sids.length === 0) return { hits: [], totalCount: 0, hasNextPage: false };
    return this.searcher.search(sids, request);
  }

  secrets(dirs: readonly string[]): SecretFindingRow[][] {
    const map = this.sids();
    const stmt = this.db.prepare(
      // Steps, then lines that are no record (one finding per kind: the contract's finding has
      // no line), then artifacts.
      `SELECT * FROM (
         SELECT position, field, name, kind, count FROM secrets
           WHERE sid = @sid AND position <> ${LINE_POSITION}
         UNION ALL
         SELECT ${LINE_POSITION} AS position, field, '' AS name, kind, sum(count) AS count
           FROM secrets WHERE sid = @sid AND position = ${LINE_POSITION} GROUP BY field, kind
       ) ORDER BY position < 0, position = -1, position, field, name, kind`,
    );
    return dirs.map((dir) => {
      const sid = map.get(dir);
      if (sid === undefined) return [];
      return (stmt.all({ sid }) as SecretRow[]).map((r) => ({
        kind: r.kind,
        field: SEARCH_FIELDS[r.field],
        position: r.position < 0 ? null : r.position,
        artifact: r.position === -1 ? r.name : null,
        count: r.count,
      }));
    });
  }

  exposedSessions(dirs: readonly string[], kinds: readonly string[] | null): string[] {
    const sql = kinds
      ? 'SELECT DISTINCT sid FROM secrets WHERE kind IN (SELECT value FROM json_each(?))'
      : 'SELECT DISTINCT sid FROM secrets';
    const stmt = this.db.prepare(sql);
    const rows = (kinds ? stmt.all(JSON.stringify(kinds)) : stmt.all()) as { sid: number }[];
    const exposed = new Set(rows.map((r) => r.sid));
    const map = this.sids();
    return dirs.filter((d) => {
      const sid = map.get(d);
      return sid !== undefined && exposed.has(sid);
    });
  }

  counts(dirs: readonly string[]): (SessionCountsRow | null)[] {
    const map = this.sids();
    const failed = this.db.prepare(
      `SELECT json_extract(stats, '$.failedCommands') AS n FROM sessions
         WHERE sid = ? AND stats IS NOT NULL`,
    );
    const secrets = this.db.prepare(
      'SELECT coalesce(sum(count), 0) AS n FROM secrets WHERE sid = ?',
    );
    return dirs.map((dir) => {
      const sid = map.get(dir);
      const row = sid === undefined ? undefined : (failed.get(sid) as { n: number } | undefined);
      if (!row) return null;
      return { failedCommands: row.n, secrets: (secrets.get(sid) as { n: number }).n };
    });
  }

  /**
   * Kept parsed between calls: a dashboard asks again and again, and only the sessions whose
   * stats were written since the last call (a higher stats_seq) are read again.
   */
  stats(dirs: readonly string[]): (IndexedStats | null)[] {
    const newest = this.db.prepare('SELECT max(stats_seq) AS m FROM sessions').get() as {
      m: number | null;
    };
    if ((newest.m ?? 0) > this.statsSeen) {
      const rows = this.db
        .prepare(
          'SELECT sid, model, updated_at, stats, stats_seq FROM sessions WHERE stats_seq > ?',
        )
        .all(this.statsSeen) as {
        sid: number;
        model: string | null;
        updated_at: number | null;
        stats: string;
      }[];
      for (const r of rows) {
        const stats = JSON.parse(r.stats) as SessionStatsRow;
        this.statsBySid.set(r.sid, { model: r.model, updatedAt: r.updated_at, stats });
      }
      this.statsSeen = newest.m ?? 0;
    }
    const map = this.sids();
    return dirs.map((dir) => {
      const sid = map.get(dir);
      return sid === undefined ? null : (this.statsBySid.get(sid) ?? null);
    });
  }

  /**
   * From the stats kept parsed (see `stats`): a filter by tool tests every session a caller
   * may see, so it reads what changed since the last call, not every session's JSON again.
   */
  tools(dirs: readonly string[]): (readonly string[] | null)[] {
    return this.stats(dirs).map((r) => r && r.stats.tools.map(([name]) => name));
  }

  /**
   * Progress over `dirs` only: `updatedAt` is the last change written to one of them, so a
   * scoped caller learns nothing of activity in sessions it may not see.
   */
  status(dirs: readonly string[]): IndexStatusRow {
    const rows = this.db
      .prepare('SELECT dir, complete, bytes_indexed AS b, indexed_at AS at FROM sessions')
      .all() as { dir: string; complete: number; b: number; at: number | null }[];
    const byDir = new Map(rows.map((r) => [r.dir, r]));
    let indexed = 0;
    let bytes = 0;
    let last: number | null = null;
    for (const dir of dirs) {
      const r = byDir.get(dir);
      if (!r) continue;
      bytes += r.b;
      if (r.complete) indexed++;
      if (r.at !== null && (last === null || r.at > last)) last = r.at;
    }
    const updatedAt = last === null ? null : new Date(last);
    return {
      state: indexed === dirs.length ? 'READY' : 'BUILDING',
      sessionsIndexed: indexed,
      sessionsTotal: dirs.length,
      bytesIndexed: bytes,
      updatedAt,
    };
  }

  /** Over every indexed session: how many are complete, and their transcript bytes indexed. */
  totals(): { sessions: number; complete: number; bytes: number } {
    return this.db
      .prepare(
        'SELECT count(*) AS sessions, coalesce(sum(complete), 0) AS complete, coalesce(sum(bytes_indexed), 0) AS bytes FROM sessions',
      )
      .get() as { sessions: number; complete: number; bytes: number };
  }

  /** Head memos of indexed transcripts (see HeadCache): a first valid time, or none. */
  heads(): [string, HeadMemo][] {
    const rows = this.db
      .prepare(
        `SELECT dir, head_dev, head_ino, head_size, head_created_at FROM sessions
         WHERE head_size IS NOT NULL`,
      )
      .all() as {
      dir: string;
      head_dev: number;
      head_ino: number;
      head_size: number;
      head_created_at: number | null;
    }[];
    return rows.map((r) => [
      r.dir,
      {
        dev: r.head_dev,
        ino: r.head_ino,
        size: r.head_size,
        createdAt: r.head_created_at === null ? null : new Date(r.head_created_at),
      },
    ]);
  }

  /** The stored summary when it came from exactly these views. */
  summary(listed: ListedSession, views: SessionViews): SessionSummary | null {
    const row = this.db
      .prepare('SELECT view_sig, full_sig, summary, complete FROM sessions WHERE dir = ?')
      .get(listed.entry.realDir) as
      | {
          view_sig: string | null;
          full_sig: string | null;
          summary: string | null;
          complete: number;
        }
      | undefined;
    if (!row?.complete || !row.summary || !views.compact) return null;
    const full = views.full && views.full !== views.compact ? JSON.stringify(views.full) : null;
    if (row.view_sig !== JSON.stringify(views.compact) || row.full_sig !== full) return null;
    const stored = JSON.parse(row.summary) as StoredSummaryState;
    return summaryOf(stored.served, {
      createdAt: listed.createdAt,
      updatedAt: new Date(stored.filesMtime),
    });
  }
}
