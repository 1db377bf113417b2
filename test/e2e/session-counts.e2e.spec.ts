import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { ListedSession } from '../../src/brain/catalog';
import type { BrainStore } from '../../src/brain/store';
import { Loaders, type GqlContext } from '../../src/graphql/loaders';
import type { HomeIndex } from '../../src/index/home-index';
import { SessionCountsResolver } from '../../src/stats/session-counts.resolver';
import type { Data } from './harness';
import { ask, buildSearchHome, IDS, KEYS, startIndexedApp, type SearchHome } from './search-home';
import { buildStatsHome, STATS_IDS, STATS_KEYS, type StatsHome } from './stats-home';

/**
 * Session.failedCommandCount and Session.secretCount: the sessions table's columns, from the
 * home index. Exact values on the stats home (one failed command) and the search home (planted
 * secrets, REDACT on and off); a scoped key never reaches a hidden session's numbers; a page
 * costs one index call per kind, whatever its size.
 */

const ROWS = `query($f: SessionFilter) { sessions(first: 100, filter: $f) {
  edges { node { id failedCommandCount secretCount } } } }`;
const rows = async (server: http.Server, key?: string) => {
  const body = await ask(server, ROWS, {}, key);
  expect(body.errors).toBeUndefined();
  return (body.data.sessions.edges as Data[]).map((e) => [
    e.node.id,
    e.node.failedCommandCount,
    e.node.secretCount,
  ]);
};

describe('failedCommandCount (stats home)', () => {
  let sh: StatsHome;
  let app: INestApplication;
  let server: http.Server;
  beforeAll(async () => {
    sh = buildStatsHome();
    ({ app, server } = await startIndexedApp(sh, { API_KEYS_FILE: sh.keysFile }));
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(sh.dir, { recursive: true, force: true });
  });

  it('counts the commands whose exit code is neither null nor 0, as Session.commands says', async () => {
    expect(await rows(server, STATS_KEYS.all)).toEqual([
      [STATS_IDS.c, 0, 0],
      [STATS_IDS.b, 0, 0],
      [STATS_IDS.a, 1, 0],
    ]);
    // The oracle: the Activity list itself (full tier, no index).
    const body = await ask(
      server,
      `{ sessions { edges { node { id failedCommandCount commands { exitCode } } } } }`,
      {},
      STATS_KEYS.all,
    );
    for (const { node } of body.data.sessions.edges as Data[]) {
      const failed = (node.commands as Data[]).filter(
        (c) => c.exitCode !== null && c.exitCode !== 0,
      );
      expect([node.id, node.failedCommandCount]).toEqual([node.id, failed.length]);
    }
  });

  it('a scoped key sees the numbers of its own sessions only', async () => {
    expect(await rows(server, STATS_KEYS.ide)).toEqual([[STATS_IDS.a, 1, 0]]);
    const hidden = await ask(
      server,
      `query($id: String!) { session(id: $id) { failedCommandCount secretCount } }`,
      { id: STATS_IDS.b },
      STATS_KEYS.ide,
    );
    expect(hidden).toEqual({ data: { session: null } });
  });
});

describe.each(['on', 'off'] as const)('secretCount with REDACT=%s (search home)', (redact) => {
  let sh: SearchHome;
  let app: INestApplication;
  let server: http.Server;
  let index: HomeIndex;
  beforeAll(async () => {
    sh = buildSearchHome();
    ({ app, server, index } = await startIndexedApp(sh, {
      API_KEYS_FILE: sh.keysFile,
      REDACT: redact,
    }));
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(sh.dir, { recursive: true, force: true });
  });

  it('sums the findings of Session.secrets, masked or not', async () => {
    const all = await rows(server, KEYS.all);
    expect(all.map((r) => [r[0], r[2]]).sort()).toEqual([
      [IDS.ide, 0],
      [IDS.cli, 0],
      [IDS.acp, 4],
      [IDS.many, 1],
    ]);
    const body = await ask(
      server,
      `query($id: String!) { session(id: $id) { secretCount secrets { count } } }`,
      { id: IDS.acp },
      KEYS.all,
    );
    const s = body.data.session;
    expect(s.secretCount).toBe((s.secrets as Data[]).reduce((n, f) => n + (f.count as number), 0));
  });

  it('a scoped key never reaches a hidden session, nor its count', async () => {
    expect((await rows(server, KEYS.ide)).map((r) => [r[0], r[2]]).sort()).toEqual([
      [IDS.ide, 0],
      [IDS.many, 1],
    ]);
    const hidden = await ask(
      server,
      `query($id: String!) { session(id: $id) { secretCount } }`,
      { id: IDS.acp },
      KEYS.ide,
    );
    expect(hidden).toEqual({ data: { session: null } });
  });

  it("asks the index once for a whole page (no N+1), never for every session's stats", async () => {
    const counts = jest.spyOn(index, 'counts');
    const stats = jest.spyOn(index, 'stats');
    try {
      await ask(
        server,
        `{ sessions(first: 100) { edges { node { failedCommandCount secretCount } } } }`,
        {},
        KEYS.all,
      );
      expect([counts.mock.calls.length, stats.mock.calls.length]).toEqual([1, 0]);
      expect(counts.mock.calls[0][0]).toHaveLength(4);
    } finally {
      counts.mockRestore();
      stats.mockRestore();
    }
  });
});

describe('a session the index has not read yet', () => {
  it('answers null for both counts, not a 0 that would claim none', async () => {
    const index = { counts: () => [null] } as unknown as HomeIndex;
    const sut = new SessionCountsResolver(index);
    const s = { entry: { realDir: '/r/x' } } as unknown as ListedSession;
    // A request's loaders (the store is never asked: the counts come from the index).
    const ctx = { loaders: new Loaders({} as BrainStore) } as unknown as GqlContext;
    expect([await sut.failedCommandCount(s, ctx), await sut.secretCount(s, ctx)]).toEqual([
      null,
      null,
    ]);
  });
});
