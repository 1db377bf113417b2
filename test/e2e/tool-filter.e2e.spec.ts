import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import supertest from 'supertest';
import { BrainStore } from '../../src/brain/store';
import type { HomeIndex } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import type { Data } from './harness';
import { ask, startIndexedApp } from './search-home';
import { buildStatsHome, STATS_IDS, STATS_KEYS, type StatsHome } from './stats-home';

/**
 * SessionFilter.tool (issue 20) over the stats home (stats-home.ts: a calls run_command,
 * write_to_file, replace_file_content and view_file; b and c run_command) plus d, a CLI session
 * that alone calls search_web, and e, written once the index was paused: listed, not indexed.
 */

const D = '5a7a0000-0000-4000-8000-00000000000d';
const E = '5a7a0000-0000-4000-8000-00000000000e';

let sh: StatsHome;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  sh = buildStatsHome();
  const base = '2026-07-09T08:00:00Z';
  writeSession(path.join(sh.home, 'antigravity-cli', 'brain'), D, [
    userInput(0, at(base, 0), { request: 'Look it up', localTime: at(base, 0) }),
    planner(1, at(base, 1), { tool_calls: [{ name: 'search_web', args: { query: 'x' } }] }),
    toolResult(2, at(base, 2), 'found'),
  ]);
  let index: HomeIndex;
  ({ app, server, index } = await startIndexedApp(sh, { API_KEYS_FILE: sh.keysFile }));
  // Whatever appears from now on is listed but not read by the index (BUILDING).
  await (index as SqliteHomeIndex).pause();
  const later = '2026-07-10T08:00:00Z';
  writeSession(path.join(sh.home, 'antigravity-ide', 'brain'), E, [
    userInput(0, at(later, 0), { request: 'Read it', localTime: at(later, 0) }),
    planner(1, at(later, 1), { tool_calls: [{ name: 'view_file', args: { AbsolutePath: '/w' } }] }),
    toolResult(2, at(later, 2), 'text'),
  ]);
  await app.get(BrainStore).refresh();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

const SESSIONS = `query($f: SessionFilter) { sessions(first: 100, filter: $f) {
  totalCount edges { node { id } } } }`;

async function ids(filter: unknown, key = STATS_KEYS.all): Promise<[number, string[]]> {
  const body = await ask(server, SESSIONS, { f: filter }, key);
  expect(body.errors).toBeUndefined();
  const s = body.data.sessions;
  return [s.totalCount, (s.edges as Data[]).map((e) => e.node.id as string)];
}

const { a, b, c } = STATS_IDS;

describe('sessions(filter: {tool})', () => {
  it('lists the sessions that called any of the tools, newest first, in any case', async () => {
    expect(await ids({ tool: ['run_command'] })).toEqual([3, [c, b, a]]);
    expect(await ids({ tool: ['RUN_Command'] })).toEqual([3, [c, b, a]]);
    expect(await ids({ tool: ['view_file', 'search_web'] })).toEqual([2, [D, a]]);
    expect(await ids({ tool: ['no_such_tool'] })).toEqual([0, []]);
    // An empty list is no condition.
    expect(await ids({ tool: [] })).toEqual([5, [c, E, D, b, a]]);
  });

  it('combines with the other conditions (all must hold)', async () => {
    expect(await ids({ tool: ['run_command'], environment: ['CLI', 'ACP'] })).toEqual([2, [c, b]]);
    expect(await ids({ tool: ['run_command', 'search_web'], hasErrors: false })).toEqual([
      3,
      [c, D, b],
    ]);
    expect(await ids({ tool: ['search_web'], createdBefore: '2026-07-09T00:00:00Z' })).toEqual([
      0,
      [],
    ]);
  });

  it('leaves out a session the index has not read yet (e calls view_file)', async () => {
    expect((await ids({ flavor: ['antigravity-ide'] }))[1]).toEqual([E, a]);
    expect(await ids({ tool: ['view_file'] })).toEqual([1, [a]]);
    const status = await ask(server, '{ indexStatus { state } }', {}, STATS_KEYS.all);
    expect(status.data).toEqual({ indexStatus: { state: 'BUILDING' } });
  });

  it('a key scoped to one flavor never learns of a tool used only in a hidden root', async () => {
    expect(await ids({ tool: ['search_web'] }, STATS_KEYS.ide)).toEqual([0, []]);
    expect(await ids({ tool: ['run_command'] }, STATS_KEYS.ide)).toEqual([1, [a]]);
    const body = await ask(
      server,
      `{ stats(filter: {tool: ["search_web"]}) { sessions toolCalls byTool { name } } }`,
      {},
      STATS_KEYS.ide,
    );
    expect(body).toEqual({ data: { stats: { sessions: 0, toolCalls: 0, byTool: [] } } });
  });

  it('refuses more than 20 names or a name outside 1 to 200 characters, saying so', async () => {
    const accepted = '"tool" takes 1 to 20 tool names of 1 to 200 characters each';
    const refused = async (tool: string[]) => {
      const body = await ask(server, SESSIONS, { f: { tool } }, STATS_KEYS.all);
      return body.errors?.map((e) => [e.extensions?.code, e.message]);
    };
    expect(await refused(Array.from({ length: 21 }, (_, i) => `t${i}`))).toEqual([
      ['BAD_USER_INPUT', `${accepted}; got 21 names`],
    ]);
    expect(await refused([''])).toEqual([
      ['BAD_USER_INPUT', `${accepted}; got a name of 0 characters`],
    ]);
    expect(await refused(['run_command', 'x'.repeat(201)])).toEqual([
      ['BAD_USER_INPUT', `${accepted}; got a name of 201 characters`],
    ]);
  });
});

describe('every field that takes a SessionFilter honours tool', () => {
  it('stats counts the selected sessions only', async () => {
    const body = await ask(
      server,
      `{ stats(filter: {tool: ["view_file"]}) { sessions steps byTool { name calls } } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.data.stats).toEqual({
      sessions: 1,
      steps: 9,
      byTool: [
        { name: 'replace_file_content', calls: 1 },
        { name: 'run_command', calls: 1 },
        { name: 'view_file', calls: 1 },
        { name: 'write_to_file', calls: 1 },
      ],
    });
  });

  it("search's sessions filter keeps hits in those sessions", async () => {
    const body = await ask(
      server,
      `{ search(query: "run_command", filter: {fields: [TOOL_CALLS], sessions: {tool: ["view_file"]}}) {
        totalCount edges { node { session { id } step { index } } } } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.data.search).toEqual({
      totalCount: 1,
      edges: [{ node: { session: { id: a }, step: { index: 1 } } }],
    });
  });

  it('secretExposures refuses bad names as the listing does', async () => {
    const body = await ask(
      server,
      `{ secretExposures(filter: {tool: [""]}) { totalCount } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.errors?.map((e) => e.message)).toEqual([
      '"tool" takes 1 to 20 tool names of 1 to 200 characters each; got a name of 0 characters',
    ]);
  });
});

describe('REST: ?tool=', () => {
  const get = (url: string, key = STATS_KEYS.all) =>
    supertest(server).get(url).set('Authorization', `Bearer ${key}`);
  const listed = (res: { body: Data }) => [
    res.body.totalCount,
    (res.body.items as Data[]).map((s) => s.id as string),
  ];

  it('is repeatable or comma-separated, on /api/sessions, /api/stats and /api/search', async () => {
    expect(listed(await get('/api/sessions?tool=view_file&tool=SEARCH_WEB'))).toEqual([2, [D, a]]);
    expect(listed(await get('/api/sessions?tool=view_file,search_web&environment=cli'))).toEqual([
      1,
      [D],
    ]);
    expect((await get('/api/stats?tool=run_command')).body.sessions).toBe(3);
    const hits = await get('/api/search?q=run_command&field=TOOL_CALLS&tool=view_file');
    expect(hits.body.items.map((h: Data) => h.session.id)).toEqual([a]);
    expect(listed(await get('/api/sessions?tool=search_web', STATS_KEYS.ide))).toEqual([0, []]);
  });

  it('refuses too many names with 400 and what is accepted', async () => {
    const res = await get(
      `/api/sessions?tool=${Array.from({ length: 21 }, (_, i) => i).join(',')}`,
    );
    expect([res.status, res.body]).toEqual([
      400,
      {
        error: {
          code: 'BAD_USER_INPUT',
          message: '"tool" takes 1 to 20 tool names of 1 to 200 characters each; got 21 names',
        },
      },
    ]);
  });
});
