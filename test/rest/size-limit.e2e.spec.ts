import { IDS } from '../e2e/search-home';
import { useRest } from './rest-home';

/**
 * MAX_RESPONSE_BYTES holds for REST as for GraphQL (the field middleware counts the bytes as
 * the route's document resolves): MAX_RESPONSE_BYTES=1024, and step 1 of `ide` holds 6,000+
 * characters at the full tier. The count is of the fields resolved when it passed the limit:
 * it moves with the order they resolve in (6,273 before the session's values waited for its
 * step outputs' listing too).
 */
const r = useRest({ MAX_RESPONSE_BYTES: '1024' });

describe('REST response size', () => {
  it('a route answer over MAX_RESPONSE_BYTES is 400 QUERY_TOO_COMPLEX', async () => {
    const res = await r.get(`/api/sessions/${IDS.ide}/steps/1?full=true`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.error.message).toBe(
      'The response exceeds the limit of 1024 bytes (6217 bytes counted). Ask for fewer items or shorter fields.',
    );
  });

  it('a smaller answer still fits', async () => {
    const small = await r.get(`/api/sessions/${IDS.cli}/steps/0`);
    expect([small.status, small.body.index]).toEqual([200, 0]);
  });
});
