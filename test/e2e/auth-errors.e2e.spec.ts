import request from 'supertest';
import { rawGet } from './harness';
import { MINI_ID, MINI_KEY, miniFile, startMiniHome, type MiniHome } from './mini-home';

/**
 * Authentication failures outside GraphQL answer the one error shape with WWW-Authenticate;
 * /graphql keeps GraphQL's. The Bearer scheme name is case-insensitive (RFC 9110 11.1).
 */
describe('authentication errors and the Bearer scheme', () => {
  let home: MiniHome;
  beforeAll(async () => {
    home = await startMiniHome({ 'notes.md': '# Notes\n' }, {}, { withKey: true });
  });
  afterAll(async () => {
    await home?.close();
  });

  const NO_KEY = 'send an API key as "Authorization: Bearer <key>"';
  const BAD_KEY = 'the API key is not valid';

  it('answers 401 {"error":{"code":"UNAUTHENTICATED",...}} with WWW-Authenticate outside GraphQL', async () => {
    for (const [headers, message] of [
      [{}, NO_KEY],
      [{ Authorization: `Basic ${MINI_KEY}` }, NO_KEY],
      [{ Authorization: `Bearer  ${MINI_KEY}` }, NO_KEY],
      [{ Authorization: 'Bearer bql_wrong' }, BAD_KEY],
      [{ Authorization: `bearer ${MINI_KEY}x` }, BAD_KEY],
      // Longer than any key (sixth review): not valid, rather than "send a key".
      [{ Authorization: `Bearer ${'k'.repeat(12000)}` }, BAD_KEY],
    ] as const) {
      for (const p of [miniFile('notes.md'), '/metrics', '/nope', `/api/sessions/${MINI_ID}`]) {
        const r = await rawGet(home.server, p, headers);
        const label = `${JSON.stringify(headers)} ${p}`;
        expect([label, r.status, JSON.parse(r.body.toString())]).toEqual([
          label,
          401,
          { error: { code: 'UNAUTHENTICATED', message } },
        ]);
        expect(r.headers['www-authenticate']).toBe('Bearer realm="brainql"');
        expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    }
  });

  it('keeps the GraphQL error shape on /graphql', async () => {
    const r = await request(home.server)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send({ query: '{ roots { flavor } }' });
    expect([r.status, r.body]).toEqual([
      401,
      { errors: [{ message: NO_KEY, extensions: { code: 'UNAUTHENTICATED' } }] },
    ]);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="brainql"');
  });

  it('accepts the scheme name in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const auth = { Authorization: `${scheme} ${MINI_KEY}` };
      const file = await rawGet(home.server, miniFile('notes.md'), auth);
      expect([scheme, file.status, file.body.toString()]).toEqual([scheme, 200, '# Notes\n']);
      const gql = await request(home.server)
        .post('/graphql')
        .set({ ...auth, 'Content-Type': 'application/json' })
        .send({ query: '{ roots { flavor } }' });
      expect([scheme, gql.status, gql.body]).toEqual([
        scheme,
        200,
        { data: { roots: [{ flavor: 'antigravity-ide' }] } },
      ]);
    }
  });
});
