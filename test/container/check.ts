/**
 * The API half of the container test (run.sh starts the container): exact answers over the three
 * real sessions of test/fixtures/real, asked through the published port.
 *
 *   BASE_URL=http://127.0.0.1:3000 HOME_DIR=<the mounted brain home> \
 *     node -r ts-node/register/transpile-only test/container/check.ts
 */
import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const BASE_URL = required('BASE_URL');
const HOME_DIR = required('HOME_DIR');
const NEWEST = '9e779ff1-280b-47ed-945f-565cd870ce83';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function graphql(query: string): Promise<unknown> {
  const res = await fetch(`${BASE_URL}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = await res.text();
  strictEqual(res.status, 200, `POST /graphql answered ${res.status}: ${body}`);
  return JSON.parse(body);
}

const checks: [string, () => Promise<void>][] = [
  [
    'GET /healthz is 200 {"status":"ok"}',
    async () => {
      const res = await fetch(`${BASE_URL}/healthz`);
      strictEqual(res.status, 200);
      deepStrictEqual(await res.json(), { status: 'ok' });
    },
  ],
  ['GET /readyz is 200', async () => strictEqual((await fetch(`${BASE_URL}/readyz`)).status, 200)],
  [
    'roots: the mounted home, read as /data/gemini',
    async () =>
      deepStrictEqual(await graphql('{ roots { path flavor environment sessionCount } }'), {
        data: {
          roots: [
            {
              path: '/data/gemini/antigravity-ide/brain',
              flavor: 'antigravity-ide',
              environment: 'IDE',
              sessionCount: 3,
            },
          ],
        },
      }),
  ],
  [
    'sessions(first: 5): the three real sessions, newest first, exact requests',
    async () =>
      deepStrictEqual(
        await graphql(
          '{ sessions(first: 5) { totalCount edges { node { id createdAt userRequest stepCount } } } }',
        ),
        {
          data: {
            sessions: {
              totalCount: 3,
              edges: [
                {
                  node: {
                    id: NEWEST,
                    createdAt: '2026-06-25T20:02:49.000Z',
                    userRequest:
                      "a fin de ne pas perdre le logique de l'application et si je perd les infos sur cette appareil, je veux l'historique de conversasation soit preserver et le walkthrou",
                    stepCount: 61,
                  },
                },
                {
                  node: {
                    id: 'a704176f-0000-4000-8000-000000000000',
                    createdAt: '2026-06-25T17:15:58.000Z',
                    userRequest:
                      'comment je peux continuer le travail de ce projet dans une autre appareil ?',
                    stepCount: 38,
                  },
                },
                {
                  node: {
                    id: '240ff5ee-02e7-4b54-849e-917d5042eae3',
                    createdAt: '2026-06-16T10:44:34.000Z',
                    userRequest:
                      '[baseline-browser-mapping] The data in this module is over two months old.  To ensure accurate Baseline data, please update: `npm i baseline-browser-mapping@latest -D`',
                    stepCount: 60,
                  },
                },
              ],
            },
          },
        },
      ),
  ],
  [
    'session(id: "9e77"): a prefix finds the session and its walkthrough artifact',
    async () =>
      deepStrictEqual(
        await graphql('{ session(id: "9e77") { id artifacts { name kind size } } }'),
        {
          data: {
            session: {
              id: NEWEST,
              artifacts: [
                { name: 'walkthrough.md', kind: 'WALKTHROUGH', size: walkthrough().length },
              ],
            },
          },
        },
      ),
  ],
  [
    'the home index: READY over the three sessions, and search finds the known hits',
    async () => {
      // The index builds in the background from the first scan: give it a few seconds.
      const deadline = Date.now() + 60_000;
      let status: unknown;
      do {
        status = await graphql(
          '{ indexStatus { state sessionsIndexed sessionsTotal bytesIndexed } }',
        );
        if (
          (status as { data: { indexStatus: { state: string } } }).data.indexStatus.state ===
          'READY'
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      } while (Date.now() < deadline);
      deepStrictEqual(status, {
        data: {
          indexStatus: {
            state: 'READY',
            sessionsIndexed: 3,
            sessionsTotal: 3,
            bytesIndexed: 228863,
          },
        },
      });
      const hits = await graphql(
        '{ search(query: "baseline-browser-mapping", first: 3, order: NEWEST_FIRST) { totalCount edges { node { session { id } field step { position } matchCount } } } }',
      );
      const node = (field: string, position: number) => ({
        session: { id: '240ff5ee-02e7-4b54-849e-917d5042eae3' },
        field,
        step: { position },
        matchCount: 2,
      });
      deepStrictEqual(hits, {
        data: {
          search: {
            totalCount: 13,
            edges: [
              { node: node('USER_REQUEST', 0) },
              { node: node('CONTENT', 0) },
              { node: node('THINKING', 3) },
            ],
          },
        },
      });
    },
  ],
  [
    'POST /graphql without a JSON content type is refused (CSRF prevention)',
    async () => {
      const res = await fetch(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ query: '{ roots { path } }' }),
      });
      strictEqual(res.status, 400);
    },
  ],
  [
    'GET /api/sessions/<id>/files/walkthrough.md is the file, byte for byte',
    async () => {
      const res = await fetch(`${BASE_URL}/api/sessions/${NEWEST}/files/walkthrough.md`);
      strictEqual(res.status, 200);
      const expected = walkthrough();
      ok(
        res.headers.get('content-type')?.startsWith('text/markdown'),
        'Content-Type text/markdown',
      );
      strictEqual(res.headers.get('content-length'), String(expected.length));
      ok(Buffer.from(await res.arrayBuffer()).equals(expected), 'the body differs from the file');
    },
  ],
  [
    'GET /api/sessions/<id>/files/../<other session> is refused (400 or 404)',
    async () => {
      const other =
        '..%2F240ff5ee-02e7-4b54-849e-917d5042eae3%2F.system_generated%2Flogs%2Ftranscript.jsonl';
      const res = await fetch(`${BASE_URL}/api/sessions/${NEWEST}/files/${other}`);
      ok([400, 404].includes(res.status), `answered ${res.status}`);
    },
  ],
  [
    'the browser pages and their files, from the image (production node_modules)',
    async () => {
      const html = { Accept: 'text/html' };
      for (const [route, headers, type, minBytes] of [
        ['/', html, 'text/html', 400],
        ['/sessions/ba5e0000/steps/3', html, 'text/html', 400],
        ['/graphql', html, 'text/html', 1000],
        ['/ui/graphiql.js', {}, 'text/javascript', 1_000_000],
        ['/ui/graphiql-graphql.worker.js', {}, 'text/javascript', 100_000],
        ['/api/docs', html, 'text/html', 300],
        ['/api/docs/swagger-ui-bundle.js', {}, 'text/javascript', 500_000],
      ] as const) {
        const res = await fetch(`${BASE_URL}${route}`, { headers });
        const body = await res.text();
        strictEqual(res.status, 200, `GET ${route} answered ${res.status}`);
        ok(res.headers.get('content-type')?.startsWith(type), `GET ${route}: Content-Type ${type}`);
        ok(body.length >= minBytes, `GET ${route}: ${body.length} characters`);
      }
      // The console's bundle, built into the image: every script, preload and style its page names
      // (the early script, the entry and its chunks), each served whole with the immutable header.
      const page = await (await fetch(`${BASE_URL}/`, { headers: html })).text();
      const assets = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
        (m) => m[1],
      );
      ok(
        assets.some((a) => /\/assets\/index-[^/]+\.js$/.test(a)),
        `the console page names its entry: ${assets.join(' ')}`,
      );
      let total = 0;
      for (const asset of assets) {
        const res = await fetch(`${BASE_URL}${asset}`);
        strictEqual(res.status, 200, `GET ${asset} answered ${res.status}`);
        strictEqual(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        total += (await res.text()).length;
      }
      ok(total >= 100_000, `the console's first files: ${total} characters (the whole bundle)`);
    },
  ],
];

function walkthrough(): Buffer {
  return readFileSync(path.join(HOME_DIR, 'antigravity-ide/brain', NEWEST, 'walkthrough.md'));
}

async function main(): Promise<void> {
  let failed = 0;
  for (const [name, check] of checks) {
    try {
      await check();
      console.log(`  ok      ${name}`);
    } catch (err) {
      failed++;
      console.log(`  FAILED  ${name}\n${String(err instanceof Error ? err.message : err)}`);
    }
  }
  console.log(`  ${checks.length - failed}/${checks.length} API checks passed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

void main();
