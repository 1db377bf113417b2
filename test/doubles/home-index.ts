import {
  SEARCH_FIELDS,
  type HomeIndex,
  type IndexedStats,
  type IndexStatusRow,
  type SearchFieldName,
  type SearchHitRow,
  type SearchKey,
  type SearchPage,
  type SearchRequest,
  type SecretFindingRow,
  type SessionCountsRow,
} from '../../src/index/home-index';

/**
 * A HomeIndex for unit specs: texts and findings declared by hand, answered by the contract's
 * rules in the simplest way (every term a case-insensitive substring of one text; keyset
 * order; a snippet that is the text's first 300 code units). It records every call, so specs
 * can pin what the API layer asks (which sessions, which fields, which cursor).
 */

export interface Doc {
  dir: string;
  sessionId: string;
  /** The session's createdAt, epoch ms. */
  createdAt: number;
  field: SearchFieldName;
  position: number | null;
  artifact: string | null;
  text: string;
  score: number;
}

export interface Call {
  method: 'search' | 'secrets' | 'exposedSessions' | 'stats' | 'counts' | 'tools' | 'status';
  args: unknown[];
}

function compareKeys(a: SearchKey, b: SearchKey): number {
  const str = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (
    b.primary - a.primary ||
    str(a.sessionId, b.sessionId) ||
    a.position - b.position ||
    a.field - b.field ||
    str(a.artifact, b.artifact) ||
    a.copy - b.copy
  );
}

function count(text: string, term: string): number {
  let n = 0;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + term.length)) n++;
  return n;
}

export class HomeIndexDouble implements HomeIndex {
  readonly calls: Call[] = [];
  docs: Doc[] = [];
  findings = new Map<string, SecretFindingRow[]>();
  /** Per-session stats by dir; a dir without any is "not indexed yet". */
  sessionStats = new Map<string, IndexedStats>();
  progress: Omit<IndexStatusRow, 'sessionsTotal' | 'sessionsIndexed'> & { indexed: Set<string> } = {
    state: 'READY',
    indexed: new Set(),
    bytesIndexed: 0,
    updatedAt: null,
  };
  /** Tools per session by dir, before sessionStats' (specs that need no other aggregate). */
  sessionTools = new Map<string, string[]>();
  /** Rows the double adds to every search page, whatever `dirs` says (a misbehaving index). */
  extraHits: SearchHitRow[] = [];

  caughtUp(): Promise<void> {
    return Promise.resolve();
  }

  stats(dirs: readonly string[]): (IndexedStats | null)[] {
    this.calls.push({ method: 'stats', args: [dirs] });
    return dirs.map((d) => this.sessionStats.get(d) ?? null);
  }

  counts(dirs: readonly string[]): (SessionCountsRow | null)[] {
    this.calls.push({ method: 'counts', args: [dirs] });
    return dirs.map((d) => {
      const indexed = this.sessionStats.get(d);
      if (!indexed) return null;
      const found = this.findings.get(d) ?? [];
      return {
        failedCommands: indexed.stats.failedCommands,
        secrets: found.reduce((n, f) => n + f.count, 0),
      };
    });
  }

  tools(dirs: readonly string[]): (readonly string[] | null)[] {
    this.calls.push({ method: 'tools', args: [[...dirs]] });
    return dirs.map(
      (d) =>
        this.sessionTools.get(d) ??
        this.sessionStats.get(d)?.stats.tools.map(([name]) => name) ??
        null,
    );
  }

  search(request: SearchRequest): SearchPage {
    this.calls.push({ method: 'search', args: [request] });
    const dirs = new Set(request.dirs);
    const terms = request.terms.map((t) => t.toLowerCase());
    const rows = this.docs
      .filter((d) => dirs.has(d.dir) && (!request.fields || request.fields.includes(d.field)))
      .filter((d) => terms.every((t) => d.text.toLowerCase().includes(t)))
      .map((d) => this.row(d, terms, request.order))
      .sort((a, b) => compareKeys(a.key, b.key));
    const after = request.after;
    const rest = after ? rows.filter((r) => compareKeys(r.key, after) > 0) : rows;
    return {
      hits: [...rest.slice(0, request.first), ...this.extraHits],
      totalCount: rows.length,
      hasNextPage: rest.length > request.first,
    };
  }

  private row(d: Doc, terms: string[], order: SearchRequest['order']): SearchHitRow {
    const lower = d.text.toLowerCase();
    const snippet = d.text.slice(0, 300);
    const highlights = terms
      .map((t) => ({ start: lower.indexOf(t), length: t.length }))
      .filter((h) => h.start !== -1 && h.start + h.length <= 300);
    return {
      dir: d.dir,
      field: d.field,
      position: d.position,
      artifact: d.artifact,
      snippet,
      highlights,
      matchCount: count(lower, terms[0]),
      score: d.score,
      key: {
        primary: order === 'RELEVANCE' ? d.score : d.createdAt,
        sessionId: d.sessionId,
        position: d.position ?? Number.MAX_SAFE_INTEGER,
        field: SEARCH_FIELDS.indexOf(d.field),
        artifact: d.artifact ?? '',
        copy: this.docs.findIndex((x) => x.dir === d.dir),
      },
    };
  }

  secrets(dirs: readonly string[]): SecretFindingRow[][] {
    this.calls.push({ method: 'secrets', args: [[...dirs]] });
    return dirs.map((d) => this.findings.get(d) ?? []);
  }

  exposedSessions(dirs: readonly string[], kinds: readonly string[] | null): string[] {
    this.calls.push({ method: 'exposedSessions', args: [[...dirs], kinds && [...kinds]] });
    return dirs.filter((d) =>
      (this.findings.get(d) ?? []).some((f) => !kinds || kinds.includes(f.kind)),
    );
  }

  status(dirs: readonly string[]): IndexStatusRow {
    this.calls.push({ method: 'status', args: [[...dirs]] });
    const { indexed, ...rest } = this.progress;
    return {
      ...rest,
      sessionsTotal: dirs.length,
      sessionsIndexed: dirs.filter((d) => indexed.has(d)).length,
    };
  }

  /** Calls of one method, their arguments. */
  argsOf(method: Call['method']): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }
}
