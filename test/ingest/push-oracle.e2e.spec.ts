import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { Corpus, rng, writeHome } from '../../bench/generate';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { brainql, ensureBuilt, EXAMPLE_HOME } from '../cli/bin';
import { postGql, startAppOver, type Data } from '../e2e/harness';
import { makeTempDir } from '../fixtures/brain-home';
import { buildActivitySessions } from '../fixtures/session-activity';
import { filesUnder, KEYS, send, startCollector, type Collector } from './ingest-server';

/**
 * The oracle: the example home, the activity fixtures and 60 generated sessions pushed to an
 * empty collector answer every question exactly as a server reading the originals does (apart
 * from `source` and the root's path), and every file arrives byte for byte.
 */

let dir: string;
let home: string;
let original: INestApplication;
let originalServer: http.Server;
let c: Collector;

const ask = async (server: http.Server, query: string, key?: string): Promise<Data> => {
  const body = key
    ? (
        await send(server, 'POST', '/graphql', key, JSON.stringify({ query }), {
          'content-type': 'application/json',
        })
      ).json
    : await postGql(server, query);
  expect(body?.errors).toBeUndefined();
  return (body as { data: Data }).data;
};
/** The same question to both servers. */
const both = async (query: string): Promise<[Data, Data]> => [
  await ask(originalServer, query),
  await ask(c.server, query, KEYS.all),
];

const SESSION = `id createdAt updatedAt userRequest model localTime mentionedFiles workspaceRoot
  stepCount toolCallCount errorCount root { flavor environment }`;

async function allSessions(server: http.Server, key?: string): Promise<Data[]> {
  const out: Data[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Data = await ask(
      server,
      `{ sessions(first: 100${after ? `, after: "${after}"` : ''}) { pageInfo { hasNextPage endCursor } edges { node { ${SESSION} } } } }`,
      key,
    );
    out.push(...page.sessions.edges.map((e: Data) => e.node));
    if (!page.sessions.pageInfo.hasNextPage) return out;
    after = page.sessions.pageInfo.endCursor;
  }
}

beforeAll(async () => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-oracle-');
  home = path.join(dir, 'home');
  fs.cpSync(EXAMPLE_HOME, home, { recursive: true });
  buildActivitySessions(path.join(home, 'antigravity-ide', 'brain'));
  const r = rng(21);
  writeHome(path.join(dir, 'generated'), 60, new Corpus(1 << 20, r), r);
  fs.cpSync(
    path.join(dir, 'generated', 'antigravity-ide', 'brain'),
    path.join(home, 'antigravity-cli', 'brain'),
    { recursive: true },
  );
  original = await startAppOver(home, { CACHE_DIR: path.join(dir, 'cache-original') });
  originalServer = original.getHttpServer() as http.Server;
  fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'server-home'), {
    CACHE_DIR: path.join(dir, 'cache-collector'),
  });
  const run = await brainql(['push', '--url', c.url, '--json'], {
    GEMINI_HOME: home,
    CACHE_DIR: path.join(dir, 'client-cache'),
    BRAINQL_KEY: KEYS.ci,
  });
  expect([run.code, run.stderr]).toEqual([0, '']);
  for (const app of [original, c.app]) {
    await app.get(BrainStore).refresh();
    await app.get<HomeIndex>(HOME_INDEX).caughtUp();
  }
}, 300_000);
afterAll(async () => {
  await original?.close();
  await c?.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('pushed copy = originals', () => {
  it('every file arrives byte for byte', () => {
    let files = 0;
    for (const flavor of fs.readdirSync(home)) {
      const root = path.join(home, flavor, 'brain');
      for (const id of fs.readdirSync(root)) {
        if (!fs.existsSync(path.join(root, id, '.system_generated', 'logs'))) continue;
        for (const rel of filesUnder(path.join(root, id))) {
          const there = path.join(c.ingestDir, 'ci-runner', flavor, 'brain', id, rel);
          const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');
          expect([id, rel, sha(there)]).toEqual([id, rel, sha(path.join(root, id, rel))]);
          files++;
        }
      }
    }
    expect(files).toBeGreaterThan(100);
  });

  it('sessions: the same list in the same order, each with source "ci-runner"', async () => {
    const mine = await allSessions(originalServer);
    const theirs = await allSessions(c.server, KEYS.all);
    let dirs = 0;
    for (const flavor of fs.readdirSync(home))
      for (const id of fs.readdirSync(path.join(home, flavor, 'brain')))
        if (fs.existsSync(path.join(home, flavor, 'brain', id, '.system_generated', 'logs')))
          dirs++;
    expect(mine.length).toBe(dirs);
    expect(theirs).toEqual(mine);
    const sources = await ask(
      c.server,
      '{ sessions(first: 100) { edges { node { source } } } }',
      KEYS.all,
    );
    expect(new Set(sources.sessions.edges.map((e: Data) => e.node.source))).toEqual(
      new Set(['ci-runner']),
    );
  });

  it('steps and fileChanges of every session', async () => {
    const ids = (await allSessions(originalServer)).map((s) => s.id as string);
    for (const id of ids) {
      const q = `{ session(id: "${id}") {
        steps(first: 100) { totalCount edges { node { index position source type status createdAt content thinking error
          toolCalls { position name args } userRequest truncatedFields } } }
        fileChanges { path kind linesAdded linesRemoved complete diff }
        commands { commandLine exitCode } } }`;
      const [a, b] = await both(q);
      expect([id, b]).toEqual([id, a]);
    }
    // 140 queries one after another, each reading up to 100 steps with their diffs: about 16 s
    // alone, past jest's 60 s beside two busy loops. It compares answers, not their speed.
  }, 300_000);

  it('search, stats and secretExposures', async () => {
    for (const term of ['the', 'fix', 'error', 'README']) {
      const q = (order: string) =>
        `{ search(query: "${term}", first: 100, order: ${order}) { totalCount edges { node { session { id } field snippet } } } }`;
      const [a, b] = await both(q('NEWEST_FIRST'));
      expect([term, b]).toEqual([term, a]);
      // Equal ranks are ordered by when the index took them in, which differs between two
      // indexes of the same data: the same hits, compared as a set.
      const [r1, r2] = await both(q('RELEVANCE'));
      const hits = (d: Data) => d.search.edges.map((e: Data) => JSON.stringify(e.node)).sort();
      expect([term, r2.search.totalCount, hits(r2)]).toEqual([
        term,
        r1.search.totalCount,
        hits(r1),
      ]);
    }
    const [s1, s2] = await both(
      '{ stats { sessions steps toolCalls errors commands failedCommands fileChanges linesAdded linesRemoved byEnvironment { key count } byFlavor { key count } byModel { key count } byStatus { key count } byStepType { key count } } }',
    );
    expect(s2).toEqual(s1);
    expect(s1.stats.sessions).toBe(70); // 6 example + 4 activity + 60 generated
    const [x1, x2] = await both(
      '{ secretExposures(first: 100) { totalCount edges { node { session { id } count kinds findings { kind count } } } } }',
    );
    expect(x2).toEqual(x1);
    expect(x1.secretExposures.totalCount).toBeGreaterThan(0);
  });
});
