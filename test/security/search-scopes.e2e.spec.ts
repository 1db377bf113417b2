import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import type { Data } from '../e2e/harness';
import {
  ask,
  buildSearchHome,
  IDS,
  KEYS,
  label,
  startIndexedApp,
  type SearchHome,
} from '../e2e/search-home';

/**
 * Keys scoped to one flavor never learn of hidden sessions through search, secrets or the
 * index status: no hit, count, candidate or exposure of them. ide: sessions `ide` and `many`;
 * acp: `acp` (the secrets); all: the four. REDACT=on.
 */

let sh: SearchHome;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  sh = buildSearchHome();
  ({ app, server } = await startIndexedApp(sh, { API_KEYS_FILE: sh.keysFile, REDACT: 'on' }));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

async function data(key: string, query: string, vars: Record<string, unknown> = {}) {
  const body = await ask(server, query, vars, key);
  expect(body.errors).toBeUndefined();
  return body.data;
}
const SEARCH = `query($q: String!, $f: SearchFilter) {
  search(query: $q, first: 100, order: NEWEST_FIRST, filter: $f) {
    totalCount edges { node { session { id } field step { index } artifact } } } }`;
async function hits(key: string, q: string, f?: object) {
  const { search } = await data(key, SEARCH, { q, f });
  return [search.totalCount, search.edges.map((e: Data) => label(e.node))];
}
const many = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${IDS.many} CONTENT ${from + i}`);

describe('search, secrets and index status for scoped keys', () => {
  it('search: hits and totals of visible sessions only', async () => {
    const ide = [`${IDS.ide} USER_REQUEST 0`, `${IDS.ide} CONTENT 0`, ...many(1, 20)];
    expect(await hits(KEYS.ide, 'zebrafish')).toEqual([22, ide]);
    expect(await hits(KEYS.acp, 'zebrafish')).toEqual([1, [`${IDS.acp} CONTENT 1`]]);
    expect((await hits(KEYS.all, 'zebrafish'))[0]).toBe(24);
    // The masked spans of hidden sessions stay hidden too.
    expect(await hits(KEYS.ide, 'REDACTED')).toEqual([1, [`${IDS.many} THINKING 21`]]);
    expect((await hits(KEYS.acp, 'REDACTED'))[0]).toBe(5);
    expect(await hits(KEYS.ide, 'capybara', { fields: ['ARTIFACT'] })).toEqual([
      1,
      [`${IDS.ide} ARTIFACT implementation_plan.md`],
    ]);
    expect(await hits(KEYS.acp, 'capybara')).toEqual([0, []]);
  });

  it('filter.session: a hidden id gives no hits, a prefix names visible candidates only', async () => {
    expect(await hits(KEYS.ide, 'zebrafish', { session: IDS.acp })).toEqual([0, []]);
    expect(await hits(KEYS.acp, 'zebrafish', { session: IDS.ide })).toEqual([0, []]);
    // `5eaf` is ambiguous among four sessions; for the ACP key it names one.
    expect(await hits(KEYS.acp, 'zebrafish', { session: '5eaf' })).toEqual([
      1,
      [`${IDS.acp} CONTENT 1`],
    ]);
    const body = await ask(server, SEARCH, { q: 'zebrafish', f: { session: '5eaf' } }, KEYS.ide);
    expect(body.errors?.map((e) => e.extensions)).toEqual([
      { code: 'AMBIGUOUS_SESSION_ID', candidates: [IDS.ide, IDS.many] },
    ]);
  });

  it('secretExposures and Session.secrets: only visible sessions', async () => {
    const EXPOSURES = `{ secretExposures { totalCount edges { node { session { id } count kinds } } } }`;
    const of = async (key: string) => {
      const { secretExposures: x } = await data(key, EXPOSURES);
      return [x.totalCount, x.edges.map((e: Data) => [e.node.session.id, e.node.count])];
    };
    expect(await of(KEYS.ide)).toEqual([1, [[IDS.many, 1]]]);
    expect(await of(KEYS.acp)).toEqual([1, [[IDS.acp, 4]]]);
    expect(await of(KEYS.all)).toEqual([
      2,
      [
        [IDS.acp, 4],
        [IDS.many, 1],
      ],
    ]);
    const secrets = `query($id: String!) { session(id: $id) { secrets { kind } } }`;
    expect(await data(KEYS.ide, secrets, { id: IDS.acp })).toEqual({ session: null });
    expect((await data(KEYS.acp, secrets, { id: IDS.acp })).session.secrets).toHaveLength(4);
  });

  it('indexStatus counts the visible sessions and their bytes', async () => {
    const STATUS = '{ indexStatus { state sessionsIndexed sessionsTotal bytesIndexed } }';
    const [ide, acp, all] = await Promise.all(
      [KEYS.ide, KEYS.acp, KEYS.all].map(async (k) => (await data(k, STATUS)).indexStatus),
    );
    expect([ide, acp, all].map((s) => [s.state, s.sessionsIndexed, s.sessionsTotal])).toEqual([
      ['READY', 2, 2],
      ['READY', 1, 1],
      ['READY', 4, 4],
    ]);
    // Transcript bytes read into the index: the compact files of the sessions counted.
    const size = (k: keyof SearchHome['dirs']) =>
      fs.statSync(path.join(sh.dirs[k], '.system_generated/logs/transcript.jsonl')).size;
    expect([ide.bytesIndexed, acp.bytesIndexed, all.bytesIndexed]).toEqual([
      size('ide') + size('many'),
      size('acp'),
      size('ide') + size('many') + size('acp') + size('cli'),
    ]);
  });
});
