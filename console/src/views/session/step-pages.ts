import { queryOptions, useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { gql } from '../../api/graphql';
import type { StepPartsFragment } from '../../gql/graphql';
import { StepPositionQuery, StepsPageQuery } from './queries';

/** Steps per page (the query's `first`): page k holds positions k × PAGE to k × PAGE + 99. */
export const PAGE = 100;

export interface StepPages {
  /** The loaded steps by position. */
  byPosition: ReadonlyMap<number, StepPartsFragment>;
  /** Records in the session, once a page has answered. */
  total: number | undefined;
  /** Where the marked step is: undefined while asked, null when there is no such step. */
  markedPosition: number | null | undefined;
  /** Asks for the pages holding positions `first` to `last` (the rows in view). */
  want: (first: number, last: number) => void;
  error: Error | null;
  fetching: boolean;
}

interface PageAnswer {
  data?: {
    session?: { steps: { totalCount: number; edges: { node: StepPartsFragment }[] } } | null;
  };
  error: Error | null;
  isFetching: boolean;
}

/** The answered pages as one map (module level: TanStack re-runs it only when one changes). */
function combine(results: PageAnswer[]) {
  const byPosition = new Map<number, StepPartsFragment>();
  let total: number | undefined;
  for (const r of results) {
    const steps = r.data?.session?.steps;
    if (!steps) continue;
    total = Math.max(total ?? 0, steps.totalCount);
    for (const e of steps.edges) byPosition.set(e.node.position, e.node);
  }
  return {
    byPosition,
    total,
    error: results.find((r) => r.error)?.error ?? null,
    fetching: results.some((r) => r.isFetching),
  };
}

/** The step indexes the API's Int holds: any other is no step (not a 400). */
const MAX_INDEX = 2 ** 31 - 1;
const MIN_INDEX = -(2 ** 31);

/** Where step `index` is (its page comes first). `id`: the route's id or prefix. */
const positionQuery = (id: string, index: number) =>
  queryOptions({
    queryKey: ['step-position', id, index],
    queryFn: () =>
      index > MAX_INDEX || index < MIN_INDEX
        ? Promise.resolve({ session: null })
        : gql(StepPositionQuery, { id, index }),
  });

/** Page `k`: the records at positions k × PAGE on. */
const pageQuery = (id: string, k: number) =>
  queryOptions({
    queryKey: ['steps', id, k],
    queryFn: () => gql(StepsPageQuery, { id, from: k * PAGE }),
  });

/**
 * Asks for the first page the timeline will show (the marked step's, else the first) while the
 * session's header is still on its way: the two requests overlap instead of following each
 * other. Called by the session routes' loader, at route match (routes/router.tsx).
 */
export async function prefetchSteps(
  client: QueryClient,
  id: string,
  marked: number | undefined,
): Promise<void> {
  const at = marked === undefined ? null : await client.fetchQuery(positionQuery(id, marked));
  const position = at?.session?.step?.position ?? 0;
  await client.prefetchQuery(pageQuery(id, Math.floor(position / PAGE)));
}

/**
 * A session's steps as pages by position (`steps(fromPosition:)`), loaded as the rows they
 * hold come into view, in any order: a permalink's page is asked first (where its step is, from
 * `step(index:)`), the pages before it only when scrolled to.
 */
export function useStepPages(id: string, marked: number | undefined): StepPages {
  const at = useQuery({ ...positionQuery(id, marked ?? 0), enabled: marked !== undefined });
  const markedPosition =
    marked === undefined ? null : at.data ? (at.data.session?.step?.position ?? null) : undefined;
  const [wanted, setWanted] = useState<readonly number[]>([]);
  // The first page: the marked step's, else the start (none while its position is asked).
  const first = markedPosition === undefined ? undefined : Math.floor((markedPosition ?? 0) / PAGE);
  const pages = first === undefined ? wanted : [first, ...wanted.filter((k) => k !== first)];
  const answers = useQueries({
    queries: pages.map((k) => pageQuery(id, k)),
    combine,
  });
  const want = useCallback((from: number, to: number) => {
    // Rows above the first (a fast scroll up, an overscan) are no page: a page below 0 is a
    // request the API refuses (`fromPosition` must be 0 or more).
    if (!Number.isFinite(from) || !Number.isFinite(to)) return;
    const need: number[] = [];
    for (let k = Math.max(0, Math.floor(from / PAGE)); k <= Math.floor(to / PAGE); k++)
      need.push(k);
    setWanted((prev) => {
      const more = need.filter((k) => !prev.includes(k));
      return more.length ? [...prev, ...more] : prev;
    });
  }, []);
  return {
    byPosition: answers.byPosition,
    total: answers.total,
    markedPosition,
    want,
    error: at.error ?? answers.error,
    fetching: at.isFetching || answers.fetching,
  };
}
