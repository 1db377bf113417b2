import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { CONSOLE_CSP, CONSOLE_DIR, isConsoleRoute } from '../../src/web/console';
import { ensureConsoleBuilt } from '../console/build';
import { linkTargets } from './html-util';
import { startWebHome, type WebHome } from './web-home';

/**
 * The console's page and files as the server sends them: index.html for the contract's routes
 * (no-cache, own-origin CSP), hashed files immutable and gzipped; other paths keep their
 * meaning.
 */

describe('serving the console', () => {
  let home: WebHome;
  let index: string;
  beforeAll(async () => {
    ensureConsoleBuilt();
    index = fs.readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8');
    home = await startWebHome({}, { withKeys: true });
  });
  afterAll(async () => {
    await home?.close();
  });

  it('answers the built index.html for every console route, without a key', async () => {
    for (const p of [
      '/',
      '/?env=ide&errors=true',
      '/sessions/eb000000',
      '/sessions/eb000000/steps/3',
      '/sessions/x/unknown/deeper',
      '/search?q=abc',
      '/secrets',
      '/dashboard?bucket=week',
    ]) {
      const res = await request(home.server).get(p);
      expect([p, res.status, res.headers['content-type'], res.text]).toEqual([
        p,
        200,
        'text/html; charset=utf-8',
        index,
      ]);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
    expect(CONSOLE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('loads only its own hashed files, no inline script or style', () => {
    const targets = linkTargets(index);
    expect(targets.filter((t) => !t.startsWith('/assets/'))).toEqual(['/ui/favicon.svg']);
    const files = targets.filter((t) => t.startsWith('/assets/'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) expect(f).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
    // First, the early script (console/src/early.ts): a session page's first queries go out
    // while the main bundle still downloads.
    expect(files[0]).toMatch(/^\/assets\/early-[\w-]{8}\.js$/);
    expect(index).toMatch(/<script type="module" async crossorigin src="\/assets\/early-/);
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(index).not.toMatch(/<style|\sstyle=/);
  });

  it('sends hashed files immutable for a year, gzipped on request, 304 on revalidation', async () => {
    const script = linkTargets(index).find((t) => t.endsWith('.js'))!;
    const res = await request(home.server).get(script).set('Accept-Encoding', 'gzip');
    expect([res.status, res.headers['content-type'], res.headers['content-encoding']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'gzip',
    ]);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await request(home.server).get(script).set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    // Not a console file: the API's answer (authentication comes first on this server).
    expect((await request(home.server).get('/assets/nothing-12345678.js')).status).toBe(401);
  });

  it('leaves the API, the explorer, the docs and the probes their meaning', async () => {
    expect((await request(home.server).get('/healthz')).status).toBe(200);
    expect((await request(home.server).get('/api/sessions')).status).toBe(401);
    const docs = await request(home.server).get('/api/docs');
    expect([docs.status, docs.text.includes('swagger')]).toEqual([200, true]);
    const gql = await request(home.server).get('/graphql').set('Accept', 'text/html');
    expect([gql.status, gql.text.includes('/ui/graphiql.js')]).toEqual([200, true]);
    expect((await request(home.server).post('/').send('x')).status).toBe(401);
  });

  it("answers a browser's navigation to an unknown path with the page (404), an API client with JSON", async () => {
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const p of ['/nope', '/nope/nothing', '/favicon.png']) {
      const res = await request(home.server).get(p).set('Accept', html);
      expect([p, res.status, res.headers['content-type'], res.text]).toEqual([
        p,
        404,
        'text/html; charset=utf-8',
        index,
      ]);
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
    // API clients (no Accept, */*, JSON) and the API's own paths keep authentication's answer.
    const nope = await request(home.server).get('/nope');
    expect([nope.status, nope.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    const json = await request(home.server).get('/nope').set('Accept', 'application/json');
    expect(json.status).toBe(401);
    for (const p of ['/api/nope', '/api/sessions', '/metrics', '/assets/nothing-12345678.js']) {
      const res = await request(home.server).get(p).set('Accept', html);
      expect([p, res.status, res.headers['content-type']]).toEqual([
        p,
        401,
        'application/json; charset=utf-8',
      ]);
    }
  });
});

describe('isConsoleRoute', () => {
  it("takes the contract's routes and paths under them, nothing else", () => {
    const yes = ['/', '/sessions', '/sessions/a/steps/1', '/search', '/secrets/', '/dashboard'];
    const no = [
      '/api/sessions',
      '/graphql',
      '/healthz',
      '/searching',
      '/sessionsx',
      '/ui/page.css',
    ];
    expect(yes.filter(isConsoleRoute)).toEqual(yes);
    expect(no.filter(isConsoleRoute)).toEqual([]);
  });
});
