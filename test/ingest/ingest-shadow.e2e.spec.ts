import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXAMPLE_HOME } from '../../src/config/home-settings';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import type { GqlBody } from '../e2e/harness';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, send, startCollector, type Collector } from './ingest-server';

/**
 * A pushed copy of an id never replaces or hides another copy: a mounted root's copy always
 * wins, pushed copies are ordered by source name (never by who pushed last), and every copy
 * stays reachable by source and flavor.
 */

const A = '240ff5ee-02e7-4b54-849e-917d5042eae3'; // mounted in antigravity-ide
const T = '.system_generated/logs/transcript.jsonl';
const line = (text: string) =>
  JSON.stringify({
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: '2026-06-16T10:44:34Z',
    content: `<USER_REQUEST>\n${text}\n</USER_REQUEST>`,
  }) + '\n';

let dir: string;
let c: Collector;
const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  (
    await send(c.server, 'POST', '/graphql', KEYS.all, JSON.stringify({ query, variables }), {
      'content-type': 'application/json',
    })
  ).json as GqlBody;
const forge = async (key: string, text: string) => {
  const a = await send(
    c.server,
    'PUT',
    `/api/ingest/sessions/antigravity-ide/${A}/files/${T}?offset=0`,
    key,
    line(text),
  );
  expect(a.status).toBe(200);
  await c.store.refresh();
};
const one = async (args: string) =>
  (await gql(`{ session(id: "${A}"${args}) { id source userRequest } }`)).data?.session;
const listed = async (filter: string) =>
  (
    (await gql(`{ sessions(first: 50, filter: ${filter}) { edges { node { id source } } } }`)).data
      ?.sessions as { edges: { node: { id: string; source: string | null } }[] }
  ).edges
    .map((e) => e.node)
    .filter((n) => n.id === A);

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-shadow-');
  const brain = path.join(dir, 'home', 'antigravity-ide', 'brain');
  fs.mkdirSync(brain, { recursive: true });
  fs.cpSync(path.join(EXAMPLE_HOME, 'antigravity-ide', 'brain', A), path.join(brain, A), {
    recursive: true,
  });
  // A real exposure in the mounted copy: a forged copy must not make it disappear.
  fs.appendFileSync(
    path.join(brain, A, T),
    JSON.stringify({
      step_index: 999,
      source: 'USER_EXPLICIT',
      type: 'USER_INPUT',
      status: 'DONE',
      created_at: '2026-06-16T12:00:00Z',
      content: 'use ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    }) + '\n',
  );
  c = await startCollector(dir, path.join(dir, 'home'), { CACHE_DIR: path.join(dir, 'cache') });
  await forge(KEYS.laptop, 'forged by laptop');
  // Pushed later, with a newer mtime: the last writer must not win.
  await new Promise((r) => setTimeout(r, 20));
  await forge(KEYS.ci, 'forged by ci');
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the same id pushed over a mounted session', () => {
  it('answers the mounted copy by id, on GraphQL and REST', async () => {
    const mounted = await one('');
    expect(mounted).toEqual({
      id: A,
      source: null,
      userRequest: expect.stringContaining('[baseline-browser-mapping]') as unknown,
    });
    expect(await one(', flavor: "antigravity-ide"')).toEqual(mounted);
    const rest = await send(c.server, 'GET', `/api/sessions/${A}`, KEYS.all);
    expect([rest.status, (rest.json as { source: unknown }).source]).toEqual([200, null]);
  });

  it('keeps the mounted copy and its secret exposures in secretExposures', async () => {
    await c.app.get<HomeIndex>(HOME_INDEX).caughtUp();
    const a = await gql(
      `{ secretExposures(first: 50, kinds: ["github-token"]) { edges { node { session { id source } count } } } }`,
    );
    const nodes = (
      a.data?.secretExposures as { edges: { node: { session: { id: string } } }[] }
    ).edges.map((e) => e.node);
    expect(nodes.filter((n) => n.session.id === A)).toEqual([
      // The request's token, counted once (as the request, not again as its content).
      { session: { id: A, source: null }, count: 1 },
    ]);
  });

  it('keeps each pushed copy reachable by session(source:) and filter {source}', async () => {
    expect(await one(', source: "laptop"')).toEqual({
      id: A,
      source: 'laptop',
      userRequest: 'forged by laptop',
    });
    expect(await one(', source: "ci-runner", flavor: "antigravity-ide"')).toEqual({
      id: A,
      source: 'ci-runner',
      userRequest: 'forged by ci',
    });
    expect(await one(', source: "nobody"')).toBeNull();
    expect(await listed('{ source: ["laptop"] }')).toEqual([{ id: A, source: 'laptop' }]);
    expect(await listed('{ source: ["ci-runner"] }')).toEqual([{ id: A, source: 'ci-runner' }]);
    expect(await listed('{ flavor: ["antigravity-ide"] }')).toEqual([{ id: A, source: null }]);
    expect(await listed('{}')).toEqual([{ id: A, source: null }]);
  });

  it('orders pushed copies by source name, whoever pushed last', async () => {
    const both = '{ source: ["laptop", "ci-runner"] }';
    expect(await listed(both)).toEqual([{ id: A, source: 'ci-runner' }]);
    await new Promise((r) => setTimeout(r, 20));
    await forge(KEYS.laptop, 'forged by laptop again');
    expect(await listed(both)).toEqual([{ id: A, source: 'ci-runner' }]);
    expect((await one('')).source).toBeNull();
  });
});
