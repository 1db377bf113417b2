import { SESSIONS } from '../../operations/documents';
import type { Run } from './source';
import { type ListQuery, type ListResult, type SessionRow } from './list-types';

const PAGE = 100;

interface Page {
  sessions: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: { node: SessionRow }[];
  };
}

/**
 * `list` through the sessions query (a server's, or the local application's when the fast path
 * cannot answer): pages of at most 100 until `limit` rows (or all of them).
 */
export async function queryList(run: Run, q: ListQuery): Promise<ListResult> {
  const filter: Record<string, unknown> = {};
  if (q.environments.length) filter.environment = q.environments;
  if (q.flavors.length) filter.flavor = q.flavors;
  if (q.query !== null) filter.query = q.query;
  if (q.tools.length) filter.tool = q.tools;
  if (q.hours.length) filter.hourOfWeek = q.hours;
  const items: SessionRow[] = [];
  let after: string | null = null;
  let totalCount = 0;
  for (;;) {
    const want = q.limit === null ? PAGE : Math.min(PAGE, q.limit - items.length);
    if (want <= 0) break;
    const page: Page = await run<Page>(SESSIONS, {
      first: want,
      after,
      filter,
      order: q.oldestFirst ? 'OLDEST_FIRST' : 'NEWEST_FIRST',
    });
    totalCount = page.sessions.totalCount;
    for (const e of page.sessions.edges) items.push(e.node);
    if (!page.sessions.pageInfo.hasNextPage) break;
    after = page.sessions.pageInfo.endCursor;
  }
  return { items, totalCount, flavors: await servedFlavors(run) };
}

/** The flavors of the roots the caller sees (a scoped key: its own), sorted, each once. */
export async function servedFlavors(run: Run): Promise<string[]> {
  const { roots } = await run<{ roots: { flavor: string }[] }>('{ roots { flavor } }');
  return [...new Set(roots.map((r) => r.flavor))].sort();
}
