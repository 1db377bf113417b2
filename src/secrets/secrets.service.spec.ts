import type { GraphQLError } from 'graphql';
import { dirsOf, E5_IDE, IDE, S, setup as home, withOwn } from '../../test/doubles/home-setup';
import { Principal } from '../auth/principal';
import type { ListedSession } from '../brain/catalog';
import { Environment } from '../graphql/enums';
import type { SecretFindingRow } from '../index/home-index';
import type { SecretExposuresArgs } from './secrets.args';
import { SecretsService } from './secrets.service';

/** Exposures and findings: which sessions, which kinds, what is counted, and paging. */

const step = (kind: string, field: SecretFindingRow['field'], position: number, count = 1) => ({
  kind,
  field,
  position,
  artifact: null,
  count,
});
const FINDINGS = new Map<ListedSession, SecretFindingRow[]>([
  [
    S.a1,
    [
      step('password', 'USER_REQUEST', 0),
      step('jwt', 'CONTENT', 1, 2),
      { kind: 'aws-access-key', field: 'ARTIFACT', position: null, artifact: 'plan.md', count: 1 },
    ],
  ],
  [S.b2, [step('jwt', 'OUTPUT', 3)]],
  [S.d4, [step('private-key', 'TOOL_CALLS', 2)]],
  [S.e5, [step('github-token', 'CONTENT', 0, 4)]],
  [E5_IDE, [step('password', 'CONTENT', 0)]],
]);

function setup() {
  const h = home();
  for (const [s, rows] of FINDINGS) h.index.findings.set(s.entry.realDir, rows);
  const sut = new SecretsService(h.index, h.sessions);
  const run = (args: SecretExposuresArgs, who = Principal.anonymous) =>
    sut.exposures(args, h.loaders, who);
  const ids = async (args: SecretExposuresArgs, who = Principal.anonymous) => {
    const page = await run(args, who);
    expect(page.totalCount).toBe(page.pageInfo.hasNextPage ? page.totalCount : page.edges.length);
    return page.edges.map((e) => e.node.session.entry.id);
  };
  const failure = (args: SecretExposuresArgs) =>
    run(args).then(
      () => null,
      (e: GraphQLError) => [e.extensions.code, e.message],
    );
  return { ...h, sut, run, ids, failure };
}

const finding = (s: ListedSession, row: SecretFindingRow) => ({ session: s, ...row });

describe('SecretsService.exposures', () => {
  it('lists exposed visible sessions newest first, with every finding, kinds and count', async () => {
    const { index, run } = setup();
    const page = await run({});
    expect(page.edges.map((e) => e.node.session)).toEqual([S.e5, S.b2, S.d4, S.a1]);
    expect(page.totalCount).toBe(4);
    expect(page.edges[3].node).toEqual({
      session: S.a1,
      count: 4,
      kinds: ['aws-access-key', 'jwt', 'password'],
      findings: FINDINGS.get(S.a1)!.map((r) => finding(S.a1, r)),
    });
    expect(index.argsOf('exposedSessions')).toEqual([
      [dirsOf(S.e5, S.b2, S.c3, S.d4, S.a1, S.a9), null],
    ]);
    // One index call for the findings of the whole page.
    expect(index.argsOf('secrets')).toEqual([[dirsOf(S.e5, S.b2, S.d4, S.a1)]]);
  });

  it('counts and shows only the findings of the kinds asked for ([] is every kind)', async () => {
    const { index, run, ids } = setup();
    const page = await run({ kinds: ['jwt', 'password'] });
    expect(page.edges.map((e) => [e.node.session.entry.id, e.node.count, e.node.kinds])).toEqual([
      ['bbbb0002', 1, ['jwt']],
      ['aaaa0001', 3, ['jwt', 'password']],
    ]);
    expect(page.edges[1].node.findings.map((f) => f.kind)).toEqual(['password', 'jwt']);
    expect(await ids({ kinds: ['JWT'] })).toEqual([]);
    expect(await ids({ kinds: [] })).toEqual(['eeee0005', 'bbbb0002', 'dddd0004', 'aaaa0001']);
    expect(index.argsOf('exposedSessions').map(([, kinds]) => kinds)).toEqual([
      ['jwt', 'password'],
      ['JWT'],
      null,
    ]);
  });

  it('gives a scoped key its own sessions and copies only', async () => {
    const { run, ids } = setup();
    expect(await ids({}, IDE)).toEqual(['aaaa0001', 'eeee0005']);
    const e5 = (await run({}, IDE)).edges[1].node;
    expect([e5.session, e5.kinds, e5.count]).toEqual([E5_IDE, ['password'], 1]);
    expect(await ids({}, new Principal('cli', new Set(['antigravity-cli'])))).toEqual(['dddd0004']);
    expect(await ids({ kinds: ['github-token'] }, IDE)).toEqual([]);
    expect(await ids({}, Principal.nobody)).toEqual([]);
  });

  it('selects sessions with the listing filter', async () => {
    const { ids } = setup();
    expect(await ids({ filter: { environment: [Environment.ACP] } })).toEqual([
      'eeee0005',
      'bbbb0002',
    ]);
    expect(await ids({ filter: { hasErrors: true } })).toEqual(['eeee0005', 'aaaa0001']);
    expect(await ids({ filter: { hasErrors: true }, kinds: ['jwt'] })).toEqual(['aaaa0001']);
  });

  it('pages newest first with its own cursors', async () => {
    const { run, failure } = setup();
    const one = await run({ first: 3 });
    expect([one.edges.length, one.totalCount, one.pageInfo.hasNextPage]).toEqual([3, 4, true]);
    const two = await run({ first: 3, after: one.pageInfo.endCursor });
    expect(two.edges.map((e) => e.node.session.entry.id)).toEqual(['aaaa0001']);
    expect([two.totalCount, two.pageInfo.hasNextPage]).toEqual([4, false]);
    const notOurs = [
      'BAD_USER_INPUT',
      '"after" is not a cursor of this list: pass an endCursor or edge cursor from it',
    ];
    const listing = Buffer.from(JSON.stringify(['s:NEWEST_FIRST', 0, 'x'])).toString('base64url');
    expect(await failure({ after: listing })).toEqual(notOurs);
    expect(await failure({ after: 'garbage' })).toEqual(notOurs);
    for (const first of [0, 101]) {
      expect(await failure({ first })).toEqual([
        'BAD_USER_INPUT',
        '"first" must be an integer from 1 to 100',
      ]);
    }
  });

  it('never lists a session the index names beyond those it was asked about', async () => {
    const { index, ids } = setup();
    index.exposedSessions = () => dirsOf(S.b2, S.a1, S.e5);
    expect(await ids({}, IDE)).toEqual(['aaaa0001']);
  });
});

describe('SecretsService.findings (Session.secrets)', () => {
  it('loads the findings of every session a request asks about in one index call', async () => {
    const { index, sut, loaders } = setup();
    const loader = sut.findings(loaders);
    const [a1, c3, e5] = await Promise.all([S.a1, S.c3, E5_IDE].map((s) => loader.load(s)));
    expect(a1).toEqual(FINDINGS.get(S.a1)!.map((r) => finding(S.a1, r)));
    expect([c3, e5]).toEqual([[], [finding(E5_IDE, FINDINGS.get(E5_IDE)![0])]]);
    expect(index.argsOf('secrets')).toEqual([[dirsOf(S.a1, S.c3, E5_IDE)]]);
    // The same request reuses its loader; another request gets its own.
    expect(sut.findings(loaders)).toBe(loader);
    await loader.load(S.a1);
    expect(index.argsOf('secrets')).toHaveLength(1);
    await sut.findings(withOwn({})).load(S.a1);
    expect(index.argsOf('secrets')).toHaveLength(2);
  });
});
