import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { gql } from '../../api/graphql';
import { subscribe } from '../../api/live';
import { graphql } from '../../gql';
import { ErrorNote } from '../../components/ErrorNote';
import { count } from '../../components/text';
import { Filters } from './Filters';
import { FilterProblems } from './FilterProblems';
import { filterProblems, toFilter, type SessionSearch } from './filters';
import { SessionsTable } from './SessionsTable';
import { unknownValueProblems, useKnownValues } from './known-values';
import { rememberTableSearch } from './table-search';
import { useTitle } from '../title';

const SessionsPageQuery = graphql(`
  query ConsoleSessions($filter: SessionFilter, $after: String) {
    sessions(first: 100, after: $after, filter: $filter, order: NEWEST_FIRST) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          createdAt
          updatedAt
          model
          userRequest
          stepCount
          toolCallCount
          errorCount
          failedCommandCount
          secretCount
          root {
            flavor
            environment
          }
        }
      }
    }
  }
`);

const SessionEventsSubscription = graphql(`
  subscription ConsoleSessionEvents($filter: SessionFilter) {
    sessionEvents(filter: $filter) {
      type
      sessionId
    }
  }
`);

/** `/`: every visible session, newest first, filtered by the URL; new ones appear live. */
export function SessionsPage({ search }: { search: SessionSearch }) {
  const filter = useMemo(() => toFilter(search), [search]);
  useTitle('Sessions');
  // `[`/`]` on a session opened from here move through this list (views/session/neighbours).
  useEffect(() => rememberTableSearch(search), [search]);
  const key = ['sessions', filter];
  const client = useQueryClient();
  const known = useKnownValues();
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => gql(SessionsPageQuery, { filter, after: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) =>
      last.sessions.pageInfo.hasNextPage ? last.sessions.pageInfo.endCursor : undefined,
  });

  useEffect(() => {
    // Any event changes the first page or a count: ask again (at most twice a second). So does
    // the stream's start: a session that appeared between the page's answer and the stream's
    // start (or while the stream was away) had no one to tell.
    let timer: number | undefined;
    const refetch = () => {
      timer ??= window.setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: ['sessions'] });
      }, 500);
    };
    const stop = subscribe(SessionEventsSubscription, { filter }, refetch, refetch);
    return () => {
      stop();
      window.clearTimeout(timer);
    };
  }, [client, filter]);

  const rows = useMemo(
    () => query.data?.pages.flatMap((p) => p.sessions.edges.map((e) => e.node)) ?? [],
    [query.data],
  );
  const total = query.data?.pages[0]?.sessions.totalCount;
  return (
    <section aria-labelledby="sessions-title">
      <div className="page-head">
        <h1 id="sessions-title">Sessions</h1>
        {total !== undefined && (
          <span className="muted" data-testid="total">
            {count(total, 'session')}
          </span>
        )}
      </div>
      <Filters search={search} />
      <FilterProblems
        problems={[...filterProblems(search), ...unknownValueProblems(search, known)]}
      />
      {query.error && <ErrorNote error={query.error} />}
      {query.isPending && <p className="muted">Loading…</p>}
      {/* An empty table would fill the view with blank rows and push this below the fold. */}
      {query.data && rows.length === 0 && (
        <p>
          No session matches. <Link to="/">Clear the filters</Link>
        </p>
      )}
      {query.data && rows.length > 0 && (
        <SessionsTable
          rows={rows}
          hasMore={query.hasNextPage}
          loadMore={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
        />
      )}
    </section>
  );
}
