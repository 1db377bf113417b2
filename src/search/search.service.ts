import { rootTest } from '../sessions/session-filter';
import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { ListedSession } from '../brain/catalog';
import { badInput } from '../graphql/errors';
import { IndexState, SearchField, SearchOrder } from '../graphql/enums';
import type { Loaders } from '../graphql/loaders';
import { checkFirst, type Connection } from '../graphql/pagination/connection';
import { HOME_INDEX, type HomeIndex, type SearchHitRow } from '../index/home-index';
import { parseSearchQuery } from '../index/query';
import { SessionsService } from '../sessions/sessions.service';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor';
import { MAX_SEARCH_PAGE, type SearchArgs, type SearchFilter } from './search.args';
import type { IndexStatus } from './search.model';

/** What SearchHit fields receive: the index's row, tied to the session it belongs to. */
export interface SearchHitParent {
  session: ListedSession;
  field: SearchField;
  /** Step position; null for ARTIFACT hits (SearchHit.step resolves it). */
  position: number | null;
  artifact: string | null;
  snippet: string;
  highlights: { start: number; length: number }[];
  matchCount: number;
  score: number;
}

/**
 * Search and index status over the home index. The index is only ever asked about the
 * sessions the caller may see (after their filter): it never widens that set, and a hit in
 * any other session would be dropped here all the same.
 */
@Injectable()
export class SearchService {
  constructor(
    @Inject(HOME_INDEX) private readonly index: HomeIndex,
    private readonly sessions: SessionsService,
  ) {}

  async search(
    args: SearchArgs,
    loaders: Loaders,
    principal: Principal,
  ): Promise<Connection<SearchHitParent>> {
    const parsed = parseSearchQuery(args.query);
    if ('error' in parsed) throw badInput(parsed.error, { argument: 'query' });
    const first = args.first ?? 20;
    checkFirst(first, MAX_SEARCH_PAGE);
    const order = args.order ?? SearchOrder.RELEVANCE;
    const after = args.after ? decodeSearchCursor(order, args.after) : null;
    const candidates = await this.candidates(args.filter, loaders, principal);
    const byDir = new Map(candidates.map((s) => [s.entry.realDir, s]));
    if (byDir.size === 0) {
      return { edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 };
    }
    const page = this.index.search({
      terms: parsed.terms,
      dirs: [...byDir.keys()],
      fields: args.filter?.fields?.length ? args.filter.fields : null,
      order,
      first,
      after,
    });
    const edges = [];
    for (const row of page.hits) {
      const session = byDir.get(row.dir);
      if (session) {
        edges.push({ cursor: encodeSearchCursor(order, row.key), node: hitOf(session, row) });
      }
    }
    return {
      edges,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        endCursor: edges.length ? edges[edges.length - 1].cursor : null,
      },
      totalCount: page.totalCount,
    };
  }

  /** The sessions a search may hit: visible, meeting `filter.sessions`, and `filter.session`. */
  private async candidates(
    filter: SearchFilter | null | undefined,
    loaders: Loaders,
    principal: Principal,
  ): Promise<ListedSession[]> {
    const id = filter?.session;
    if (id === null || id === undefined) {
      return this.sessions.select(principal, filter?.sessions, loaders);
    }
    // One session (the copy this caller sees), then the other conditions on it alone.
    const one = await this.sessions.find(
      id,
      principal,
      'filter.session',
      rootTest(filter?.sessions),
    );
    return one ? this.sessions.narrow([one], filter?.sessions, loaders) : [];
  }

  async status(principal: Principal): Promise<IndexStatus> {
    // Shadowed copies too: a search naming their flavor reads them (the indexer takes them last).
    const copies = await this.sessions.copies(principal);
    const row = this.index.status(copies.map((s) => s.entry.realDir));
    return { ...row, state: row.state === 'READY' ? IndexState.READY : IndexState.BUILDING };
  }
}

function hitOf(session: ListedSession, row: SearchHitRow): SearchHitParent {
  return {
    session,
    field: row.field as SearchField,
    position: row.field === 'ARTIFACT' ? null : row.position,
    artifact: row.artifact,
    snippet: row.snippet,
    highlights: row.highlights,
    matchCount: row.matchCount,
    score: row.score,
  };
}
