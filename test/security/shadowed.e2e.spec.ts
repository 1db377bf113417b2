import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { CTIME_SESSIONS, FIXTURE_IDS as I } from '../fixtures/brain-home';
import { REQUESTS } from '../fixtures/ids';
import {
  bearer,
  buildAttackWorld,
  postGql,
  raw,
  startApp,
  writeKeysFile,
  type AttackWorld,
} from './attack-setup';

/**
 * One id in several roots: the copy with the latest mtime wins for a caller who sees every
 * root, but a caller scoped to a losing copy's root gets that copy, not nothing.
 * twoRoots: the CLI copy wins (newer), the IDE copy loses. tieRoots: ACP wins, CLI loses.
 */

const IDE_KEY = 'bql_shadow-ide-only-0123456789abcdefghijklmnopqrstuvwxyzABCD';
const CLI_KEY = 'bql_shadow-cli-only-0123456789abcdefghijklmnopqrstuvwxyzABCD';
const ALL_KEY = 'bql_shadow-all-roots-0123456789abcdefghijklmnopqrstuvwxyzABC';

describe('the same id in several roots, for scoped keys', () => {
  let world: AttackWorld;
  let app: INestApplication;
  let server: http.Server;

  beforeAll(async () => {
    world = buildAttackWorld();
    const keysFile = path.join(world.fx.dir, 'shadow-keys.json');
    writeKeysFile(keysFile, [
      { name: 'ide', sha256: hashKey(IDE_KEY).toString('hex'), flavors: ['antigravity-ide'] },
      { name: 'cli', sha256: hashKey(CLI_KEY).toString('hex'), flavors: ['antigravity-cli'] },
      { name: 'all', sha256: hashKey(ALL_KEY).toString('hex') },
    ]);
    app = await startApp({ ...world, keysFile });
    server = app.getHttpServer() as http.Server;
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(world.fx.dir, { recursive: true, force: true });
  });

  const data = async (key: string, query: string) => {
    const res = await postGql(server, query, bearer(key));
    const body = JSON.parse(res.text);
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const lookup = (id: string) => `{ session(id: "${id}") { id userRequest root { environment } } }`;

  it('gives the winner to a key that sees every root', async () => {
    expect((await data(ALL_KEY, lookup(I.twoRoots))).session).toEqual({
      id: I.twoRoots,
      userRequest: REQUESTS.twoRoots,
      root: { environment: 'CLI' },
    });
  });

  it('gives a key scoped to a losing root its own copy, by id, by prefix and in listings', async () => {
    const ideCopy = {
      id: I.twoRoots,
      userRequest: REQUESTS.twoRootsLoser,
      root: { environment: 'IDE' },
    };
    expect((await data(IDE_KEY, lookup(I.twoRoots))).session).toEqual(ideCopy);
    expect((await data(IDE_KEY, lookup(I.twoRoots.slice(0, 8)))).session).toEqual(ideCopy);
    const cliCopy = {
      id: I.tieRoots,
      userRequest: REQUESTS.tieRootsLoser,
      root: { environment: 'CLI' },
    };
    expect((await data(CLI_KEY, lookup(I.tieRoots))).session).toEqual(cliCopy);

    const listed = await data(
      IDE_KEY,
      '{ sessions(first: 100) { totalCount edges { node { id } } } }',
    );
    const ids = listed.sessions.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(ids).toContain(I.twoRoots);
    expect(listed.sessions.totalCount).toBe(ids.length);
    const roots = await data(IDE_KEY, '{ roots { flavor sessionCount } }');
    expect(roots.roots).toEqual([{ flavor: 'antigravity-ide', sessionCount: ids.length }]);
  });

  it('lets a key that sees every root reach the shadowed copy by flavor: lookup, listing, search', async () => {
    const ideCopy = {
      id: I.twoRoots,
      userRequest: REQUESTS.twoRootsLoser,
      root: { environment: 'IDE' },
    };
    const byFlavor = (flavor: string) =>
      `{ session(id: "${I.twoRoots}", flavor: "${flavor}") { id userRequest root { environment } } }`;
    expect((await data(ALL_KEY, byFlavor('antigravity-ide'))).session).toEqual(ideCopy);
    expect((await data(ALL_KEY, byFlavor('antigravity-cli'))).session).toEqual({
      id: I.twoRoots,
      userRequest: REQUESTS.twoRoots,
      root: { environment: 'CLI' },
    });
    expect((await data(ALL_KEY, byFlavor('nosuch'))).session).toBeNull();
    // A scoped key never reaches a root beyond its scope by naming it.
    expect((await data(CLI_KEY, byFlavor('antigravity-ide'))).session).toBeNull();

    const listed = async (key: string, filter: string) => {
      const d = await data(
        key,
        `{ sessions(first: 100, filter: ${filter}) { edges { node { id userRequest } } } }`,
      );
      return d.sessions.edges
        .map((e: { node: { id: string; userRequest: string } }) => e.node)
        .filter((n: { id: string }) => n.id === I.twoRoots);
    };
    const ideListed = [{ id: I.twoRoots, userRequest: REQUESTS.twoRootsLoser }];
    expect(await listed(ALL_KEY, '{ flavor: ["antigravity-ide"] }')).toEqual(ideListed);
    expect(await listed(ALL_KEY, '{ environment: [IDE] }')).toEqual(ideListed);
    expect(await listed(ALL_KEY, '{}')).toEqual([
      { id: I.twoRoots, userRequest: REQUESTS.twoRoots },
    ]);
    expect(await listed(CLI_KEY, '{ flavor: ["antigravity-ide"] }')).toEqual([]);

    const search = async (key: string, flavor: string) => {
      const d = await data(
        key,
        `{ search(query: "loses", filter: { sessions: { flavor: ["${flavor}"] } }, first: 10) { totalCount edges { node { field session { id root { flavor } } } } } }`,
      );
      return d.search.edges.map(
        (e: { node: { field: string; session: { id: string; root: { flavor: string } } } }) => [
          e.node.session.id,
          e.node.session.root.flavor,
          e.node.field,
        ],
      );
    };
    await app.get<HomeIndex>(HOME_INDEX).caughtUp();
    expect(await search(ALL_KEY, 'antigravity-ide')).toEqual([
      [I.twoRoots, 'antigravity-ide', 'USER_REQUEST'],
      [I.twoRoots, 'antigravity-ide', 'CONTENT'],
      [I.twoRoots, 'antigravity-ide', 'CONTENT'],
    ]);
    expect(await search(CLI_KEY, 'antigravity-ide')).toEqual([]);
  });

  it('filters on summaries of what a scoped key sees only: hidden sessions are never counted', async () => {
    const list = async (key: string, filter: object) => {
      const res = await postGql(
        server,
        'query($f: SessionFilter) { sessions(first: 100, filter: $f) { totalCount edges { node { id createdAt } } } }',
        bearer(key),
        { f: filter },
      );
      const body = JSON.parse(res.text);
      expect(body.errors).toBeUndefined();
      const c = body.data.sessions;
      return [c.totalCount, c.edges.map((e: { node: { id: string } }) => e.node.id)];
    };
    // pair (IDE) is the one session with errors, and the one Claude session.
    expect(await list(ALL_KEY, { hasErrors: true })).toEqual([1, [I.pair]]);
    expect(await list(CLI_KEY, { hasErrors: true })).toEqual([0, []]);
    expect(await list(CLI_KEY, { model: ['Claude Opus 4.5 (Thinking)'] })).toEqual([0, []]);
    // The CLI key's tieRoots is its own (losing) copy, updated 2026-05-02T00:00:02Z: the
    // winner's summary (ACP, updated 05-29) is neither counted nor used for the copy.
    const since = { updatedAfter: '2026-05-29T12:00:00Z' };
    // (Besides the two ctime-dated sessions, whose transcripts date from 2026-06-01.)
    const [total, ids] = await list(ALL_KEY, since);
    expect([total, ids.slice(2), [...ids.slice(0, 2)].sort()]).toEqual([
      4,
      [I.twoRoots, I.tieRoots],
      [...CTIME_SESSIONS].sort(),
    ]);
    expect(await list(CLI_KEY, since)).toEqual([1, [I.twoRoots]]);
    expect(await list(CLI_KEY, { updatedAfter: '2026-05-02T00:00:02Z', hasErrors: false })).toEqual(
      [3, [I.twoRoots, I.cliRun, I.tieRoots]],
    );
    expect(await list(CLI_KEY, { updatedAfter: '2026-05-02T00:00:02.001Z' })).toEqual([
      2,
      [I.twoRoots, I.cliRun],
    ]);
  });

  it('serves the scoped copy on the file route', async () => {
    const rel = '.system_generated/logs/transcript.jsonl';
    const res = await raw(server, {
      path: `/api/sessions/${I.twoRoots}/files/${rel}`,
      headers: bearer(IDE_KEY),
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(fs.readFileSync(path.join(world.fx.roots.ide, I.twoRoots, rel), 'utf8'));
  });

  it('picks the copy by ?flavor= on the file, raw-line and line routes; other parameters stay ignored', async () => {
    const rel = '.system_generated/logs/transcript.jsonl';
    const get = async (key: string, route: string) => {
      const res = await raw(server, {
        path: `/api/sessions/${I.twoRoots}${route}`,
        headers: bearer(key),
      });
      return [res.status, res.text];
    };
    const ide = fs.readFileSync(path.join(world.fx.roots.ide, I.twoRoots, rel), 'utf8');
    const cli = fs.readFileSync(path.join(world.fx.roots.cli, I.twoRoots, rel), 'utf8');
    expect(ide).not.toBe(cli);
    // The unscoped key gets the winner (CLI, newer folder) unless it names the IDE flavor.
    expect(await get(ALL_KEY, `/files/${rel}`)).toEqual([200, cli]);
    expect(await get(ALL_KEY, `/files/${rel}?flavor=antigravity-ide`)).toEqual([200, ide]);
    expect(await get(ALL_KEY, `/files/${rel}?flavor=antigravity-ide&download=1`)).toEqual([
      200,
      ide,
    ]);
    expect(await get(ALL_KEY, `/files/${rel}?flavor=antigravity-cli`)).toEqual([200, cli]);
    expect(await get(ALL_KEY, `/lines/1?file=${rel}&flavor=antigravity-ide`)).toEqual([
      200,
      ide.slice(0, ide.indexOf('\n')),
    ]);
    const notFound = JSON.stringify({
      error: { code: 'NOT_FOUND', message: 'No session matches this id.' },
    });
    // A flavor without this id, and a flavor the key may not read, look alike.
    expect(await get(ALL_KEY, `/files/${rel}?flavor=antigravity-acp`)).toEqual([404, notFound]);
    expect(await get(IDE_KEY, `/files/${rel}?flavor=antigravity-cli`)).toEqual([404, notFound]);
    expect(await get(ALL_KEY, `/files/${rel}?flavor=a&flavor=b`)).toEqual([
      400,
      JSON.stringify({
        error: { code: 'BAD_USER_INPUT', message: '"flavor" takes one value; got 2.' },
      }),
    ]);
  });
});
