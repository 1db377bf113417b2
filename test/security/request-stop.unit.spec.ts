import { parse, type GraphQLSchema } from 'graphql';
import type { QueryLimits } from '../../src/config/config';
import { queryCost } from '../../src/graphql/limits/cost';
import { runningSchema } from '../../src/graphql/print-schema';
import { SESSION_SCAN_COST } from '../../src/graphql/field-policy';
import { tooComplex } from '../../src/graphql/limits/limit-error';
import { RequestLimits } from '../../src/graphql/limits/request-limits';

/** What stops store work (the request's signal) and what the home's size costs. */

const LIMITS: QueryLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 20,
  maxTokens: 5000,
  maxCost: 50_000,
  maxResponseBytes: 1000,
  timeoutMs: 100,
  ratePerMinute: 500_000,
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the request signal', () => {
  it('aborts at the deadline with the timeout error, even while no field starts', async () => {
    const limits = new RequestLimits(LIMITS, 'k');
    const { signal } = limits;
    expect(signal.aborted).toBe(false);
    await wait(150);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(limits.stoppedBy);
    expect(limits.stoppedBy?.extensions).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      kind: 'timeout',
      limit: 100,
    });
    limits.finish();
  });

  it('aborts with whichever limit stopped the request first', () => {
    const limits = new RequestLimits(LIMITS, 'k');
    expect(() => limits.add(2000)).toThrow();
    expect(limits.signal.reason).toEqual(tooComplex('responseBytes', 1000, 2000));
    limits.finish();
  });

  it('does not abort once the request has finished', async () => {
    const limits = new RequestLimits(LIMITS, 'k');
    const { signal } = limits;
    limits.finish();
    await wait(150);
    expect(signal.aborted).toBe(false);
  });
});

describe('the cost of a text filter', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await runningSchema();
  });
  const cost = (query: string, visibleSessions: number) =>
    queryCost({ schema, document: parse(query), home: { visibleSessions } });

  it('adds SESSION_SCAN_COST per visible session, and says it depends on the home', () => {
    expect(SESSION_SCAN_COST).toBe(1);
    const q = '{ sessions(first: 1, filter: {query: "zzz"}) { totalCount } }';
    expect(cost(q, 10)).toEqual({ total: 12, unmetered: 11, readsHome: true });
    expect(cost(q, 200)).toEqual({ total: 202, unmetered: 201, readsHome: true });
    expect(cost('{ sessions(first: 1) { totalCount } }', 200)).toEqual({ total: 2, unmetered: 1 });
  });
});
