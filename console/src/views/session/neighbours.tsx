import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { gql } from '../../api/graphql';
import { graphql } from '../../gql';
import { typing } from '../keys';

const NeighboursQuery = graphql(`
  query ConsoleNeighbours($newer: SessionFilter!, $older: SessionFilter!) {
    newer: sessions(first: 2, filter: $newer, order: OLDEST_FIRST) {
      edges {
        node {
          id
        }
      }
    }
    older: sessions(first: 2, filter: $older, order: NEWEST_FIRST) {
      edges {
        node {
          id
        }
      }
    }
  }
`);

/**
 * `[` and `]`: the session above and below this one in the sessions table (newest first), as
 * the API orders them; sessions created in the same instant as this one are passed over.
 */
export function useNeighbourKeys(id: string, createdAt: string): void {
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['neighbours', id],
    queryFn: () =>
      gql(NeighboursQuery, {
        newer: { createdAfter: createdAt },
        older: { createdBefore: createdAt },
      }),
  });
  useEffect(() => {
    const pick = (edges: { node: { id: string } }[] | undefined) =>
      edges?.map((e) => e.node.id).find((other) => other !== id);
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      const to =
        e.key === '['
          ? pick(q.data?.newer.edges)
          : e.key === ']'
            ? pick(q.data?.older.edges)
            : undefined;
      if (to) void navigate({ to: '/sessions/$id', params: { id: to } });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [id, q.data, navigate]);
}
