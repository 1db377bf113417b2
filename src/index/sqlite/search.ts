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

interface HitRow {
  rowid: number;
  dir: string;
  session_id: string;
  created_at: number;
  pos: number;
  field: number;
  name: string;
  rank: number;
}

/**
 * Search over the docs of the given sessions. FTS5 finds the texts holding every term (the
 * trigram phrase is an exact substring, case-folded); the page's texts are then read for
 * snippets and counts. Keyset pagination over the order's key, so cursors survive growth.
 */
export function search(db: Db, sids: number[] | null, request: SearchRequest): SearchPage {
  const where: string[] = [];
  const params: Record<string, unknown> = { match: matchExpression(request.terms) };
  if (sids !== null) {
    where.push('d.sid IN (SELECT value FROM json_each(@sids))');
    params.sids = JSON.stringify(sids);
  }
  if (request.fields && request.fields.length < SEARCH_FIELDS.length) {
    where.push(`d.field IN (${request.fields.map((f) => SEARCH_FIELDS.indexOf(f)).join(',')})`);
  }
  const base = `
    WITH m AS (SELECT rowid, bm25(docs_fts) AS rank FROM docs_fts WHERE docs_fts MATCH @match)
    SELECT m.rowid, s.dir, s.session_id, s.created_at, m.rank, d.field, d.name,
      CASE WHEN d.position < 0 THEN ${ARTIFACT_POSITION} ELSE d.position END AS pos
    FROM m JOIN docs d ON d.rowid = m.rowid JOIN sessions s ON s.sid = d.sid
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  const total = db.prepare(`SELECT count(*) AS n FROM (${base})`).get(params) as { n: number };
  const relevance = request.order === 'RELEVANCE';
  const primary = relevance ? 'rank' : '-created_at';
  const order = `${primary}, session_id, pos, field, name, dir`;
  let keyset = '';
  if (request.after) {
    const a = request.after;
    keyset = `WHERE (${primary}, session_id, pos, field, name, dir) > (@p, @id, @pos, @field, @name, @dir)`;
    Object.assign(params, {
      p: relevance ? -a.primary : -a.primary,
      id: a.sessionId,
      pos: a.position,
      field: a.field,
      name: a.artifact,
      dir: a.dir,
    });
  }
  params.limit = request.first + 1;
  const rows = db
    .prepare(`SELECT * FROM (${base}) ${keyset} ORDER BY ${order} LIMIT @limit`)
    .all(params) as HitRow[];
  const hasNextPage = rows.length > request.first;
  const page = rows.slice(0, request.first);
  const textOf = db.prepare('SELECT text FROM docs WHERE rowid = ?');
  const hits = page.map((r): SearchHitRow => {
    const text = (textOf.get(r.rowid) as { text: string }).text;
    const { snippet, highlights } = snippetOf(text, request.terms);
    const score = -r.rank;
    const key: SearchKey = {
      primary: relevance ? score : r.created_at,
      sessionId: r.session_id,
      position: r.pos,
      field: r.field,
      artifact: r.name,
      dir: r.dir,
    };
    const artifact = r.pos === ARTIFACT_POSITION;
    return {
      dir: r.dir,
      field: SEARCH_FIELDS[r.field],
      position: artifact ? null : r.pos,
      artifact: artifact ? r.name : null,
      snippet,
      highlights,
      matchCount: countOccurrences(text, request.terms[0]),
      score,
      key,
    };
  });
  return { hits, totalCount: total.n, hasNextPage };
}
