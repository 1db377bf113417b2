import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { EXAMPLE_QUERIES, formattedExample } from '../../src/web/example-queries';
import { EXPLORER_CSP, HEADER_HINT } from '../../src/web/explorer';
import { ensureConsoleBuilt } from '../console/build';
import { linkTargets, unescapeHtml } from './html-util';
import { FULL_KEY, startWebHome, type WebHome } from './web-home';

/**
 * Browser GETs of /graphql get GraphiQL from this origin; everything else on /graphql is
 * Apollo's as before, CSRF prevention included.
 */

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CSRF_START = 'This operation has been blocked as a potential Cross-Site Request Forgery';

function explorerPage(home: WebHome): request.Test {
  return request(home.server).get('/graphql').set('Accept', BROWSER_ACCEPT);
}

/** A POST with no Content-Type at all (clients add one on their own). */
function postWithoutContentType(
  home: WebHome,
  body: string,
): Promise<{ status: number; body: { errors: { message: string }[] } }> {
  const { port } = home.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/graphql',
        headers: { Accept: BROWSER_ACCEPT },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(parts).toString()),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function settingsOf(html: string): Record<string, unknown> {
  const m = /<script type="application\/json" id="explorer-settings">(.*?)<\/script>/s.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]) as Record<string, unknown>;
}

const notesOf = (html: string): string[] =>
  [...html.matchAll(/<p class="note" role="note">(.*?)<\/p>/gs)].map((m) =>
    unescapeHtml(m[1].replace(/<[^>]+>/g, '')),
  );

describe('the explorer without API keys (introspection on)', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome();
  });
  afterAll(async () => {
    await home?.close();
  });

  it('serves GraphiQL with a CSP that admits this origin only', async () => {
    const res = await explorerPage(home);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(EXPLORER_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; font-src data:; worker-src 'self'",
    );
    expect(res.headers['content-security-policy']).toBe(EXPLORER_CSP);
    expect(linkTargets(res.text)).toEqual([
      '/ui/favicon.svg',
      '/ui/graphiql.css',
      '/ui/page.css',
      '/',
      '/ui/explorer-env.js',
      '/ui/graphiql.js',
      '/ui/explorer-fetcher.js',
      '/ui/explorer.js',
    ]);
    expect(res.text).not.toMatch(/<script>/);
    expect(notesOf(res.text)).toEqual([]);
  });

  it("opens the README's ten queries as tabs, no header hint, headers never persisted", async () => {
    const settings = settingsOf((await explorerPage(home)).text);
    expect(settings).toEqual({
      title: 'brainql',
      logo: '',
      defaultTabs: EXAMPLE_QUERIES.map((q, i) => ({
        query: formattedExample(q, i),
        ...(q.variables ? { variables: '{\n  "since": "2026-01-01T00:00:00Z"\n}' } : {}),
      })),
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'variables',
    });
  });

  it('leaves every other request to Apollo: CSRF prevention refuses as before', async () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/html']) {
      const req = request(home.server).get('/graphql?query=%7Broots%7Bflavor%7D%7D');
      const res = await (accept ? req.set('Accept', accept) : req);
      expect([accept, res.status, res.body.errors[0].message.startsWith(CSRF_START)]).toEqual([
        accept,
        400,
        true,
      ]);
    }
    const post = await request(home.server)
      .post('/graphql')
      .set('Content-Type', 'text/plain')
      .set('Accept', BROWSER_ACCEPT)
      .send('{"query":"{ roots { flavor } }"}');
    expect([post.status, post.body.errors[0].message.startsWith(CSRF_START)]).toEqual([400, true]);
    const bare = await postWithoutContentType(home, '{"query":"{ roots { flavor } }"}');
    expect([bare.status, bare.body.errors[0].message.startsWith(CSRF_START)]).toEqual([400, true]);
    const preflighted = await request(home.server)
      .get('/graphql?query=%7Broots%7BsessionCount%7D%7D')
      .set('apollo-require-preflight', 'true');
    expect([preflighted.status, preflighted.body]).toEqual([
      200,
      { data: { roots: [{ sessionCount: 1 }, { sessionCount: 1 }, { sessionCount: 1 }] } },
    ]);
  });
});

describe('the explorer with API keys and introspection off', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome({ INTROSPECTION: 'false' }, { withKeys: true });
  });
  afterAll(async () => {
    await home?.close();
  });

  it('loads without a key (the page is static) and says how to send one and what is missing', async () => {
    const res = await explorerPage(home);
    expect(res.status).toBe(200);
    expect(notesOf(res.text)).toEqual([
      'This server needs an API key: put it in the Headers tab below as {"Authorization": "Bearer <key>"}. It is kept in this tab only.',
      'Schema introspection is off on this server (INTROSPECTION=false): the explorer has no documentation, completion or validation. Queries still run; the schema is schema.gql in the repository.',
    ]);
    const settings = settingsOf(res.text);
    expect(settings.headers).toBe(HEADER_HINT);
    expect(HEADER_HINT).toBe('{\n  "Authorization": "Bearer <paste your API key here>"\n}');
    expect((settings.defaultTabs as { headers: string }[]).map((t) => t.headers)).toEqual(
      Array(10).fill(HEADER_HINT),
    );
    expect(settings.defaultEditorToolsVisibility).toBe('headers');
  });

  it('still needs the key for every query the page sends', async () => {
    const send = (headers: Record<string, string>) =>
      request(home.server)
        .post('/graphql')
        .set({ 'Content-Type': 'application/json', Accept: BROWSER_ACCEPT, ...headers })
        .send({ query: '{ roots { sessionCount } }' });
    const none = await send({});
    expect([none.status, none.body.errors[0].extensions.code]).toEqual([401, 'UNAUTHENTICATED']);
    const hint = await send({ Authorization: 'Bearer <paste your API key here>' });
    expect([hint.status, hint.body.errors[0].message]).toEqual([
      401,
      'send an API key as "Authorization: Bearer <key>"',
    ]);
    const ok = await send({ Authorization: `Bearer ${FULL_KEY}` });
    expect([ok.status, ok.body.data.roots.length]).toEqual([200, 3]);
  });
});

describe('request metrics of the pages', () => {
  it('counts the pages and their files as "pages", not as GraphQL operations', async () => {
    ensureConsoleBuilt();
    const home = await startWebHome();
    try {
      for (const p of ['/', '/ui/page.css', '/api/docs']) {
        expect((await request(home.server).get(p)).status).toBe(200);
      }
      expect((await explorerPage(home)).status).toBe(200);
      const metrics = (await request(home.server).get('/metrics')).text;
      const requests = metrics
        .split('\n')
        .filter((l) => l.startsWith('brainql_requests_total{'))
        .sort();
      expect(requests).toEqual(['brainql_requests_total{operation="pages",status="200"} 4']);
    } finally {
      await home.close();
    }
  });
});
