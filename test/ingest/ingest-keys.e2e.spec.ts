import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXAMPLE_HOME } from '../../src/config/home-settings';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import type { Data, GqlBody } from '../e2e/harness';
import { makeTempDir } from '../fixtures/brain-home';
import { refusal, subscribe, type Transport } from '../live/clients';
import { KEYS, pushDir, send, startCollector, type Collector } from './ingest-server';

/**
 * Roles and scopes: a push key only pushes; a read key cannot push; a source-scoped read key
 * sees only its source's sessions in every route, search, stats, secrets and subscriptions.
 */

const IDE = path.join(EXAMPLE_HOME, 'antigravity-ide', 'brain');
const A = '240ff5ee-02e7-4b54-849e-917d5042eae3'; // pushed by ci-runner
const B = '9e779ff1-280b-47ed-945f-565cd870ce83'; // pushed by laptop

let dir: string;
let c: Collector;
const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) =>
  (
    await send(c.server, 'POST', '/graphql', key, JSON.stringify({ query, variables }), {
      'content-type': 'application/json',
    })
  ).json as GqlBody;

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-keys-');
  fs.mkdirSync(path.join(dir, 'home', 'antigravity-cli', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'home'), { CACHE_DIR: path.join(dir, 'cache') });
  await pushDir(c.server, KEYS.ci, 'antigravity-ide', path.join(IDE, A));
  await pushDir(c.server, KEYS.laptop, 'antigravity-ide', path.join(IDE, B));
  await c.store.refresh();
  await c.app.get<HomeIndex>(HOME_INDEX).caughtUp();
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a push key reads nothing', () => {
  const refused = 'a push key may only use the ingest routes (/api/ingest/…)';
  it('answers 403 FORBIDDEN on GraphQL, REST, files and metrics; health stays open', async () => {
    const graphql = await send(
      c.server,
      'POST',
      '/graphql',
      KEYS.ci,
      '{"query":"{ roots { path } }"}',
      {
        'content-type': 'application/json',
      },
    );
    expect([graphql.status, graphql.json]).toEqual([
      403,
      { errors: [{ message: refused, extensions: { code: 'FORBIDDEN' } }] },
    ]);
    for (const route of [
      '/api/sessions',
      `/api/sessions/${A}`,
      `/api/sessions/${A}/files/task.md`,
      `/api/sessions/${A}/lines/1?file=.system_generated/logs/transcript.jsonl`,
      '/api/search?q=plan',
      '/api/stats',
      '/metrics',
    ]) {
      const a = await send(c.server, 'GET', route, KEYS.ci);
      expect([route, a.status, a.json]).toEqual([
        route,
        403,
        { error: { code: 'FORBIDDEN', message: refused } },
      ]);
    }
    expect((await send(c.server, 'GET', '/healthz', KEYS.ci)).status).toBe(200);
  });

  it.each<Transport>(['ws', 'sse'])('refuses its subscriptions over %s', async (t) => {
    const got = await refusal(
      t,
      c.server,
      'subscription($id: String!) { steps(sessionId: $id) { position } }',
      { id: A },
      KEYS.ci,
    );
    if (t === 'ws')
      expect(got).toEqual({
        close: { code: 4403, reason: 'Forbidden: a push key may only use the ingest routes' },
      });
    else expect(got).toEqual({ status: 403, errors: [{ code: 'FORBIDDEN', message: refused }] });
  });
});

describe('a read key cannot push', () => {
  it('answers 403 FORBIDDEN on both ingest routes and writes nothing', async () => {
    const base = `/api/ingest/sessions/antigravity-ide/${A}`;
    const put = await send(c.server, 'PUT', `${base}/files/x.md?offset=0`, KEYS.all, 'x');
    const get = await send(c.server, 'GET', base, KEYS.all);
    for (const a of [put, get])
      expect([a.status, a.json]).toEqual([
        403,
        {
          error: {
            code: 'FORBIDDEN',
            message: 'the ingest routes need a push key (keygen --push)',
          },
        },
      ]);
    expect(fs.readdirSync(c.ingestDir).sort()).toEqual(['ci-runner', 'laptop']);
  });
});

describe('sources', () => {
  const LIST =
    '{ sessions(first: 100) { totalCount edges { node { id source root { flavor source } } } } }';
  it('Session.source names the push key; roots lists the ingested roots; mounted roots have null', async () => {
    const d = (await gql(KEYS.all, LIST)).data!;
    expect(
      d.sessions.edges.map((e: Data) => e.node).sort((x: Data, y: Data) => (x.id < y.id ? -1 : 1)),
    ).toEqual([
      { id: A, source: 'ci-runner', root: { flavor: 'antigravity-ide', source: 'ci-runner' } },
      { id: B, source: 'laptop', root: { flavor: 'antigravity-ide', source: 'laptop' } },
    ]);
    const roots = (await gql(KEYS.all, '{ roots { path flavor source sessionCount } }')).data!
      .roots;
    expect(roots).toEqual([
      {
        path: path.join(dir, 'home', 'antigravity-cli', 'brain'),
        flavor: 'antigravity-cli',
        source: null,
        sessionCount: 0,
      },
      {
        path: path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain'),
        flavor: 'antigravity-ide',
        source: 'ci-runner',
        sessionCount: 1,
      },
      {
        path: path.join(c.ingestDir, 'laptop', 'antigravity-ide', 'brain'),
        flavor: 'antigravity-ide',
        source: 'laptop',
        sessionCount: 1,
      },
    ]);
  });

  it('SessionFilter.source and REST ?source= select by source', async () => {
    const d = (
      await gql(KEYS.all, '{ sessions(filter: { source: ["laptop"] }) { edges { node { id } } } }')
    ).data!;
    expect(d.sessions.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([B]);
    const rest = await send(c.server, 'GET', '/api/sessions?source=ci-runner', KEYS.all);
    expect(
      (rest.json!.items as { id: string; source: string }[]).map((s) => [s.id, s.source]),
    ).toEqual([[A, 'ci-runner']]);
  });

  it('a source-scoped read key sees only its source: sessions, lookups, files, search, stats, secrets', async () => {
    const mine = (await gql(KEYS.ciReader, LIST)).data!;
    expect(mine.sessions.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([A]);
    expect((await gql(KEYS.ciReader, `{ session(id: "${B}") { id } }`)).data).toEqual({
      session: null,
    });
    expect((await send(c.server, 'GET', `/api/sessions/${B}`, KEYS.ciReader)).status).toBe(404);
    expect(
      (
        await send(
          c.server,
          'GET',
          `/api/sessions/${B}/files/.system_generated/logs/transcript.jsonl`,
          KEYS.ciReader,
        )
      ).status,
    ).toBe(404);
    const roots = (await gql(KEYS.ciReader, '{ roots { source } }')).data!.roots;
    expect(roots).toEqual([{ source: 'ci-runner' }]);

    const SEARCH =
      '{ search(query: "the", first: 100) { totalCount edges { node { session { id } } } } }';
    const everyone = (await gql(KEYS.all, SEARCH)).data!.search;
    const scoped = (await gql(KEYS.ciReader, SEARCH)).data!.search;
    const sessionsOf = (s: { edges: { node: { session: { id: string } } }[] }) =>
      [...new Set(s.edges.map((e) => e.node.session.id))].sort();
    expect(sessionsOf(everyone)).toEqual([A, B]);
    expect(sessionsOf(scoped)).toEqual([A]);
    const onlyA = (
      await gql(
        KEYS.all,
        `{ search(query: "the", first: 100, filter: { sessions: { source: ["ci-runner"] } }) { totalCount } }`,
      )
    ).data!.search;
    expect(scoped.totalCount).toBe(onlyA.totalCount);

    const STATS = '{ stats { sessions steps } }';
    const statsA = (
      await gql(KEYS.all, '{ stats(filter: { source: ["ci-runner"] }) { sessions steps } }')
    ).data!.stats;
    expect((await gql(KEYS.ciReader, STATS)).data!.stats).toEqual(statsA);
    expect(statsA.sessions).toBe(1);

    const SECRETS = '{ secretExposures(first: 100) { edges { node { session { id } count } } } }';
    const secrets = (await gql(KEYS.ciReader, SECRETS)).data!.secretExposures.edges;
    expect(
      secrets.every((e: { node: { session: { id: string } } }) => e.node.session.id === A),
    ).toBe(true);
    // Flavor and source lists must both match: the acp-only key sees none of these.
    expect((await gql(KEYS.acpCi, LIST)).data!.sessions.totalCount).toBe(0);
  });

  it.each<Transport>(['ws', 'sse'])(
    'a scoped key cannot follow another source over %s',
    async (t) => {
      const sub = subscribe(
        t,
        c.server,
        'subscription($id: String!) { steps(sessionId: $id) { position } }',
        { id: B },
        KEYS.ciReader,
      );
      await sub.ended;
      await sub.close();
      expect(
        sub.results.map((r) =>
          r.errors?.map((e: { message: string; extensions: { code: string } }) => [
            e.extensions.code,
            e.message,
          ]),
        ),
      ).toEqual([[['BAD_USER_INPUT', `no session "${B}"`]]]);
    },
  );
});
