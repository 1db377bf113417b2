import * as D from '../../src/operations/documents';
import type { Data } from '../e2e/harness';
import { IDS } from '../e2e/search-home';
import { pageOf, useRest } from './rest-home';

/**
 * GET /api/sessions/{id}/steps takes what the contract offers (`first` up to 500 with
 * `full=true`) even when one query for that page costs more than MAX_QUERY_COST: the route asks
 * it in parts. `many` holds 22 records; at the full tier a step costs 128 points (8 more for
 * the page), so `first=500&full=true` costs 64008, over the default 50000.
 */
const positions = (page: Data) => page.items.map((s: Data) => s.position);
const ALL = Array.from({ length: 22 }, (_, i) => i);

describe('with the default limits', () => {
  const r = useRest();

  it('first=500&full=true answers the whole page, as GraphQL answers it in two halves', async () => {
    const res = await r.get(`/api/sessions/${IDS.many}/steps?first=500&full=true`);
    expect(res.status).toBe(200);
    expect(positions(res.body)).toEqual(ALL);
    expect([res.body.totalCount, res.body.nextCursor]).toEqual([22, null]);
    const gql = await r.gql(D.STEPS, { id: IDS.many, first: 250, full: true });
    expect(res.body).toEqual(pageOf(gql.session.steps));
  });

  it('a first outside 1..500 is still refused with the range error', async () => {
    const res = await r.get(`/api/sessions/${IDS.many}/steps?first=501`);
    expect([res.status, res.body.error.code]).toEqual([400, 'BAD_USER_INPUT']);
  });
});

describe('MAX_QUERY_COST=300: pages of 2 full steps (264 points)', () => {
  const r = useRest({ MAX_QUERY_COST: '300' });

  it('puts the parts back together in order, with the cursor of the last one', async () => {
    const first = await r.get(`/api/sessions/${IDS.many}/steps?first=5&full=true`);
    expect(first.status).toBe(200);
    expect(positions(first.body)).toEqual([0, 1, 2, 3, 4]);
    expect(first.body.totalCount).toBe(22);
    const rest = await r.get(
      `/api/sessions/${IDS.many}/steps?first=500&full=true&after=${first.body.nextCursor}`,
    );
    expect([rest.status, positions(rest.body), rest.body.nextCursor]).toEqual([
      200,
      ALL.slice(5),
      null,
    ]);
    // Filters apply to every part.
    const planned = await r.get(
      `/api/sessions/${IDS.many}/steps?first=7&full=true&type=PLANNER_RESPONSE`,
    );
    expect(planned.body.items).toHaveLength(7);
    expect(planned.body.items.every((s: Data) => s.type === 'PLANNER_RESPONSE')).toBe(true);
  });

  it('an absent session is still 404', async () => {
    const res = await r.get('/api/sessions/5eaf0009-0000-4000-8000-000000000009/steps?full=true');
    expect([res.status, res.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the whole page keeps the limits of one answer', () => {
  const r = useRest({
    MAX_QUERY_COST: '300',
    RATE_LIMIT_POINTS: '2000',
    MAX_RESPONSE_BYTES: '4096',
  });

  it('MAX_RESPONSE_BYTES bounds the sum of the parts', async () => {
    const res = await r.get(`/api/sessions/${IDS.many}/steps?first=14&full=true`);
    expect([res.status, res.body.error.code]).toEqual([400, 'QUERY_TOO_COMPLEX']);
    expect(res.body.error.message).toMatch(
      /^The response exceeds the limit of 4096 bytes \(\d+ bytes counted\)\. /,
    );
  });

  it('a page costing more than the whole rate-limit bucket is refused, naming both numbers', async () => {
    const res = await r.get(`/api/sessions/${IDS.many}/steps?first=22&full=true`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      message:
        "The query costs 2824 points, more than the 2000 points per minute a key's rate limit " +
        'holds (RATE_LIMIT_POINTS): it could never run. Ask for fewer items.',
    });
  });
});
