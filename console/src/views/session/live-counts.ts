import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { gql } from '../../api/graphql';
import { graphql } from '../../gql';
import { sessionQuery } from './queries';

const SessionCountsQuery = graphql(`
  query ConsoleSessionCounts($id: String!) {
    session(id: $id) {
      id
      updatedAt
      stepCount
      toolCallCount
      errorCount
    }
  }
`);

/** At most one counts request per this many ms while steps stream in (the last one always). */
const EVERY_MS = 1000;

/**
 * The header's counts (steps, tool calls, errors, last activity) as a followed session grows:
 * `grew` is called for each live step; the counts are asked again (the API's own, not summed
 * here: a step's tool calls and errors are the API's to count) and written into the header's
 * cached answer. Before, the timeline grew and the header kept the counts it opened with.
 */
export function useLiveCounts(routeId: string): () => void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [routeId],
  );
  return useCallback(() => {
    if (timer.current) return;
    const ask = () => {
      timer.current = null;
      last.current = Date.now();
      void gql(SessionCountsQuery, { id: routeId })
        .then((d) => {
          const counts = d.session;
          if (!counts) return;
          client.setQueryData(sessionQuery(routeId).queryKey, (old) =>
            old?.session ? { ...old, session: { ...old.session, ...counts } } : old,
          );
        })
        .catch(() => undefined);
    };
    timer.current = setTimeout(ask, Math.max(0, last.current + EVERY_MS - Date.now()));
  }, [client, routeId]);
}
