import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { gql } from '../../api/graphql';
import { graphql } from '../../gql';
import type { SessionFilter } from '../../gql/graphql';
import { toFilter } from '../sessions/filters';
import { tableSearch } from '../sessions/table-search';
import { typing } from '../keys';
import { neighbour, type FetchRows } from './neighbour-order';

const NeighbourRowsQuery = graphql(`
  query ConsoleNeighbourRows(
    $filter: SessionFilter!
    $order: SessionOrder!
    $first: Int!
    $after: String
  ) {
    sessions(first: $first, after: $after, filter: $filter, order: $order) {
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          createdAt
        }
      }
    }
  }
`);

const fetchRows: FetchRows = async (filter, order, first, after) => {
  const d = await gql(NeighbourRowsQuery, { filter, order, first, after });
  return {
    rows: d.sessions.edges.map((e) => ({ id: e.node.id, createdAt: String(e.node.createdAt) })),
    endCursor: d.sessions.pageInfo.endCursor ?? null,
    hasNextPage: d.sessions.pageInfo.hasNextPage,
  };
};

/**
 * `[` and `]`: the session above and below this one in the sessions table as this tab last
 * showed it (its filters, newest first, equal createdAt by id: the API's order). Asked for at
 * the press, not with the session: opening one costs its header and first steps.
 */
export function useNeighbourKeys(id: string, createdAt: string): NeighbourState {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [cold, setCold] = useState(coldPress);
  // The table's end reached by a press: said, since a key that does nothing is silent.
  const [end, setEnd] = useState<End | null>(null);
  useEffect(() => {
    let shown = true;
    setEnd(null);
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key !== '[' && e.key !== ']') return;
      const below = e.key === ']';
      // A tab that never showed the table (a link opened in a new tab, a bookmark): every
      // session, newest first, and the page says so (before, silently unfiltered).
      const table = tableSearch();
      if (table === null) {
        coldPress = true;
        setCold(true);
      }
      const filter: SessionFilter = toFilter(table ?? {});
      void client
        .fetchQuery({
          queryKey: ['neighbours', id, below, filter],
          queryFn: () => neighbour(fetchRows, filter, { id, createdAt }, below),
        })
        .then((to) => {
          // Only while this session is still the one shown (a key pressed as it was left).
          if (!shown) return;
          if (to) {
            void navigate({ to: '/sessions/$id', params: { id: to } });
            return;
          }
          // No session that way: the table's end, or a table that lists none at all.
          return fetchRows(filter, 'NEWEST_FIRST', 1, null).then((first) => {
            if (shown) setEnd({ way: below ? 'below' : 'above', empty: first.rows.length === 0 });
          });
        })
        .catch(() => undefined);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      shown = false;
      window.removeEventListener('keydown', onKey);
    };
  }, [id, createdAt, client, navigate]);
  return { cold: cold && tableSearch() === null, end };
}

/** Which way a press found no session, and whether the table lists none. */
export interface End {
  way: 'above' | 'below';
  empty: boolean;
}

export interface NeighbourState {
  /** `[`/`]` were used in a tab that never showed the table (see ColdNeighbourNote). */
  cold: boolean;
  /** The last press found no session that way. */
  end: End | null;
}

/** What a press that found no session says. */
function endText({ way, empty }: End): string {
  const key = way === 'below' ? ']' : '[';
  if (empty) return `No session in the sessions table under its filters: ${key} has nowhere to go.`;
  return `No session ${way} this one in the sessions table: ${key} has nowhere to go.`;
}

/**
 * Where `[` or `]` finding no session is said: the table's first or last row, or an empty
 * table. The status region is on the page before it says anything (one added with its text is
 * often not read out: review 6 L8); empty, it takes no room.
 */
export function NeighbourEndNote({ end }: { end: End | null }) {
  return (
    <p className={end ? 'notice' : 'said-empty'} role="status" data-testid="neighbour-end">
      {end ? endText(end) : ''}
    </p>
  );
}

/** Whether `[`/`]` was pressed in this tab without a table to follow (kept across sessions). */
let coldPress = false;

/** What `[`/`]` follow in a cold tab, said once they are used. */
export function ColdNeighbourNote() {
  return (
    <p className="notice" role="status" data-testid="neighbour-note">
      This tab has not shown the sessions table, so [ and ] move through every session, newest
      first; once the <Link to="/">sessions table</Link> is opened here, they follow its filters.
    </p>
  );
}
