import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SearchHitRow, SearchKey, SearchPage, SearchRequest } from '../home-index';
import { SEARCH_FIELDS } from '../home-index';
import { countOccurrences, snippetOf } from '../snippet';
import type { Db } from './database';

/** Artifacts sort after every step of their session. */
const ARTIFACT_POSITION = Number.MAX_SAFE_INTEGER;

/** An FTS5 query: every term a quoted phrase (with the trigram tokenizer: a substring). */
export function matchExpression(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
}

/** One hit: [rowid, primary, sessionId, pos, field, name, sid, rank, dir]; 1-6 are its sort key. */
export type Hit = [number, number, string, number, number, string, number, number, string];

/** Every hit of one query, in the query's order (what pages and totalCount are cut from). */
interface Hits {
  generation: number;
  rows: Hit[];
}

/** Bytes a cached hit costs, roughly: the array, its strings (ids and dirs are short). */
const HIT_BYTES = 200;

function compareHits(a: Hit, b: Hit): number {
  for (let i = 1; i < 7; i++) {
    const x = a[i];
    const y = b[i];
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/**
 * Search over the docs of the given sessions. FTS5 finds the texts holding every term (the
 * trigram phrase is an exact substring, case-folded) and SQLite orders them; the ordered hits
 * of a query are kept until the index next changes, so the next pages, the same query from a
 * dashboard and its totalCount cost a lookup. Pages are cut by key (the cursor is the last
 * hit's key), so a cursor stays valid while the index grows. Only the page's texts are read.
 */
export class Searcher {
  private readonly cache = new LRUCache<string, Hits>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (h) => Math.max(1, h.rows.length * HIT_BYTES),
  });
  private readonly textOf;

  constructor(
    protected readonly db: Db,
    private readonly generation: () => number,
  ) {
    this.textOf = db.prepare('SELECT text FROM docs WHERE rowid = ?').pluck();
  }

  /** How ordering reads the docs rows of hits (see schema.ts's docs_order). */
  protected readonly docsBy: string = 'INDEXED BY docs_order';

  /** A hit's text as written (the page's snippets and counts are made of it). */
  protected text(rowid: number): string {
    return this.textOf.get(rowid) as string;
  }

  search(sids: number[] | null, request: SearchRequest): SearchPage {
    const rows = this.hits(sids, request);
    let from = 0;
    if (request.after) {
      const a = request.after;
      const key: Hit = [0, -a.primary, a.sessionId, a.position, a.field, a.artifact, a.copy, 0, ''];
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareHits(rows[mid], key) <= 0) lo = mid + 1;
        else hi = mid;
      }
      from = lo;
    }
    const page = rows.slice(from, from + request.first);
    const hits = page.map((r): SearchHitRow => {
      const [rowid, primary, sessionId, pos, field, name, sid, rank, dir] = r;
      const text = this.text(rowid);
      const { snippet, highlights } = snippetOf(text, request.terms);
      const artifact = pos === ARTIFACT_POSITION;
      const key: SearchKey = {
        primary: -primary,
        sessionId,
        position: pos,
        field,
        artifact: name,
        copy: sid,
      };
      return {
        dir,
        field: SEARCH_FIELDS[field],
        position: artifact ? null : pos,
        artifact: artifact ? name : null,
        snippet,
        highlights,
        matchCount: countOccurrences(text, request.terms[0]),
        // bm25's rank: lower is better.
        score: -rank,
        key,
      };
    });
    return { hits, totalCount: rows.length, hasNextPage: from + request.first < rows.length };
  }

  private hits(sids: number[] | null, request: SearchRequest): Hit[] {
    const fields =
      request.fields && request.fields.length < SEARCH_FIELDS.length
        ? request.fields.map((f) => SEARCH_FIELDS.indexOf(f)).sort()
        : null;
    const scope = sids === null ? '*' : createHash('sha1').update(sids.join(',')).digest('hex');
    const key = JSON.stringify([
      request.terms.map((t) => t.toLowerCase()),
      fields,
      request.order,
      scope,
    ]);
    const generation = this.generation();
    const cached = this.cache.get(key);
    if (cached?.generation === generation) return cached.rows;
    const rows = this.rows(sids, fields, request);
    this.cache.set(key, { generation, rows });
    return rows;
  }

  /** Every hit of the query in order (see Hit), found by FTS5 and ordered by SQLite. */
  protected rows(sids: number[] | null, fields: number[] | null, request: SearchRequest): Hit[] {
    const matches =
      'SELECT rowid, bm25(docs_fts) AS rank FROM docs_fts WHERE docs_fts MATCH @match';
    return this.ordered(matches, { match: matchExpression(request.terms) }, sids, fields, request);
  }

  /**
   * The hits of `matches` (a query of `rowid, rank`, lower rank is better, given `params`) in
   * the sessions `sids` and fields `fields` (null: all), in the request's order. One query for
   * every engine: only how the matching texts are found differs.
   */
  protected ordered(
    matches: string,
    params: Record<string, unknown>,
    sids: number[] | null,
    fields: number[] | null,
    request: SearchRequest,
  ): Hit[] {
    const where: string[] = [];
    if (sids !== null) {
      where.push('d.sid IN (SELECT value FROM json_each(@sids))');
      params = { ...params, sids: JSON.stringify(sids) };
    }
    if (fields) where.push(`d.field IN (${fields.join(',')})`);
    const primary = request.order === 'RELEVANCE' ? 'm.rank' : '-s.created_at';
    const sql = `
      WITH m AS (${matches})
      SELECT m.rowid, ${primary} AS p, s.session_id AS id,
        CASE WHEN d.position < 0 THEN ${ARTIFACT_POSITION} ELSE d.position END AS pos,
        d.field, d.name, s.sid, m.rank, s.dir
      FROM m JOIN docs d ${this.docsBy} ON d.rowid = m.rowid JOIN sessions s ON s.sid = d.sid
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY p, id, pos, d.field, d.name, s.sid`;
    return this.db.prepare(sql).raw().all(params) as Hit[];
  }
}
