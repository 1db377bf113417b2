import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { EXPLORER_START_JS } from '../../src/web/explorer-client';
import { SWAGGER_CSP } from '../../src/web/swagger-ui';
import { rawGet } from '../e2e/harness';
import { linkTargets } from './html-util';
import { startWebHome, type WebHome } from './web-home';

/**
 * The pages' files come from this origin (out of node_modules, in memory), revalidated by
 * ETag and gzipped for clients that take it; with API keys they load without one.
 */

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const ASSETS: [string, string][] = [
  ['/ui/graphiql.js', JS],
  ['/ui/graphiql.css', CSS],
  ['/ui/graphiql-editor.worker.js', JS],
  ['/ui/graphiql-json.worker.js', JS],
  ['/ui/graphiql-graphql.worker.js', JS],
  ['/ui/explorer-env.js', JS],
  ['/ui/explorer-fetcher.js', JS],
  ['/ui/explorer.js', JS],
  ['/ui/page.css', CSS],
  ['/ui/favicon.svg', 'image/svg+xml'],
  ['/api/docs/swagger-ui.css', CSS],
  ['/api/docs/swagger-ui-bundle.js', JS],
  ['/api/docs/swagger-start.js', JS],
];

describe('the pages’ files, with API keys configured', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome({}, { withKeys: true });
  });
  afterAll(async () => {
    await home?.close();
  });

  it('serves each without a key, with its type, an ETag and 304 on revalidation', async () => {
    for (const [p, type] of ASSETS) {
      // The bytes as sent: supertest would gunzip on its own.
      const res = await rawGet(home.server, p, { 'Accept-Encoding': 'identity' });
      const { body } = res;
      expect([p, res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        p,
        200,
        type,
        'no-cache',
      ]);
      expect([p, Number(res.headers['content-length'])]).toEqual([p, body.length]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const again = await request(home.server).get(p).set('If-None-Match', res.headers['etag']!);
      expect([p, again.status]).toEqual([p, 304]);
      const zipped = await rawGet(home.server, p, { 'Accept-Encoding': 'gzip, deflate' });
      expect([p, zipped.headers['content-encoding']]).toEqual([p, 'gzip']);
      expect(gunzipSync(zipped.body).equals(body)).toBe(true);
    }
  });

  it('answers HEAD without a body, and unknown files as any unknown route (401 without a key)', async () => {
    const head = await request(home.server).head('/ui/explorer.js').set('Accept-Encoding', '');
    expect([head.status, head.headers['content-length'], head.text]).toEqual([
      200,
      String(Buffer.byteLength(EXPLORER_START_JS)),
      undefined,
    ]);
    const unknown = await request(home.server).get('/ui/nope.js');
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('serves Swagger UI at /api/docs without a key, pointed at /api/openapi.json, no validator', async () => {
    for (const p of ['/api/docs', '/api/docs/']) {
      const res = await request(home.server).get(p);
      expect([p, res.status, res.headers['content-type']]).toEqual([
        p,
        200,
        'text/html; charset=utf-8',
      ]);
      expect(res.headers['content-security-policy']).toBe(SWAGGER_CSP);
      expect(linkTargets(res.text)).toEqual([
        '/ui/favicon.svg',
        '/api/docs/swagger-ui.css',
        '/ui/page.css',
        '/',
        '/api/openapi.json',
        '/api/docs/swagger-ui-bundle.js',
        '/api/docs/swagger-start.js',
      ]);
    }
    expect(
      (await request(home.server).get('/api/docs')).text.match(
        /<form id="docs-key"[^]*?<\/form>/,
      )?.[0],
    ).toBe(
      '<form id="docs-key" class="note">\n<label>This server needs an API key to show its REST API: <input name="key" type="password" autocomplete="off" size="40" placeholder="API key"></label>\n<button type="submit">Load</button> (kept in this page only)\n</form>',
    );
    expect(SWAGGER_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const start = (await request(home.server).get('/api/docs/swagger-start.js')).text;
    expect(start).toContain("url: '/api/openapi.json',");
    expect(start).toContain('validatorUrl: null,');
    expect(start).toContain("layout: 'BaseLayout',");
  });
});

describe('Swagger UI without API keys', () => {
  it('has no key form: the document loads at once', async () => {
    const home = await startWebHome();
    try {
      const res = await request(home.server).get('/api/docs');
      expect([res.status, res.text.includes('docs-key')]).toEqual([200, false]);
    } finally {
      await home.close();
    }
  });
});
