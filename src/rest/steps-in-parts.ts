import { tooComplex } from '../graphql/limits/limit-error';
import { STEPS } from '../operations/documents';
import { OperationError } from '../operations/operation-error';
import type { RunOperation } from '../operations/run';
import { MAX_STEPS_PAGE } from '../steps/steps.args';
import type { Connection } from './answers';

type Node = Record<string, unknown>;
export interface StepsData {
  session: (Node & { steps: Connection<Node> }) | null;
}

/** The variables of the STEPS document as the route reads them. */
export type StepsVariables = {
  id: string;
  first?: number;
  after?: string;
  full?: boolean;
  filter?: Record<string, unknown>;
};

/** How many steps a page holds when `first` is not given (the STEPS document's default). */
const DEFAULT_FIRST = 50;

/**
 * A page of steps as the contract offers it over REST (`first` up to 500, `full=true`), even
 * when one query for it would cost more than MAX_QUERY_COST: the page is then asked in parts
 * (halving the part until one fits, then following its cursor), and put back together.
 *
 * The limits still hold for the page as a whole: `run` must share one AnswerBudget between the
 * parts (one deadline, one response-bytes count against MAX_RESPONSE_BYTES), every part is
 * charged to the caller's rate limit, and a page costing more than the whole bucket
 * (`ratePerMinute`) is refused as GraphQL refuses it, since its parts could never all run. A
 * `first` outside 1..500 is asked as is, so the answer is GraphQL's own.
 */
export async function stepsInParts(
  run: RunOperation,
  variables: StepsVariables,
  ratePerMinute: number,
): Promise<StepsData> {
  const want = variables.first ?? DEFAULT_FIRST;
  if (want < 1 || want > MAX_STEPS_PAGE) return run<StepsData>(STEPS, variables);
  const edges: { node: Node }[] = [];
  let after = variables.after;
  let size = want;
  for (;;) {
    let data: StepsData;
    try {
      data = await run<StepsData>(STEPS, { ...variables, after, first: size });
    } catch (error) {
      const over = error instanceof OperationError ? error.limit : undefined;
      if (over?.kind !== 'cost' || size === 1) throw error;
      if (edges.length === 0 && over.measured > ratePerMinute) {
        const refusal = tooComplex('ratePoints', ratePerMinute, over.measured);
        throw new OperationError('QUERY_TOO_COMPLEX', refusal.message);
      }
      size = Math.floor(size / 2);
      continue;
    }
    if (!data.session) return data;
    const steps = data.session.steps;
    for (const edge of steps.edges) edges.push(edge);
    const { hasNextPage, endCursor } = steps.pageInfo;
    if (edges.length >= want || !hasNextPage || endCursor === null) {
      return { session: { ...data.session, steps: { ...steps, edges } } };
    }
    after = endCursor;
    size = Math.min(size, want - edges.length);
  }
}
