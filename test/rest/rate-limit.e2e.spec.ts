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
    expect((await r.get(`/api/sessions/${IDS.ide}`, KEYS.ide)).status).toBe(200);
    const rest = 600 - remaining('key:ide');
    await r.gql(SESSION, { id: IDS.ide }, KEYS.all);
    const gql = 600 - remaining('key:all');
    expect(rest).toBeGreaterThan(0);
    // The buckets refill by 0.01 point a millisecond between the two readings.
    expect(Math.abs(rest - gql)).toBeLessThanOrEqual(1);
  });

  it('429 RATE_LIMITED with Retry-After once the key has spent its points', async () => {
    drain('key:acp');
    // Costs over a whole minute of points: it waits for a full bucket.
    const res = await r.get(`/api/sessions/${IDS.many}/steps`, KEYS.acp);
    expect([res.status, res.headers['retry-after']]).toEqual([429, '60']);
    expect(res.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        /^Rate limit: 600 cost points per minute per key; this query costs \d+\. Retry in 60 s\.$/,
      ),
    });
    for (const route of [
      `/api/sessions/${IDS.acp}/export?format=json`,
      `/api/sessions/${IDS.acp}/secrets`,
      '/api/stats',
      '/api/search?q=zebrafish',
    ]) {
      const again = await r.get(route, KEYS.acp);
      expect([again.status, again.body.error.code]).toEqual([429, 'RATE_LIMITED']);
      expect(again.body.error.message).toContain(`Retry in ${again.headers['retry-after']} s.`);
    }
    // Another key has its own bucket.
    expect((await r.get(`/api/sessions/${IDS.ide}`, KEYS.ide)).status).toBe(200);
  });

  it('an export over the rate waits for points between pages rather than failing', async () => {
    const started = Date.now();
    const res = await r.get(`/api/sessions/${IDS.many}/export?format=json`, KEYS.ide);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as { steps: { position: number }[] };
    expect(doc.steps.map((s) => s.position)).toEqual(Array.from({ length: 22 }, (_, i) => i));
    // The steps page wants a full bucket (600 points): the header's points come back first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});
