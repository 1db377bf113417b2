import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import supertest from 'supertest';
import { at, planner, toolResult, userInput } from '../fixtures/records';
import { writeSession } from '../index/index-home';
import type { Data } from './harness';
import { ask, startIndexedApp } from './search-home';
import { buildStatsHome, STATS_IDS, STATS_KEYS, type StatsHome } from './stats-home';

/**
 * SessionFilter.hourOfWeek (issue 20: a dashboard heatmap cell opens its sessions) over the
 * stats home (stats-home.ts): a starts Monday 23:59 UTC (hour 23) and its steps cross into
 * Tuesday 00:00 (hour 24), two of them without a valid created_at (at a's createdAt, hour 23);
 * b is Wednesday 10:00 (58), c Saturday 12:00 (132). d, a CLI session, is Thursday 08:00 (80).
 */

const D = '5a7a0000-0000-4000-8000-00000000000d';

let sh: StatsHome;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  sh = buildStatsHome();
  const base = '2026-07-09T08:00:00Z';
  writeSession(path.join(sh.home, 'antigravity-cli', 'brain'), D, [
    userInput(0, at(base, 0), { request: 'Look it up', localTime: at(base, 0) }),
    planner(1, at(base, 1), { content: 'found' }),
    toolResult(2, at(base, 2), 'found'),
  ]);
  ({ app, server } = await startIndexedApp(sh, { API_KEYS_FILE: sh.keysFile }));
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
const ACCEPTED =
  '"hourOfWeek" takes 1 to 168 hours of the week (UTC), each an integer from 0 (Monday 00:00) to 167 (Sunday 23:00)';

describe('sessions(filter: {hourOfWeek})', () => {
  it('lists the sessions with a step in any of those hours, newest first', async () => {
    expect(await ids({ hourOfWeek: [23] })).toEqual([1, [a]]);
    // Only a's steps after midnight are on Tuesday.
    expect(await ids({ hourOfWeek: [24] })).toEqual([1, [a]]);
    expect(await ids({ hourOfWeek: [58, 132] })).toEqual([2, [c, b]]);
    expect(await ids({ hourOfWeek: [80, 0, 167] })).toEqual([1, [D]]);
    expect(await ids({ hourOfWeek: [25, 59, 131, 133] })).toEqual([0, []]);
    // An empty list is no condition.
    expect(await ids({ hourOfWeek: [] })).toEqual([4, [c, D, b, a]]);
  });

  it('combines with the other conditions (all must hold)', async () => {
    expect(await ids({ hourOfWeek: [23, 58, 80], environment: ['CLI'] })).toEqual([2, [D, b]]);
    expect(await ids({ hourOfWeek: [23, 58], hasErrors: true })).toEqual([1, [a]]);
  });

  it('a key scoped to one flavor sees nothing from hidden roots', async () => {
    expect(await ids({ hourOfWeek: [58, 80, 132] }, STATS_KEYS.ide)).toEqual([0, []]);
    expect(await ids({ hourOfWeek: [24, 58] }, STATS_KEYS.ide)).toEqual([1, [a]]);
    const body = await ask(
      server,
      `{ stats(filter: {hourOfWeek: [58, 80, 132]}) { sessions steps timeline(bucket: HOUR) { start } } }`,
      {},
      STATS_KEYS.ide,
    );
    expect(body).toEqual({ data: { stats: { sessions: 0, steps: 0, timeline: [] } } });
  });

  it('refuses an hour outside 0 to 167 or more than 168 hours, saying what is accepted', async () => {
    const refused = async (hourOfWeek: number[]) => {
      const body = await ask(server, SESSIONS, { f: { hourOfWeek } }, STATS_KEYS.all);
      return body.errors?.map((e) => [e.extensions?.code, e.message]);
    };
    expect(await refused([168])).toEqual([['BAD_USER_INPUT', `${ACCEPTED}; got 168`]]);
    expect(await refused([3, -1])).toEqual([['BAD_USER_INPUT', `${ACCEPTED}; got -1`]]);
    expect(await refused(Array.from({ length: 169 }, (_, i) => i % 168))).toEqual([
      ['BAD_USER_INPUT', `${ACCEPTED}; got 169 hours`],
    ]);
  });
});

describe('every field that takes a SessionFilter honours hourOfWeek', () => {
  it('stats counts the selected sessions only (all their steps)', async () => {
    const body = await ask(
      server,
      `{ stats(filter: {hourOfWeek: [24]}) { sessions steps } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.data.stats).toEqual({ sessions: 1, steps: 9 });
  });

  it("search's sessions filter keeps hits in those sessions", async () => {
    const body = await ask(
      server,
      `{ search(query: "run_command", filter: {fields: [TOOL_CALLS], sessions: {hourOfWeek: [58]}}) {
        totalCount edges { node { session { id } step { index } } } } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.data.search).toEqual({
      totalCount: 1,
      edges: [{ node: { session: { id: b }, step: { index: 1 } } }],
    });
  });

  it('secretExposures refuses a bad hour as the listing does', async () => {
    const body = await ask(
      server,
      `{ secretExposures(filter: {hourOfWeek: [200]}) { totalCount } }`,
      {},
      STATS_KEYS.all,
    );
    expect(body.errors?.map((e) => e.message)).toEqual([`${ACCEPTED}; got 200`]);
  });
});

describe('REST: ?hourOfWeek=', () => {
  const get = (url: string, key = STATS_KEYS.all) =>
    supertest(server).get(url).set('Authorization', `Bearer ${key}`);
  const listed = (res: { body: Data }) => [
    res.body.totalCount,
    (res.body.items as Data[]).map((s) => s.id as string),
  ];

  it('is repeatable or comma-separated, on /api/sessions, /api/stats and /api/search', async () => {
    expect(listed(await get('/api/sessions?hourOfWeek=58&hourOfWeek=132'))).toEqual([2, [c, b]]);
    expect(listed(await get('/api/sessions?hourOfWeek=23,80&environment=cli'))).toEqual([1, [D]]);
    expect((await get('/api/stats?hourOfWeek=23,24')).body.sessions).toBe(1);
    const hits = await get('/api/search?q=run_command&field=TOOL_CALLS&hourOfWeek=132');
    expect(hits.body.items.map((h: Data) => h.session.id)).toEqual([c]);
    expect(listed(await get('/api/sessions?hourOfWeek=58', STATS_KEYS.ide))).toEqual([0, []]);
  });

  it('refuses a value that is no integer, or out of range, with 400 and what is accepted', async () => {
    const res = await get('/api/sessions?hourOfWeek=mon');
    expect([res.status, res.body]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: '"hourOfWeek" takes integers; got "mon".' } },
    ]);
    const out = await get('/api/sessions?hourOfWeek=168');
    expect([out.status, out.body]).toEqual([
      400,
      { error: { code: 'BAD_USER_INPUT', message: `${ACCEPTED}; got 168` } },
    ]);
  });
});
