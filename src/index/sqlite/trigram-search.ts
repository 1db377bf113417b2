import type { SearchRequest } from '../home-index';
import { fold } from '../trigram/fold';
import type { TextMatch } from '../trigram/match';
import type { TrigramIndex } from '../trigram/trigram-index';
import type { Db } from './database';
import { Searcher, type Hit } from './search';

/** FTS5's bm25() constants: the scores keep the meaning (and near the values) they had. */
const K1 = 1.2;
const B = 0.75;

/**
 * Search with the trigram engine: the segments find the texts holding every term (and how
 * often), BM25 is computed as FTS5 computes it (IDF over every live text, overlapping
 * occurrences, documents measured in trigram tokens), and SQLite joins the sessions and orders
 * the hits exactly as the FTS5 searcher does (same keys, same ties).
 */
export class TrigramSearcher extends Searcher {
  /** Texts holding a term, per folded term, as of a generation (BM25's n(q)). */
  private readonly df = new Map<string, { generation: number; n: number }>();

  constructor(
    db: Db,
    private readonly index: TrigramIndex,
    private readonly changes: () => number,
  ) {
    super(db, changes);
  }

  /** By rowid: with this engine a docs row holds no text (and docs_order is not made). */
  protected override readonly docsBy = '';

  /** From the segments: the docs table holds no text with this engine. */
  protected override text(rowid: number): string {
    const text = this.index.text(rowid);
    if (text === undefined) throw new Error(`the trigram index has no text ${rowid}`);
    return text;
  }

  protected override rows(
    sids: number[] | null,
    fields: number[] | null,
    request: SearchRequest,
  ): Hit[] {
    const matches = this.index.match(request.terms);
    if (matches.length === 0) return [];
    const ranks = JSON.stringify(this.ranks(matches, request.terms));
    const found = 'SELECT value ->> 0 AS rowid, value ->> 1 AS rank FROM json_each(@m)';
    return this.ordered(found, { m: ranks }, sids, fields, request);
  }

  /** [rowid, bm25 rank (lower is better, as FTS5's)] per match. */
  private ranks(matches: TextMatch[], terms: readonly string[]): [number, number][] {
    const { texts, tokens } = this.index.totals();
    const avg = texts === 0 ? 1 : tokens / texts;
    const idf = terms.map((t) => {
      const n = terms.length === 1 ? matches.length : this.frequency(t);
      const v = Math.log((texts - n + 0.5) / (n + 0.5));
      return v > 0 ? v : 1e-6;
    });
    return matches.map((m) => {
      let score = 0;
      const norm = K1 * (1 - B + (B * m.tokens) / avg);
      m.counts.forEach((f, i) => {
        score += (idf[i] * (f * (K1 + 1))) / (f + norm);
      });
      return [m.id, -score];
    });
  }

  private frequency(term: string): number {
    const generation = this.changes();
    const key = fold(term);
    const known = this.df.get(key);
    if (known?.generation === generation) return known.n;
    const n = this.index.documents(term);
    if (this.df.size > 1000) this.df.clear();
    this.df.set(key, { generation, n });
    return n;
  }
}
