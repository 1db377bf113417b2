import { useQueryClient } from '@tanstack/react-query';
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
 * the API orders them; sessions created in the same instant as this one are passed over. Asked
 * for at the first press, not with the session: opening one costs its header and first steps.
 */
export function useNeighbourKeys(id: string, createdAt: string): void {
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(() => {
    let shown = true;
    const pick = (edges: { node: { id: string } }[] | undefined) =>
      edges?.map((e) => e.node.id).find((other) => other !== id);
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key !== '[' && e.key !== ']') return;
      const newer = e.key === '[';
      void client
        .fetchQuery({
          queryKey: ['neighbours', id],
          queryFn: () =>
            gql(NeighboursQuery, {
              newer: { createdAfter: createdAt },
              older: { createdBefore: createdAt },
            }),
        })
        .then((d) => {
          const to = pick(newer ? d.newer.edges : d.older.edges);
          // Only while this session is still the one shown (a key pressed as it was left).
          if (to && shown) void navigate({ to: '/sessions/$id', params: { id: to } });
        })
        .catch(() => undefined);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      shown = false;
      window.removeEventListener('keydown', onKey);
    };
  }, [id, createdAt, client, navigate]);
}
