import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLI_RUN_LOCAL_TIME,
  CTIME_SESSIONS,
  EXPECTED_SESSION_COUNTS,
  FIXTURE_FACTS,
  FIXTURE_IDS as I,
  FIXTURE_MTIME_MS,
  GEMINI,
  PAIR_FACTS,
  REAL_FACTS,
  REQUESTS,
} from '../fixtures/brain-home';
import * as ref from '../fixtures/reference';
import { CHUNKS_REQUEST } from '../fixtures/session-lines';
import { simpleSession } from '../fixtures/session-misc';
import {
  allNewestFirst,
  allOldestFirst,
  createdAtOf,
  undatedCreatedAtOf,
  Data,
  pageAll,
  useE2E,
} from './harness';

const SESSION_FIELDS = `id createdAt updatedAt userRequest model localTime mentionedFiles
  workspaceRoot stepCount toolCallCount errorCount
  root { path flavor environment sessionCount isExample }`;
const MTIME = new Date(FIXTURE_MTIME_MS).toISOString();
const ENV: Record<string, string> = {
  'antigravity-ide': 'IDE',
  'antigravity-cli': 'CLI',
  'antigravity-acp': 'ACP',
  jetski: 'OTHER',
};

/** createdAt of twoRoots' IDE copy, which loses to its CLI copy (BASES.twoRootsLoser). */
const IDE_COPY_AT = '2026-05-01T00:00:00.000Z';

describe('sessions (e2e)', () => {
  const e = useE2E();
  const rootPath = (flavor: string): string =>
    flavor === 'jetski' ? e.fx.extraRoot : path.join(e.fx.home, flavor, 'brain');
  const rootOf = (flavor: string) => ({
    path: rootPath(flavor),
    flavor,
    environment: ENV[flavor],
    sessionCount:
      EXPECTED_SESSION_COUNTS[flavor as keyof typeof EXPECTED_SESSION_COUNTS] +
      (flavor === 'antigravity-ide' ? Object.keys(REAL_FACTS).length : 0) +
      // Every copy a root holds: twoRoots' IDE copy and tieRoots' CLI copy are shadowed.
      (flavor === 'antigravity-ide' || flavor === 'antigravity-cli' ? 1 : 0),
    isExample: false,
  });

  it('lists every root with its flavor, environment and session count', async () => {
    const d = await e.data('{ roots { path flavor environment sessionCount isExample } }');
    const byPath = [...d.roots].sort((a: Data, b: Data) => (a.path < b.path ? -1 : 1));
    expect(byPath).toEqual(
      ['jetski', 'antigravity-acp', 'antigravity-cli', 'antigravity-ide']
        .map(rootOf)
        .sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
  });

  it('counts in each root what the listing by its flavor lists, shadowed copies included', async () => {
    const d = await e.data('{ roots { flavor sessionCount } }');
    const counts: Record<string, [number, number]> = {};
    for (const r of d.roots as { flavor: string; sessionCount: number }[]) {
      const listed = await e.data(
        `{ sessions(first: 1, filter: { flavor: ["${r.flavor}"] }) { totalCount } }`,
      );
      counts[r.flavor] = [r.sessionCount, listed.sessions.totalCount];
    }
    expect(counts).toEqual({
      'antigravity-ide': [25, 25],
      'antigravity-cli': [3, 3],
      'antigravity-acp': [2, 2],
      jetski: [1, 1],
    });
  });

  it('REST reaches a shadowed copy with flavor, as session(id:, flavor:) does', async () => {
    const get = async (p: string) => {
      const res = await e.rawGet(p);
      return [res.status, JSON.parse(res.body.toString('utf8'))] as [number, Data];
    };
    const [status, ide] = await get(`/api/sessions/${I.twoRoots}?flavor=antigravity-ide`);
    expect([status, ide.createdAt, ide.root.flavor]).toEqual([200, IDE_COPY_AT, 'antigravity-ide']);
    const [, winner] = await get(`/api/sessions/${I.twoRoots}`);
    expect(winner.root.flavor).toBe('antigravity-cli');
    const [stepsStatus, steps] = await get(
      `/api/sessions/${I.twoRoots}/steps?flavor=antigravity-ide&first=1`,
    );
    const [, gql] = [
      0,
      await e.data(
        `{ session(id: "${I.twoRoots}", flavor: "antigravity-ide") { steps(first: 1) { totalCount } } }`,
      ),
    ];
    expect([stepsStatus, steps.totalCount]).toEqual([200, gql.session.steps.totalCount]);
    const [secretsStatus] = await get(`/api/sessions/${I.twoRoots}/secrets?flavor=antigravity-ide`);
    expect(secretsStatus).toBe(200);
    const [badStatus, bad] = await get(`/api/sessions/${I.twoRoots}/secrets?flavour=x`);
    expect([badStatus, bad]).toEqual([
      400,
      {
        error: {
          code: 'BAD_USER_INPUT',
          message: 'Unknown parameter "flavour"; this route accepts: flavor.',
        },
      },
    ]);
  });

  it('lists all sessions newest first in one page, with the contract totals', async () => {
    const d = await e.data(
      `{ sessions(first: 100) { totalCount edges { cursor node { id } }
         pageInfo { hasNextPage endCursor } } }`,
    );
    const ids = d.sessions.edges.map((x: Data) => x.node.id);
    expect(ids).toEqual(allNewestFirst(e.fx));
    expect(d.sessions.totalCount).toBe(29);
    expect(d.sessions.pageInfo).toEqual({
      hasNextPage: false,
      endCursor: d.sessions.edges[28].cursor,
    });
    // Not listed: the escaped session, the losing copies' own ids never appear twice,
    // directories without logs.
    for (const id of [I.escapedSession, I.noLogs, I.emptyLogs, I.bigLine]) {
      expect(ids).not.toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('defaults to 20 newest first', async () => {
    const d = await e.data(
      '{ sessions { totalCount edges { node { id } } pageInfo { hasNextPage } } }',
    );
    expect(d.sessions.edges.map((x: Data) => x.node.id)).toEqual(allNewestFirst(e.fx).slice(0, 20));
    expect(d.sessions.pageInfo.hasNextPage).toBe(true);
    expect(d.sessions.totalCount).toBe(29);
  });

  it('orders OLDEST_FIRST by createdAt ascending with ties by id ascending', async () => {
    const d = await e.data(
      '{ sessions(first: 100, order: OLDEST_FIRST) { edges { node { id createdAt } } } }',
    );
    const ids = d.sessions.edges.map((x: Data) => x.node.id);
    expect(ids).toEqual(allOldestFirst(e.fx));
    // The tie (noUserInput / fullOnly share createdAt) is by id ascending in both orders.
    const tie = [I.noUserInput, I.fullOnly];
    expect(ids.filter((id: string) => tie.includes(id as never))).toEqual(tie);
    // The undated pair shares its oldest file time (FIXTURE_MTIME_MS): id decides the tie.
    expect(ids.filter((id: string) => CTIME_SESSIONS.includes(id))).toEqual(
      [...CTIME_SESSIONS].sort(),
    );
  });

  it('shows every session field as the contract derives it (fixtures and real sessions)', async () => {
    const d = await e.data(`{ sessions(first: 100) { edges { node { ${SESSION_FIELDS} } } } }`);
    for (const { node } of d.sessions.edges) {
      const facts = FIXTURE_FACTS[node.id];
      const real = REAL_FACTS[node.id];
      expect({ id: node.id, createdAt: node.createdAt }).toEqual({
        id: node.id,
        createdAt: createdAtOf(e.fx, node.id),
      });
      if (facts) {
        expect([node.id, node.stepCount, node.userRequest, node.model]).toEqual([
          node.id,
          facts.stepCount,
          facts.userRequest,
          facts.model,
        ]);
        expect(node.root).toEqual(rootOf(facts.flavor));
      } else {
        // Real sessions: checked against the naive reference reader of the fixtures.
        const dir = e.dirOf(node.id);
        const recs = ref.records(ref.compactView(dir));
        const full = ref.records(ref.fullView(dir));
        const source = full.length ? full : recs;
        expect([node.id, node.stepCount, node.userRequest, node.model]).toEqual([
          node.id,
          real.stepCount,
          ref.userRequest(source),
          ref.model(source),
        ]);
        expect(node.root).toEqual(rootOf('antigravity-ide'));
      }
    }
  });

  it('derives the pair session facts: request, model, local time, mentions, workspace, counts', async () => {
    const d = await e.data(`query($id: String!) { session(id: $id) { ${SESSION_FIELDS} } }`, {
      id: I.pair,
    });
    expect(d.session).toEqual({
      id: I.pair,
      createdAt: '2026-05-28T09:00:00.000Z',
      updatedAt: PAIR_FACTS.updatedAt,
      userRequest: PAIR_FACTS.userRequest,
      model: PAIR_FACTS.model,
      localTime: PAIR_FACTS.localTime,
      mentionedFiles: PAIR_FACTS.mentionedFiles,
      workspaceRoot: PAIR_FACTS.workspaceRoot,
      stepCount: PAIR_FACTS.stepCount,
      toolCallCount: PAIR_FACTS.toolCallCount,
      errorCount: PAIR_FACTS.errorCount,
      root: rootOf('antigravity-ide'),
    });
  });

  const one = async (id: string): Promise<Data> =>
    (await e.data(`query($id: String!) { session(id: $id) { ${SESSION_FIELDS} } }`, { id }))
      .session;

  it('reads a truncated USER_INPUT through its full twin (chunksOnly)', async () => {
    expect(await one(I.chunksOnly)).toMatchObject({
      userRequest: CHUNKS_REQUEST,
      mentionedFiles: ['deep/file.ts'],
      localTime: '2026-05-27T11:00:00+02:00',
      model: GEMINI,
      updatedAt: '2026-05-27T09:00:04.000Z',
      stepCount: 5,
      toolCallCount: 1,
      errorCount: 0,
      workspaceRoot: null,
    });
  });

  it('takes createdAt from the first valid created_at and updatedAt from the latest', async () => {
    expect(await one(I.noCreatedAt)).toMatchObject({
      createdAt: '2026-05-19T12:00:00.000Z',
      updatedAt: '2026-05-19T12:30:00.000Z',
      localTime: '2026-05-31T18:15:58+01:00',
      model: null,
    });
    for (const id of CTIME_SESSIONS) {
      // No valid created_at: createdAt is the oldest file time, updatedAt the transcript mtime.
      expect(await one(id)).toMatchObject({
        createdAt: undatedCreatedAtOf(e.fx, id),
        updatedAt: MTIME,
      });
    }
    expect(await one(I.empty)).toMatchObject({
      stepCount: 0,
      userRequest: null,
      model: null,
      localTime: null,
      mentionedFiles: [],
      workspaceRoot: null,
      toolCallCount: 0,
      errorCount: 0,
    });
    expect(await one(I.noValidCreatedAt)).toMatchObject({
      stepCount: 3,
      userRequest: 'Nothing valid',
      localTime: '2026-05-31T18:15:58+01:00',
    });
  });

  it('handles sessions without USER_INPUT, with only a full file, or a single record', async () => {
    expect(await one(I.noUserInput)).toMatchObject({
      createdAt: '2026-05-21T10:00:00.000Z',
      updatedAt: '2026-05-21T10:00:01.000Z',
      userRequest: null,
      model: null,
      localTime: null,
      mentionedFiles: [],
      stepCount: 2,
    });
    expect(await one(I.fullOnly)).toMatchObject({
      userRequest: 'Only the full file',
      workspaceRoot: '/work/full',
      localTime: '2026-05-21T12:00:00+02:00',
      updatedAt: '2026-05-21T10:00:02.000Z',
      stepCount: 3,
      toolCallCount: 1,
    });
    expect(await one(I.freshOnly)).toMatchObject({
      createdAt: '2026-05-20T09:00:00.000Z',
      updatedAt: '2026-05-20T09:00:00.000Z',
      localTime: '2026-05-20T10:00:00+01:00',
      stepCount: 1,
    });
  });

  it('keeps fractional seconds of the local time and serves the other roots', async () => {
    expect(await one(I.cliRun)).toMatchObject({
      localTime: CLI_RUN_LOCAL_TIME,
      userRequest: REQUESTS.cliRun,
      root: rootOf('antigravity-cli'),
    });
    expect(await one(I.acpRun)).toMatchObject({
      userRequest: 'CI: generate tests',
      localTime: '2026-05-11T09:00:00Z',
      updatedAt: '2026-05-11T09:00:01.000Z',
      root: rootOf('antigravity-acp'),
    });
    expect(await one(I.jetskiRun)).toMatchObject({ root: rootOf('jetski') });
    expect(await one(I.linkInside)).toMatchObject({ userRequest: REQUESTS.linkInside });
  });

  it('picks the copy with the newer mtime, and on a tie the root whose path sorts first', async () => {
    expect(await one(I.twoRoots)).toMatchObject({
      userRequest: REQUESTS.twoRoots,
      createdAt: '2026-05-30T12:00:00.000Z',
      root: rootOf('antigravity-cli'),
    });
    expect(await one(I.tieRoots)).toMatchObject({
      userRequest: REQUESTS.tieRoots,
      root: rootOf('antigravity-acp'),
    });
  });

  describe('paging', () => {
    it('pages by 3 to the end in both orders; the pages concatenate to the full order', async () => {
      for (const [order, want] of [
        ['NEWEST_FIRST', allNewestFirst(e.fx)],
        ['OLDEST_FIRST', allOldestFirst(e.fx)],
      ] as const) {
        const { pages, totals } = await pageAll(e, 3, { order });
        expect(pages.flat()).toEqual(want);
        expect(pages.map((p) => p.length)).toEqual([...Array(9).fill(3), 2]);
        expect(totals).toEqual(Array(10).fill(29));
      }
    });

    it('pages through a filtered list and counts only matches', async () => {
      const filter = { environment: ['IDE'], createdBefore: '2026-05-22T09:00:00Z' };
      // The IDE filter takes twoRoots' IDE copy (created 05-01), shadowed by the CLI copy.
      const at = (id: string) => (id === I.twoRoots ? IDE_COPY_AT : createdAtOf(e.fx, id));
      const want = [
        ...allNewestFirst(e.fx).filter(
          (id) =>
            (FIXTURE_FACTS[id]?.flavor ?? 'antigravity-ide') === 'antigravity-ide' &&
            createdAtOf(e.fx, id) < '2026-05-22T09:00:00.000Z',
        ),
        I.twoRoots,
      ].sort((a, b) => at(b).localeCompare(at(a)) || (a < b ? -1 : 1));
      expect(want.length).toBe(13);
      const { pages, totals } = await pageAll(e, 4, { filter });
      expect(pages).toEqual([
        want.slice(0, 4),
        want.slice(4, 8),
        want.slice(8, 12),
        want.slice(12),
      ]);
      expect(totals).toEqual([13, 13, 13, 13]);
      const back = await pageAll(e, 4, { filter, order: 'OLDEST_FIRST' });
      expect(back.pages.flat()).toEqual(
        [...want].sort((a, b) => at(a).localeCompare(at(b)) || (a < b ? -1 : 1)),
      );
    });

    it('returns an empty last page after the final cursor', async () => {
      const all = await e.data('{ sessions(first: 100) { pageInfo { endCursor } } }');
      const d = await e.data(
        `query($after: String) { sessions(first: 5, after: $after) {
           totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
        { after: all.sessions.pageInfo.endCursor },
      );
      expect(d.sessions).toEqual({
        totalCount: 29,
        edges: [],
        pageInfo: { hasNextPage: false, endCursor: null },
      });
    });
  });

  describe('filters', () => {
    const ids = async (filter: Record<string, unknown>, order = 'NEWEST_FIRST') => {
      const d = await e.data(
        `query($f: SessionFilter, $o: SessionOrder) { sessions(first: 100, filter: $f, order: $o) {
           totalCount edges { node { id } } } }`,
        { f: filter, o: order },
      );
      const list = d.sessions.edges.map((x: Data) => x.node.id);
      expect(d.sessions.totalCount).toBe(list.length);
      return list;
    };
    const newest = (pred: (id: string) => boolean): string[] => allNewestFirst(e.fx).filter(pred);
    const flavorOf = (id: string): string => FIXTURE_FACTS[id]?.flavor ?? 'antigravity-ide';

    it('by environment (Data of)', async () => {
      // Each id's copy in the named roots: tieRoots' CLI copy (05-02) loses to ACP's, twoRoots'
      // IDE copy (05-01) to CLI's; a filter naming their roots reaches them.
      expect(await ids({ environment: ['CLI'] })).toEqual([I.twoRoots, I.cliRun, I.tieRoots]);
      expect(await ids({ environment: ['ACP'] })).toEqual([I.tieRoots, I.acpRun]);
      expect(await ids({ environment: ['OTHER'] })).toEqual([I.jetskiRun]);
      const at = (id: string) => (id === I.twoRoots ? IDE_COPY_AT : createdAtOf(e.fx, id));
      expect(await ids({ environment: ['IDE'] })).toEqual(
        [...newest((id) => flavorOf(id) === 'antigravity-ide'), I.twoRoots].sort(
          (a, b) => at(b).localeCompare(at(a)) || (a < b ? -1 : 1),
        ),
      );
      expect(await ids({ environment: ['CLI', 'OTHER'] })).toEqual([
        I.twoRoots,
        I.cliRun,
        I.jetskiRun,
        I.tieRoots,
      ]);
      expect(await ids({ environment: [] })).toEqual(allNewestFirst(e.fx));
    });

    it('by flavor (Data of, exact names)', async () => {
      expect(await ids({ flavor: ['jetski'] })).toEqual([I.jetskiRun]);
      expect(await ids({ flavor: ['antigravity-acp', 'antigravity-cli'] })).toEqual([
        I.twoRoots,
        I.tieRoots,
        I.acpRun,
        I.cliRun,
      ]);
      expect(await ids({ flavor: ['antigravity'] })).toEqual([]);
      expect(await ids({ flavor: ['ANTIGRAVITY-CLI'] })).toEqual([]);
    });

    it('by createdAfter (inclusive) and createdBefore (exclusive)', async () => {
      const tieAt = '2026-05-21T10:00:00.000Z';
      expect(await ids({ createdAfter: tieAt, createdBefore: '2026-05-22T09:00:00Z' })).toEqual([
        I.noUserInput,
        I.fullOnly,
      ]);
      expect(await ids({ createdBefore: tieAt })).toEqual(
        newest((id) => createdAtOf(e.fx, id) < tieAt),
      );
      expect(await ids({ createdAfter: tieAt }, 'OLDEST_FIRST')).toEqual(
        allOldestFirst(e.fx).filter((id) => createdAtOf(e.fx, id) >= tieAt),
      );
      // Offsets are instants: 12:00+02:00 is 10:00Z.
      expect(
        await ids({
          createdAfter: '2026-05-21T12:00:00+02:00',
          createdBefore: '2026-05-21T10:00:01Z',
        }),
      ).toEqual([I.noUserInput, I.fullOnly]);
      expect(
        await ids({ createdAfter: '2026-05-09T09:00:00Z', createdBefore: '2026-05-10T09:00:00Z' }),
      ).toEqual([I.jetskiRun]);
      expect(await ids({ createdAfter: '2027-01-01T00:00:00Z' })).toEqual([]);
    });

    it('by query: a case-insensitive substring of userRequest (full twin included)', async () => {
      expect(await ids({ query: 'PREFIX' })).toEqual([
        I.prefixA,
        I.prefixB,
        I.prefixExact,
        I.prefixLonger,
      ]);
      expect(await ids({ query: 'copy' })).toEqual([I.twoRoots, I.tieRoots]);
      // Only in the full twin of chunksOnly's truncated USER_INPUT.
      expect(await ids({ query: 'DEEP/File.ts' })).toEqual([I.chunksOnly]);
      expect(await ids({ query: 'conversation:"old chat"' })).toEqual([I.pair]);
      expect(await ids({ query: 'no such request anywhere' })).toEqual([]);
    });

    it('by hasErrors: errorCount > 0 (true) or == 0 (false)', async () => {
      const withErrors = ['240ff5ee-02e7-4b54-849e-917d5042eae3', I.pair];
      expect(await ids({ hasErrors: true })).toEqual(withErrors);
      expect(PAIR_FACTS.errorCount).toBe(2);
      expect(await ids({ hasErrors: false })).toEqual(newest((id) => !withErrors.includes(id)));
      expect(await ids({ hasErrors: true }, 'OLDEST_FIRST')).toEqual([...withErrors].reverse());
      expect(await ids({ hasErrors: null })).toEqual(allNewestFirst(e.fx));
    });

    it('by model: exact names, any of them; [] is no condition', async () => {
      const opus = 'Claude Opus 4.5 (Thinking)';
      const noModel = [I.empty, I.noValidCreatedAt, I.invalidUtf8, I.noUserInput, I.noCreatedAt];
      expect(await ids({ model: [opus] })).toEqual([I.pair]);
      expect(await ids({ model: [GEMINI] })).toEqual(
        newest((id) => id !== I.pair && !noModel.includes(id as never)),
      );
      expect(await ids({ model: [GEMINI, opus] })).toEqual(
        newest((id) => !noModel.includes(id as never)),
      );
      expect(await ids({ model: [] })).toEqual(allNewestFirst(e.fx));
      // Exact: no case folding, no substring; a session without a model matches no name.
      for (const name of [opus.toLowerCase(), 'Claude', `${opus} `, '']) {
        expect(await ids({ model: [name] })).toEqual([]);
      }
    });

    it('by updatedAfter (inclusive, to the millisecond)', async () => {
      // pair's latest record is 2026-05-28T09:01:04Z; the ctime-dated sessions date from
      // their transcript's mtime (2026-06-01).
      expect(PAIR_FACTS.updatedAt).toBe('2026-05-28T09:01:04.000Z');
      const since = allNewestFirst(e.fx).slice(0, allNewestFirst(e.fx).indexOf(I.pair) + 1);
      expect(since.slice(-3)).toEqual([I.twoRoots, I.tieRoots, I.pair]);
      expect(await ids({ updatedAfter: '2026-05-28T09:01:04Z' })).toEqual(since);
      expect(await ids({ updatedAfter: '2026-05-28T11:01:04+02:00' })).toEqual(since);
      expect(await ids({ updatedAfter: '2026-05-28T09:01:04.001Z' })).toEqual(since.slice(0, -1));
      expect(await ids({ updatedAfter: MTIME })).toEqual(
        allNewestFirst(e.fx).filter((id) => CTIME_SESSIONS.includes(id) || id in REAL_FACTS),
      );
      expect(await ids({ updatedAfter: '2026-06-25T20:06:33Z' })).toEqual([
        '9e779ff1-280b-47ed-945f-565cd870ce83',
      ]);
      expect(await ids({ updatedAfter: '2027-01-01T00:00:00Z' })).toEqual([]);
    });

    it('refuses an updatedAfter that is not a date-time', async () => {
      const body = await e.gql('{ sessions(filter: {updatedAfter: "yesterday"}) { totalCount } }');
      expect(body.errors?.map((x) => x.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    });

    it('combines all conditions', async () => {
      expect(
        await ids({
          environment: ['IDE', 'CLI'],
          flavor: ['antigravity-ide', 'antigravity-cli', 'jetski'],
          createdAfter: '2026-05-10T09:00:00Z',
          createdBefore: '2026-05-18T09:00:00Z',
          query: 'prefix',
        }),
      ).toEqual([I.prefixB, I.prefixExact, I.prefixLonger]);
      expect(await ids({ environment: ['ACP'], query: 'copy' })).toEqual([I.tieRoots]);
      expect(
        await ids({
          environment: ['IDE'],
          hasErrors: true,
          model: [GEMINI],
          updatedAfter: '2026-06-01T00:00:00Z',
        }),
      ).toEqual(['240ff5ee-02e7-4b54-849e-917d5042eae3']);
      expect(await ids({ hasErrors: true, query: 'conversation:"old chat"' })).toEqual([I.pair]);
      expect(await ids({ environment: ['OTHER'], flavor: ['antigravity-ide'] })).toEqual([]);
    });
  });

  describe('session(id)', () => {
    const find = (id: string) =>
      e.gql('query($id: String!) { session(id: $id) { id userRequest } }', { id });

    it('finds by full id, 8 and 4 character prefixes, in Data case', async () => {
      for (const id of [
        I.pair,
        I.pair.slice(0, 8),
        I.pair.slice(0, 4),
        I.pair.toUpperCase(),
        'BA5E',
        'Ba5e0000-0000',
      ]) {
        expect(await find(id)).toEqual({
          data: { session: { id: I.pair, userRequest: PAIR_FACTS.userRequest } },
        });
      }
      expect((await find('cafe0001')).data.session.id).toBe(I.prefixA);
      expect((await find('CAFE0002')).data.session.id).toBe(I.prefixB);
      expect((await find('face')).data.session.id).toBe(I.upperId);
      expect((await find(I.upperId.toLowerCase())).data.session.id).toBe(I.upperId);
      expect((await find('9e77')).data.session.id).toBe('9e779ff1-280b-47ed-945f-565cd870ce83');
    });

    it('lets an exact id win over its use as a prefix of a longer id', async () => {
      expect((await find(I.prefixExact)).data.session.id).toBe(I.prefixExact);
      expect((await find(I.prefixExact.toUpperCase())).data.session.id).toBe(I.prefixExact);
      expect((await find(I.prefixLonger)).data.session.id).toBe(I.prefixLonger);
      expect((await find(I.prefixExact + '-')).data.session.id).toBe(I.prefixLonger);
    });

    it('reports ambiguous prefixes with the exact candidate list', async () => {
      for (const [prefix, candidates] of [
        ['cafe', [I.prefixA, I.prefixB]],
        ['CAFE000', [I.prefixA, I.prefixB]],
        ['beef0000', [I.prefixExact, I.prefixLonger]],
        ['beef0000-0000-4000-8000-00000000000', [I.prefixExact, I.prefixLonger]],
      ] as const) {
        const body = await find(prefix);
        expect(body.data).toEqual({ session: null });
        expect(body.errors).toHaveLength(1);
        expect(body.errors![0]).toMatchObject({
          path: ['session'],
          extensions: { code: 'AMBIGUOUS_SESSION_ID', candidates },
        });
        expect(body.errors![0].extensions!.stacktrace).toBeUndefined();
      }
    });

    it('refuses fewer than 4 characters with BAD_USER_INPUT', async () => {
      for (const id of ['ba5', 'c', '']) {
        const body = await find(id);
        expect(body.data).toEqual({ session: null });
        expect(body.errors?.map((x) => x.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      }
    });

    it('answers null for unknown ids and for directories that are not listed sessions', async () => {
      for (const id of [
        'ffff',
        'ffff0000-0000-4000-8000-000000000000',
        I.escapedSession,
        I.noLogs,
        I.emptyLogs,
        I.bigLine,
        I.pair + 'x',
        'tempmediaStorage',
      ]) {
        expect(await find(id)).toEqual({ data: { session: null } });
      }
    });
  });
});

describe('session cursors while sessions are added (e2e)', () => {
  const e = useE2E();
  const page = async (order: string, first: number, after: string | null) => {
    const d = await e.data(
      `query($o: SessionOrder, $first: Int, $after: String) {
         sessions(order: $o, first: $first, after: $after) {
           totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
      { o: order, first, after },
    );
    return {
      ids: d.sessions.edges.map((x: Data) => x.node.id) as string[],
      next: d.sessions.pageInfo.hasNextPage ? (d.sessions.pageInfo.endCursor as string) : null,
      total: d.sessions.totalCount as number,
    };
  };
  const rest = async (order: string, after: string): Promise<string[]> => {
    const out: string[] = [];
    for (let cursor: string | null = after; cursor !== null;) {
      const p = await page(order, 3, cursor);
      out.push(...p.ids);
      cursor = p.next;
    }
    return out;
  };
  /** New sessions: before the cursor, tied with it on both sides, and after it. */
  const ADDED = {
    before: { id: '5e550000-0000-4000-8000-0000000000b0', at: '2026-05-29T00:00:00Z' },
    tieLow: { id: 'd0d00000-0000-4000-8000-000000000002', at: '2026-05-26T09:00:00Z' },
    tieHigh: { id: 'd0d00000-0000-4000-8000-000000000004', at: '2026-05-26T09:00:00Z' },
    after: { id: '5e550000-0000-4000-8000-0000000000a0', at: '2026-05-22T12:00:00Z' },
  };

  it('continues from an old cursor without duplicates or skips (both orders)', async () => {
    const newest = allNewestFirst(e.fx);
    const oldest = allOldestFirst(e.fx);
    // NEWEST_FIRST: stop right after duplicates (createdAt 05-26 09:00, id d0d0…03).
    const cut = newest.indexOf(I.duplicates) + 1;
    const first = await page('NEWEST_FIRST', cut, null);
    expect(first.ids).toEqual(newest.slice(0, cut));
    // OLDEST_FIRST: stop right after duplicates too.
    const cutOld = oldest.indexOf(I.duplicates) + 1;
    const firstOld = await page('OLDEST_FIRST', cutOld, null);
    expect(firstOld.ids).toEqual(oldest.slice(0, cutOld));

    for (const { id, at } of Object.values(ADDED)) {
      simpleSession(path.join(e.fx.roots.ide, id), at, `Added ${id}`);
    }
    await e.store.refresh();
    expect((await page('NEWEST_FIRST', 1, null)).total).toBe(33);

    // Newest first after duplicates: older ones only, plus tieHigh (same time, larger id) and
    // `after`; `before` and tieLow sort before the cursor and are not repeated.
    const wantNewest = [...newest.slice(cut)];
    wantNewest.unshift(ADDED.tieHigh.id);
    wantNewest.splice(wantNewest.indexOf(I.invalidUtf8), 0, ADDED.after.id);
    expect(await rest('NEWEST_FIRST', first.next!)).toEqual(wantNewest);

    // Oldest first after duplicates: newer ones only, tieHigh first, `before` in its place.
    const wantOldest = [...oldest.slice(cutOld)];
    wantOldest.unshift(ADDED.tieHigh.id);
    wantOldest.splice(wantOldest.indexOf(I.tieRoots), 0, ADDED.before.id);
    expect(await rest('OLDEST_FIRST', firstOld.next!)).toEqual(wantOldest);
  });

  it('keeps a cursor valid when its own session disappears', async () => {
    const newest = (await page('NEWEST_FIRST', 100, null)).ids;
    const at = newest.indexOf(ADDED.after.id);
    const p = await page('NEWEST_FIRST', at + 1, null);
    fs.rmSync(path.join(e.fx.roots.ide, ADDED.after.id), { recursive: true });
    await e.store.refresh();
    expect(await rest('NEWEST_FIRST', p.next!)).toEqual(newest.slice(at + 1));
  });
});
