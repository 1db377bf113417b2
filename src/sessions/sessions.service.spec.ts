import type { GraphQLError } from 'graphql';
import { Principal } from '../auth/principal';
import type { Catalog, ListedSession } from '../brain/catalog';
import { compareNewestFirst } from '../brain/catalog';
import type { BrainStore } from '../brain/store';
import type { BrainRoot as StoreRoot, SessionEntry } from '../brain/types';
import type { StoreSource } from '../config/brain-source';
import { SessionOrder } from '../graphql/enums';
import type { Loaders } from '../graphql/loaders';
import { Redactor } from '../redaction/redactor';
import { HomeIndexDouble } from '../../test/doubles/home-index';
import { SessionsService } from './sessions.service';

/** The listing rules over a catalog built in memory: order, cursors, scopes and filters. */

const ROOTS: Record<string, StoreRoot> = {
  ide: {
    path: '/h/antigravity-ide/brain',
    realPath: '/h/antigravity-ide/brain',
    flavor: 'antigravity-ide',
    environment: 'IDE',
  },
  acp: {
    path: '/h/antigravity-acp/brain',
    realPath: '/h/antigravity-acp/brain',
    flavor: 'antigravity-acp',
    environment: 'ACP',
  },
};

function listed(id: string, createdAt: string, root: keyof typeof ROOTS): ListedSession {
  const entry = {
    id,
    root: ROOTS[root],
    dir: `${ROOTS[root].path}/${id}`,
    realDir: `${ROOTS[root].path}/${id}`,
  };
  return { entry: entry as SessionEntry, createdAt: new Date(createdAt), key: id.toLowerCase() };
}

function catalogOf(sessions: ListedSession[]): Catalog {
  const newestFirst = [...sessions].sort(compareNewestFirst);
  return {
    roots: Object.values(ROOTS).map((root) => ({
      root,
      sessionCount: sessions.filter((s) => s.entry.root === root).length,
    })),
    newestFirst,
    byKey: new Map(newestFirst.map((s) => [s.key, s])),
    shadowed: [],
    withheld: [],
    scannedAt: 0,
  };
}

const SESSIONS = [
  listed('a1', '2026-06-01T10:00:00Z', 'ide'),
  listed('b2', '2026-06-03T10:00:00Z', 'acp'),
  listed('c3', '2026-06-02T10:00:00Z', 'ide'),
  listed('d4', '2026-06-02T10:00:00Z', 'acp'),
];
const REQUESTS: Record<string, string> = {
  a1: 'fix the login page',
  b2: 'deploy with password=hunter2hunter2',
  c3: 'write the LOGIN tests',
  d4: 'nothing',
};
/** Summary facts beyond the request: errorCount, model, updatedAt. */
const FACTS: Record<string, [number, string | null, string]> = {
  a1: [0, 'Gemini 3 Pro', '2026-06-05T00:00:00Z'],
  b2: [2, 'Claude Sonnet 4.5', '2026-06-04T00:00:00Z'],
  c3: [1, null, '2026-06-02T10:00:00Z'],
  d4: [0, 'gemini 3 pro', '2026-06-03T12:00:00.001Z'],
};
const GHP = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
/** Sessions whose summary fails to load. */
const BROKEN = new Set<string>();

function setup() {
  const store = { catalog: () => Promise.resolve(catalogOf(SESSIONS)) } as unknown as BrainStore;
  const source = { isExample: false } as StoreSource;
  const index = new HomeIndexDouble();
  // What the index has read: a1 and b2 called tools, c3 none; d4 is not indexed yet. Names as
  // the index keeps them with REDACT=on: a secret in one (`token=${GHP}`) masked.
  index.sessionTools.set('/h/antigravity-ide/brain/a1', ['run_command', 'view_file']);
  index.sessionTools.set('/h/antigravity-acp/brain/b2', [
    'Run_Command',
    'token=[REDACTED:github-token]',
  ]);
  index.sessionTools.set('/h/antigravity-ide/brain/c3', []);
  const sut = new SessionsService(
    store,
    source,
    new Redactor({ enabled: true, extraPatterns: [] }),
    index,
  );
  const loaders = {
    summary: {
      loadMany: (items: ListedSession[]) =>
        Promise.resolve(
          items.map((s) => {
            const id = s.entry.id;
            if (BROKEN.has(id)) return new Error(`unreadable ${id}`);
            const [errorCount, model, updatedAt] = FACTS[id];
            return { userRequest: REQUESTS[id], errorCount, model, updatedAt: new Date(updatedAt) };
          }),
        ),
    },
  } as unknown as Loaders;
  const ids = async (args: object, principal = Principal.anonymous) =>
    (await sut.list(args, loaders, principal)).edges.map((e) => e.node.entry.id);
  return { sut, loaders, ids, index };
}

describe('SessionsService.sessions', () => {
  it('lists newest first, ties by id, and pages with an opaque cursor', async () => {
    const { sut, loaders, ids } = setup();
    expect(await ids({})).toEqual(['b2', 'c3', 'd4', 'a1']);
    expect(await ids({ order: SessionOrder.OLDEST_FIRST })).toEqual(['a1', 'c3', 'd4', 'b2']);
    const page = await sut.list({ first: 2 }, loaders, Principal.anonymous);
    expect([page.totalCount, page.pageInfo.hasNextPage]).toEqual([4, true]);
    expect(await ids({ first: 2, after: page.pageInfo.endCursor })).toEqual(['d4', 'a1']);
  });

  it('shows a scoped principal only its roots, in totals too', async () => {
    const { sut, loaders, ids } = setup();
    const acp = new Principal('ci', new Set(['antigravity-acp']));
    expect(await ids({}, acp)).toEqual(['b2', 'd4']);
    expect((await sut.list({}, loaders, acp)).totalCount).toBe(2);
    expect((await sut.roots(acp)).map((r) => [r.flavor, r.sessionCount])).toEqual([
      ['antigravity-acp', 2],
    ]);
  });

  it('filters by environment, dates and the request text as the caller may see it', async () => {
    const { ids } = setup();
    expect(await ids({ filter: { environment: ['ACP'] } })).toEqual(['b2', 'd4']);
    expect(
      await ids({
        filter: {
          createdAfter: new Date('2026-06-02T10:00:00Z'),
          createdBefore: new Date('2026-06-03T10:00:00Z'),
        },
      }),
    ).toEqual(['c3', 'd4']);
    expect(await ids({ filter: { query: 'login' } })).toEqual(['c3', 'a1']);
    // A masked secret cannot be found by guessing it.
    expect(await ids({ filter: { query: 'hunter2' } })).toEqual([]);
  });

  it('filters by hasErrors, exact model names and updatedAfter (inclusive)', async () => {
    const { ids } = setup();
    expect(await ids({ filter: { hasErrors: true } })).toEqual(['b2', 'c3']);
    expect(await ids({ filter: { hasErrors: false } })).toEqual(['d4', 'a1']);
    expect(await ids({ filter: { hasErrors: null } })).toEqual(['b2', 'c3', 'd4', 'a1']);
    expect(await ids({ filter: { model: ['Gemini 3 Pro'] } })).toEqual(['a1']);
    expect(await ids({ filter: { model: ['gemini 3 pro', 'Claude Sonnet 4.5'] } })).toEqual([
      'b2',
      'd4',
    ]);
    expect(await ids({ filter: { model: ['Gemini'] } })).toEqual([]);
    // An empty list is no condition (like environment: []); a session without a model
    // matches no name.
    expect(await ids({ filter: { model: [] } })).toEqual(['b2', 'c3', 'd4', 'a1']);
    expect(await ids({ filter: { model: [''] } })).toEqual([]);
    expect(await ids({ filter: { updatedAfter: new Date('2026-06-04T00:00:00Z') } })).toEqual([
      'b2',
      'a1',
    ]);
    expect(await ids({ filter: { updatedAfter: new Date('2026-06-03T12:00:00.001Z') } })).toEqual([
      'b2',
      'd4',
      'a1',
    ]);
    expect(
      await ids({
        filter: { hasErrors: false, model: ['gemini 3 pro', 'Gemini 3 Pro'], environment: ['ACP'] },
      }),
    ).toEqual(['d4']);
    expect(await ids({ filter: { hasErrors: true, query: 'login' } })).toEqual(['c3']);
  });

  it('applies summary filters to what a scoped principal sees only', async () => {
    const { sut, loaders, ids } = setup();
    const ide = new Principal('ide', new Set(['antigravity-ide']));
    expect(await ids({ filter: { hasErrors: true } }, ide)).toEqual(['c3']);
    expect((await sut.list({ filter: { hasErrors: true } }, loaders, ide)).totalCount).toBe(1);
    expect(await ids({ filter: { model: ['Claude Sonnet 4.5'] } }, ide)).toEqual([]);
    // select(): the set search and secrets hand to the index.
    const chosen = await sut.select(ide, { model: ['Gemini 3 Pro', 'gemini 3 pro'] }, loaders);
    expect(chosen.map((s) => s.entry.id)).toEqual(['a1']);
    const oldest = await sut.select(ide, null, loaders, SessionOrder.OLDEST_FIRST);
    expect(oldest.map((s) => s.entry.id)).toEqual(['a1', 'c3']);
  });

  it('lets an unreadable summary meet no summary condition (query "" still matches all)', async () => {
    const { ids } = setup();
    BROKEN.add('c3');
    try {
      expect(await ids({ filter: { hasErrors: true } })).toEqual(['b2']);
      expect(await ids({ filter: { hasErrors: false } })).toEqual(['d4', 'a1']);
      expect(await ids({ filter: { updatedAfter: new Date(0) } })).toEqual(['b2', 'd4', 'a1']);
      expect(await ids({ filter: { query: '' } })).toEqual(['b2', 'c3', 'd4', 'a1']);
    } finally {
      BROKEN.clear();
    }
  });

  it('compares model names as the caller sees them (masked)', async () => {
    const { ids } = setup();
    FACTS.d4[1] = 'token=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    try {
      expect(
        await ids({ filter: { model: ['token=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'] } }),
      ).toEqual([]);
    } finally {
      FACTS.d4[1] = 'gemini 3 pro';
    }
  });

  it('refuses bad arguments with BAD_USER_INPUT naming what is accepted', async () => {
    const { ids } = setup();
    const codeAndMessage = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: GraphQLError) => [e.extensions.code, e.message],
      );
    expect(await codeAndMessage(ids({ first: 101 }))).toEqual([
      'BAD_USER_INPUT',
      '"first" must be an integer from 1 to 100',
    ]);
    expect(await codeAndMessage(ids({ after: 'bogus' }))).toEqual([
      'BAD_USER_INPUT',
      '"after" is not a cursor of this list: pass an endCursor or edge cursor from it',
    ]);
    expect(await codeAndMessage(ids({ filter: { createdAfter: new Date('nope') } }))).toEqual([
      'BAD_USER_INPUT',
      '"createdAfter" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z',
    ]);
    expect(await codeAndMessage(ids({ filter: { updatedAfter: new Date('nope') } }))).toEqual([
      'BAD_USER_INPUT',
      '"updatedAfter" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z',
    ]);
  });
});

describe('SessionFilter.tool', () => {
  it('keeps the sessions that called any of the tools, in any case, from one index call', async () => {
    const { ids, index } = setup();
    expect(await ids({ filter: { tool: ['RUN_COMMAND'] } })).toEqual(['b2', 'a1']);
    expect(await ids({ filter: { tool: ['view_file', 'nope'] } })).toEqual(['a1']);
    expect(
      await ids({ filter: { tool: ['view_file'] }, order: SessionOrder.OLDEST_FIRST }),
    ).toEqual(['a1']);
    // Every candidate in one call, after the cheap conditions (here: environment).
    index.calls.length = 0;
    expect(await ids({ filter: { tool: ['run_command'], environment: ['ACP'] } })).toEqual(['b2']);
    expect(index.argsOf('tools')).toEqual([
      [['/h/antigravity-acp/brain/b2', '/h/antigravity-acp/brain/d4']],
    ]);
    // An empty list is no condition; a session the index has not read (d4) matches no tool.
    expect(await ids({ filter: { tool: [] } })).toEqual(['b2', 'c3', 'd4', 'a1']);
  });

  it('combines with summary conditions and a scope', async () => {
    const { ids } = setup();
    expect(await ids({ filter: { tool: ['run_command'], hasErrors: true } })).toEqual(['b2']);
    expect(await ids({ filter: { tool: ['run_command'], model: ['gemini 3 pro'] } })).toEqual([]);
    const ide = new Principal('ide', new Set(['antigravity-ide']));
    expect(await ids({ filter: { tool: ['run_command'] } }, ide)).toEqual(['a1']);
  });

  it('compares tool names as the caller sees them (masked)', async () => {
    const { ids } = setup();
    expect(await ids({ filter: { tool: [`token=${GHP}`] } })).toEqual([]);
    expect(await ids({ filter: { tool: ['token=[REDACTED:github-token]'] } })).toEqual(['b2']);
  });

  it('refuses more than 20 names, or a name of 0 or more than 200 characters', async () => {
    const { ids } = setup();
    const fail = (tool: string[]) =>
      ids({ filter: { tool } }).then(
        () => null,
        (e: GraphQLError) => [e.extensions.code, e.extensions.argument, e.message],
      );
    const accepted = '"tool" takes 1 to 20 tool names of 1 to 200 characters each';
    expect(await fail(Array.from({ length: 21 }, (_, i) => `t${i}`))).toEqual([
      'BAD_USER_INPUT',
      'tool',
      `${accepted}; got 21 names`,
    ]);
    expect(await fail(['run_command', ''])).toEqual([
      'BAD_USER_INPUT',
      'tool',
      `${accepted}; got a name of 0 characters`,
    ]);
    expect(await fail(['x'.repeat(201)])).toEqual([
      'BAD_USER_INPUT',
      'tool',
      `${accepted}; got a name of 201 characters`,
    ]);
    expect(
      await ids({ filter: { tool: Array.from({ length: 20 }, () => 'x'.repeat(200)) } }),
    ).toEqual([]);
  });
});
