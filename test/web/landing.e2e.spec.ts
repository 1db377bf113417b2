import * as path from 'node:path';
import request from 'supertest';
import { LANDING_CSP } from '../../src/web/landing';
import { EXAMPLE_QUERIES, formattedExample, LANDING_EXAMPLES } from '../../src/web/example-queries';
import { linkTargets, rootRows, unescapeHtml, type RootRow } from './html-util';
import {
  FULL_KEY,
  IDE_KEY,
  MARKUP_FLAVOR,
  SECRET_FLAVOR,
  startWebHome,
  type WebHome,
} from './web-home';

/**
 * GET / : what the service is, the roots of the caller's scope (masked and escaped as the
 * `roots` query answers them), links and five README queries; no script, nothing from
 * elsewhere.
 */

const ROOTS_QUERY = '{ roots { flavor environment sessionCount path } }';

async function page(home: WebHome, key?: string): Promise<request.Response> {
  const req = request(home.server).get('/');
  return key ? req.set('Authorization', `Bearer ${key}`) : req;
}

async function graphqlRoots(home: WebHome, key?: string): Promise<RootRow[]> {
  const req = request(home.server).post('/graphql').set('Content-Type', 'application/json');
  if (key) req.set('Authorization', `Bearer ${key}`);
  const res = await req.send({ query: ROOTS_QUERY });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.roots as RootRow[];
}

const byFlavor = (a: RootRow, b: RootRow): number => a.flavor.localeCompare(b.flavor);

describe('the landing page without API keys', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome();
  });
  afterAll(async () => {
    await home?.close();
  });

  it('lists every root as the roots query does: flavors masked, then escaped', async () => {
    const res = await page(home);
    expect([res.status, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    const rows = rootRows(res.text).sort(byFlavor);
    expect(rows).toEqual((await graphqlRoots(home)).sort(byFlavor));
    expect(rows.map((r) => [r.flavor, r.sessionCount])).toEqual([
      [MARKUP_FLAVOR, 1],
      ['antigravity-ide', 1],
      ['team-[REDACTED:gitlab-token]', 1],
    ]);
    expect(rows[2].path).toBe(
      path.join(home.dir, 'extra', 'team-[REDACTED:gitlab-token]', 'brain'),
    );
    expect(res.text).not.toContain(SECRET_FLAVOR);
    expect(res.text).toContain('<td>a&#60;b x=&#34;1&#34;&#62;&#38;&#39;c</td>');
    expect(res.text).not.toContain('<b x=');
    expect(res.text).toContain('no API keys are configured');
  });

  it('sends a CSP that allows no script and nothing from another origin, and is never cached', async () => {
    const res = await page(home);
    expect(LANDING_CSP).toBe(
      "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['content-security-policy']).toBe(LANDING_CSP);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['vary']).toBe('Authorization');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).not.toMatch(/<script/i);
    for (const target of linkTargets(res.text)) expect(target).toMatch(/^\/(?!\/)/);
  });

  it('links the explorer, the REST docs, health, readiness and metrics', async () => {
    const targets = linkTargets((await page(home)).text).filter((t) => !t.includes('?'));
    expect(targets).toEqual([
      '/ui/favicon.svg',
      '/ui/page.css',
      '/',
      '/graphql',
      '/api/docs',
      '/api/openapi.json',
      '/healthz',
      '/readyz',
      '/metrics',
    ]);
    for (const p of ['/healthz', '/readyz', '/metrics', '/ui/page.css', '/ui/favicon.svg']) {
      expect([p, (await request(home.server).get(p)).status]).toEqual([p, 200]);
    }
  });

  it('shows five README queries, each with a link that opens it in the explorer', async () => {
    const html = (await page(home)).text;
    const blocks = [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
      unescapeHtml(m[1]),
    );
    const expected = LANDING_EXAMPLES.map((q) => formattedExample(q, EXAMPLE_QUERIES.indexOf(q)));
    expect(blocks).toEqual(expected);
    expect(blocks.map((b) => b.split('\n')[0])).toEqual([
      '# 1. The newest sessions',
      "# 2. One session's steps with their tool calls",
      '# 7. The files a run changed, with diffs',
      '# 9. Full-text search over every session',
      '# 10. The sessions where secrets appeared, and where',
    ]);
    const opens = linkTargets(html).filter((t) => t.startsWith('/graphql?query='));
    expect(opens.map((t) => decodeURIComponent(t.slice('/graphql?query='.length)))).toEqual(
      expected,
    );
  });
});

describe('the landing page with API keys', () => {
  let home: WebHome;
  beforeAll(async () => {
    home = await startWebHome({}, { withKeys: true });
  });
  afterAll(async () => {
    await home?.close();
  });

  it('without a key says a key is needed and names no root', async () => {
    for (const [key, why] of [
      [undefined, 'send an API key as &#34;Authorization: Bearer &#60;key&#62;&#34;'],
      ['bql_not-a-key', 'the API key is not valid'],
    ] as const) {
      const res = await page(home, key);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`This server needs an API key (${why}).`);
      expect(rootRows(res.text)).toEqual([]);
      for (const hidden of ['antigravity-ide', 'team-', 'a&#60;b', home.dir, '/brain']) {
        expect(res.text).not.toContain(hidden);
      }
    }
  });

  it('with a scoped key lists only the roots of its flavors', async () => {
    const res = await page(home, IDE_KEY);
    const rows = rootRows(res.text);
    expect(rows).toEqual(await graphqlRoots(home, IDE_KEY));
    expect(rows).toEqual([
      {
        flavor: 'antigravity-ide',
        environment: 'IDE',
        sessionCount: 1,
        path: path.join(home.dir, 'home', 'antigravity-ide', 'brain'),
      },
    ]);
    expect(res.text).toContain('The brain roots your key may read:');
    for (const hidden of ['team-', 'a&#60;b', path.join(home.dir, 'extra')]) {
      expect(res.text).not.toContain(hidden);
    }
  });

  it('with a full key lists every root, masked like the roots query', async () => {
    const rows = rootRows((await page(home, FULL_KEY)).text).sort(byFlavor);
    expect(rows).toEqual((await graphqlRoots(home, FULL_KEY)).sort(byFlavor));
    expect(rows.map((r) => r.flavor)).toEqual([
      MARKUP_FLAVOR,
      'antigravity-ide',
      'team-[REDACTED:gitlab-token]',
    ]);
  });
});

describe('the landing page with REDACT=off', () => {
  it('shows root names as the roots query does (unmasked) and says redaction is off', async () => {
    const home = await startWebHome({ REDACT: 'off' });
    try {
      const res = await page(home);
      const rows = rootRows(res.text).sort(byFlavor);
      expect(rows).toEqual((await graphqlRoots(home)).sort(byFlavor));
      expect(rows[2].flavor).toBe(SECRET_FLAVOR);
      expect(res.text).toContain(
        '<b>Redaction is off on this server: secrets are shown as written.</b>',
      );
    } finally {
      await home.close();
    }
  });
});

describe('the landing page under the rate limit', () => {
  it('spends the caller’s points like the roots query, and answers 429 with Retry-After when out', async () => {
    // The page's estimate (51 points) is the whole bucket; it settles to what it read.
    const home = await startWebHome({ RATE_LIMIT_POINTS: '51' });
    try {
      expect((await page(home)).status).toBe(200);
      const out = await page(home);
      expect([out.status, out.body.error.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(out.headers['retry-after'])).toBeGreaterThan(0);
      // The same bucket as the caller's GraphQL queries.
      const gql = await request(home.server)
        .post('/graphql')
        .set('Content-Type', 'application/json')
        .send({ query: ROOTS_QUERY });
      expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    } finally {
      await home.close();
    }
  });
});
