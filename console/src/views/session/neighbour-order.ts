import type { SessionFilter } from '../../gql/graphql';

/** A session's place in the sessions table. */
export interface Place {
  id: string;
  createdAt: string;
}

/**
 * The table's order, the API's NEWEST_FIRST (src/brain/catalog.ts compareNewestFirst):
 * createdAt descending, equal ones by id ascending. OLDEST_FIRST is not its reverse (ties are
 * by id ascending there too), so neither list's "first after" is the row above.
 */
export function compareTable(a: Place, b: Place): number {
  const t = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (t !== 0) return t;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const plusMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** `filter` narrowed to createdAt in [after, before) (both the API's bounds). */
function within(filter: SessionFilter, after?: string, before?: string): SessionFilter {
  const later = (a?: string | null, b?: string) =>
    a && b ? (Date.parse(a) >= Date.parse(b) ? a : b) : (a ?? b);
  const earlier = (a?: string | null, b?: string) =>
    a && b ? (Date.parse(a) <= Date.parse(b) ? a : b) : (a ?? b);
  return {
    ...filter,
    createdAfter: later(filter.createdAfter, after),
    createdBefore: earlier(filter.createdBefore, before),
  };
}

export interface RowsPage {
  rows: Place[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** One page of the sessions API: filter, order, page size, cursor. */
export type FetchRows = (
  filter: SessionFilter,
  order: 'NEWEST_FIRST' | 'OLDEST_FIRST',
  first: number,
  after: string | null,
) => Promise<RowsPage>;

/** Every row of a listing, in its order (a bounded number of pages: ties are few). */
async function* rows(fetch: FetchRows, filter: SessionFilter, order: 'NEWEST_FIRST') {
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const p = await fetch(filter, order, 100, after);
    yield* p.rows;
    if (!p.hasNextPage) return;
    after = p.endCursor;
  }
}

/**
 * The session below `here` (`]`) or above it (`[`) in the table `filter` lists, or null at an
 * end. Found by the table's order, not by finding `here` in it: a session the filter leaves
 * out (opened from search) still has a place, and equal createdAt are neither skipped nor
 * looped (before, the one instant's others were passed over).
 */
export async function neighbour(
  fetch: FetchRows,
  filter: SessionFilter,
  here: Place,
  below: boolean,
): Promise<string | null> {
  // The ties and everything older, in table order: the first row after `here`.
  if (below) {
    for await (const r of rows(
      fetch,
      within(filter, undefined, plusMs(here.createdAt, 1)),
      'NEWEST_FIRST',
    )) {
      if (compareTable(r, here) > 0) return r.id;
    }
    return null;
  }
  // Above: the ties before `here` or, if none, the last row of the next newer instant. That
  // instant first (the oldest newer session), then the table from it down to `here`'s ties.
  const next = await fetch(within(filter, plusMs(here.createdAt, 1)), 'OLDEST_FIRST', 1, null);
  const upTo = plusMs(next.rows[0]?.createdAt ?? here.createdAt, 1);
  let last: string | null = null;
  for await (const r of rows(fetch, within(filter, here.createdAt, upTo), 'NEWEST_FIRST')) {
    if (compareTable(r, here) >= 0) break;
    last = r.id;
  }
  return last;
}
