import { RateLimiter } from '../../src/graphql/limits/rate-limiter';
import { SESSION } from '../../src/operations/documents';
import { IDS, KEYS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * REST is charged like GraphQL: the route's document costs what the same GraphQL query costs,
 * from the same bucket (the key's). RATE_LIMIT_POINTS=600: 10 points a second.
 */
const r = useRest({ RATE_LIMIT_POINTS: '600' });
const remaining = (key: string) => {
  const v = r.app.get(RateLimiter).take(key, 0);
  return v.ok ? v.remaining : -1;
};
function drain(key: string): void {
  const rates = r.app.get(RateLimiter);
  while (rates.take(key, 1).ok);
}

describe('REST rate limit', () => {
  it('a route costs what its GraphQL document costs', async () => {
    // The buckets' clock stands still, so what a bucket lost is exactly what its request was
    // charged (after settling), however long the request took on this machine.
    const limiter: RateLimiter = r.app.get(RateLimiter);
    const clock = limiter as unknown as { now: () => number };
    const realNow = clock.now;
    const frozen = Date.now();
    clock.now = () => frozen;
    try {
      expect((await r.get(`/api/sessions/${IDS.ide}`, KEYS.ide)).status).toBe(200);
      await r.gql(SESSION, { id: IDS.ide }, KEYS.all);
      const rest = 600 - remaining('key:ide');
      expect(rest).toBeGreaterThan(0);
      expect(600 - remaining('key:all')).toBe(rest);
    } finally {
      clock.now = realNow;
    }
  });

  it('429 RATE_LIMITED with Retry-After once the key has spent its points', async () => {
    drain('key:acp');
    const res = await r.get(`/api/sessions/${IDS.ide}`, KEYS.acp);
    expect(res.status).toBe(429);
    expect(res.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        /^Rate limit: 600 cost points per minute per key; this query is estimated at \d+ before it runs \(then charged what it read; a smaller `first` needs fewer\)\. Retry in \d+ s\.$/,
      ),
    });
    expect(res.body.error.message).toContain(`Retry in ${res.headers['retry-after']} s.`);
    for (const route of [
      `/api/sessions/${IDS.acp}`,
      `/api/sessions/${IDS.acp}/secrets`,
      '/api/sessions?first=5',
      '/api/search?q=zebrafish&first=2',
    ]) {
      const again = await r.get(route, KEYS.acp);
      expect([route, again.status, again.body.error.code]).toEqual([route, 429, 'RATE_LIMITED']);
      expect(again.body.error.message).toContain(`Retry in ${again.headers['retry-after']} s.`);
    }
    // Another key has its own bucket.
    expect((await r.get(`/api/sessions/${IDS.ide}`, KEYS.ide)).status).toBe(200);
  });

  it('400 QUERY_TOO_COMPLEX naming both numbers for a route costing more than the whole bucket', async () => {
    // 50 steps at the full tier cost more than 600 points: no wait would let the page run.
    const res = await r.get(`/api/sessions/${IDS.many}/steps?first=50&full=true`, KEYS.all);
    expect([res.status, res.headers['retry-after']]).toEqual([400, undefined]);
    expect(res.body.error).toEqual({
      code: 'QUERY_TOO_COMPLEX',
      message:
        "The query costs 6408 points, more than the 600 points per minute a key's rate limit " +
        'holds (RATE_LIMIT_POINTS): it could never run. Ask for fewer items.',
    });
    // What fits in the bucket runs.
    expect((await r.get(`/api/sessions/${IDS.many}/steps?first=4`, KEYS.all)).status).toBe(200);
  });

  it('an export over the rate waits for points between pages rather than failing', async () => {
    const started = Date.now();
    const res = await r.get(`/api/sessions/${IDS.ide}/export?format=json`, KEYS.ide);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as { steps: { position: number }[] };
    expect(doc.steps.map((s) => s.position)).toEqual([0, 1, 2, 3]);
    // Its 4 steps at once cost more than the whole bucket (600 points): they are read in
    // pages that fit, the second once the header's and the first page's points came back.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  }, 60_000);
});
