import type { AddressInfo } from 'node:net';
import request from 'supertest';
import WebSocket from 'ws';
import { FULL_KEY, IDS, startWebHome, type WebHome } from './web-home';

/**
 * CORS_ORIGINS: listed origins may call /graphql and /api/* from a browser (preflights
 * answered, responses readable); any other origin gets no CORS header, and its preflights 403.
 * Apollo's CSRF prevention is unchanged for everyone.
 */

const ALLOWED = 'https://dash.example.com';
const REFUSED = 'https://evil.example';
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-max-age',
];
const corsOf = (res: request.Response): Record<string, string> =>
  Object.fromEntries(CORS_HEADERS.filter((h) => h in res.headers).map((h) => [h, res.headers[h]]));

const FILE = `/api/sessions/${IDS.ide}/files/.system_generated/logs/transcript.jsonl`;
const QUERY = { query: '{ roots { sessionCount } }' };

function preflight(home: WebHome, p: string, origin: string): request.Test {
  return request(home.server)
    .options(p)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', p === '/graphql' ? 'POST' : 'GET')
    .set('Access-Control-Request-Headers', 'authorization,content-type');
}

describe('CORS with CORS_ORIGINS and API keys', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome(
      { CORS_ORIGINS: `${ALLOWED},http://localhost:5173` },
      { withKeys: true },
    );
  });
  afterAll(async () => {
    await home?.close();
  });

  it('answers a listed origin’s preflight on /graphql and /api/* (no key needed for it)', async () => {
    for (const p of ['/graphql', FILE, '/api/sessions']) {
      const res = await preflight(home, p, ALLOWED);
      expect([p, res.status, corsOf(res)]).toEqual([
        p,
        204,
        {
          'access-control-allow-origin': ALLOWED,
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers':
            'Authorization, Content-Type, Apollo-Require-Preflight, X-Apollo-Operation-Name',
          'access-control-max-age': '600',
        },
      ]);
      expect(res.headers['vary']).toBe('Origin, Access-Control-Request-Headers');
    }
  });

  it('lets a listed origin read answers, 401s included', async () => {
    const gql = await request(home.server)
      .post('/graphql')
      .set({
        Origin: ALLOWED,
        'Content-Type': 'application/json',
        Authorization: `Bearer ${FULL_KEY}`,
      })
      .send(QUERY);
    const file = await request(home.server)
      .get(FILE)
      .set({ Origin: ALLOWED, Authorization: `Bearer ${FULL_KEY}` });
    const rest = await request(home.server)
      .get('/api/sessions')
      .set({ Origin: ALLOWED, Authorization: `Bearer ${FULL_KEY}` });
    const denied = await request(home.server).get(FILE).set('Origin', ALLOWED);
    expect(rest.body.totalCount).toBe(3);
    for (const [res, status] of [
      [gql, 200],
      [file, 200],
      [rest, 200],
      [denied, 401],
    ] as const) {
      expect([res.status, corsOf(res)]).toEqual([
        status,
        {
          'access-control-allow-origin': ALLOWED,
          'access-control-expose-headers':
            'Retry-After, Content-Disposition, WWW-Authenticate, X-Held-Back-Bytes',
        },
      ]);
      expect(res.headers['vary']).toMatch(/^Origin\b/);
    }
    expect(gql.body).toEqual({
      data: { roots: [{ sessionCount: 1 }, { sessionCount: 1 }, { sessionCount: 1 }] },
    });
  });

  it('gives any other origin no CORS header, and refuses its preflights', async () => {
    for (const origin of [
      REFUSED,
      'http://dash.example.com',
      'https://dash.example.com:8443',
      'null',
    ]) {
      for (const p of ['/graphql', FILE]) {
        const pre = await preflight(home, p, origin);
        expect([origin, p, pre.status, pre.body, corsOf(pre)]).toEqual([
          origin,
          p,
          403,
          { error: { code: 'FORBIDDEN', message: 'this origin is not listed in CORS_ORIGINS' } },
          {},
        ]);
      }
      const res = await request(home.server)
        .post('/graphql')
        .set({
          Origin: origin,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${FULL_KEY}`,
        })
        .send(QUERY);
      expect([origin, res.status, corsOf(res), res.headers['vary']]).toEqual([
        origin,
        200,
        {},
        'Origin',
      ]);
    }
  });

  it('keeps CSRF prevention: a simple cross-site POST is refused, listed origin or not', async () => {
    for (const origin of [ALLOWED, REFUSED]) {
      const res = await request(home.server)
        .post('/graphql')
        .set({ Origin: origin, 'Content-Type': 'text/plain', Authorization: `Bearer ${FULL_KEY}` })
        .send(JSON.stringify(QUERY));
      expect([origin, res.status, res.body.data]).toEqual([origin, 400, undefined]);
      expect(res.body.errors[0].message).toMatch(
        /^This operation has been blocked as a potential Cross-Site Request Forgery/,
      );
    }
  });
});

/** Opens a graphql-ws socket from `origin` with `key`; the first message or the close. */
function socketFrom(home: WebHome, origin: string, key: string): Promise<string> {
  const { port } = home.server.address() as AddressInfo;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', {
    headers: { origin },
  });
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: key } })),
  );
  return new Promise((resolve) => {
    socket.on('message', (m: Buffer) => {
      resolve(m.toString());
      socket.close();
    });
    socket.on('close', (code, reason) => resolve(`${code} ${reason.toString()}`));
  });
}

describe('WebSockets (not covered by CORS) with CORS_ORIGINS', () => {
  it('accept a listed origin and refuse any other', async () => {
    const home = await startWebHome({ CORS_ORIGINS: ALLOWED }, { withKeys: true });
    try {
      expect(await socketFrom(home, ALLOWED, FULL_KEY)).toBe('{"type":"connection_ack"}');
      expect(await socketFrom(home, REFUSED, FULL_KEY)).toBe(
        '4401 Unauthorized: cross-origin WebSocket refused',
      );
    } finally {
      await home.close();
    }
  });
});

describe('CORS without CORS_ORIGINS (the default)', () => {
  it('sends no CORS header to anyone and refuses every preflight in the one error shape', async () => {
    const home = await startWebHome();
    try {
      for (const route of ['/graphql', '/api/sessions']) {
        const pre = await preflight(home, route, ALLOWED);
        expect([route, pre.status, corsOf(pre), pre.body]).toEqual([
          route,
          403,
          {},
          { error: { code: 'FORBIDDEN', message: 'this origin is not listed in CORS_ORIGINS' } },
        ]);
      }
      const res = await request(home.server)
        .post('/graphql')
        .set({ Origin: ALLOWED, 'Content-Type': 'application/json' })
        .send(QUERY);
      expect([res.status, corsOf(res), res.headers['vary']]).toEqual([200, {}, undefined]);
    } finally {
      await home.close();
    }
  });
});
