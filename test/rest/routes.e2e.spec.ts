import * as D from '../../src/operations/documents';
import type { Data } from '../e2e/harness';
import { IDS } from '../e2e/search-home';
import { pageOf, useRest } from './rest-home';

/**
 * Every REST route answers exactly what GraphQL answers for the same document and variables
 * (same field names and values), plus exact values where the data is known by hand.
 */
const r = useRest();

async function ok(path: string): Promise<Data> {
  const res = await r.get(path);
  expect([res.status, res.headers['content-type']]).toEqual([
    200,
    'application/json; charset=utf-8',
  ]);
  return res.body;
}

describe('REST routes = GraphQL answers', () => {
  it('GET /api/sessions: paging, order, filters (repeated, comma-separated, any case)', async () => {
    const first = await ok('/api/sessions?first=2&order=oldest_first');
    const g = await r.gql(D.SESSIONS, { first: 2, order: 'OLDEST_FIRST' });
    expect(first).toEqual(pageOf(g.sessions));
    expect([first.totalCount, first.items.map((s: Data) => s.id)]).toEqual([
      4,
      [IDS.many, IDS.ide],
    ]);
    const next = await ok(`/api/sessions?first=2&order=OLDEST_FIRST&after=${first.nextCursor}`);
    expect([next.items.map((s: Data) => s.id), next.nextCursor]).toEqual([
      [IDS.cli, IDS.acp],
      null,
    ]);

    const filtered = await ok('/api/sessions?environment=ide,Cli&environment=acp&q=zebrafish');
    const gf = await r.gql(D.SESSIONS, {
      filter: { environment: ['IDE', 'CLI', 'ACP'], query: 'zebrafish' },
    });
    expect(filtered).toEqual(pageOf(gf.sessions));
    expect(filtered.items.map((s: Data) => s.id)).toEqual([IDS.ide]);

    const dated = await ok(
      '/api/sessions?createdAfter=2026-07-01T00:00:00Z&createdBefore=2026-07-03T00:00:00Z&hasErrors=false&flavor=antigravity-ide&flavor=antigravity-cli',
    );
    expect(dated.items.map((s: Data) => s.id)).toEqual([IDS.cli, IDS.ide]);
    expect((await ok('/api/sessions?updatedAfter=2026-07-03T00:00:00Z')).totalCount).toBe(1);
    expect((await ok('/api/sessions?model=none-such')).totalCount).toBe(0);
  });

  it('GET /api/sessions/{id}: by id and by unique prefix', async () => {
    const s = await ok(`/api/sessions/${IDS.cli}`);
    expect(s).toEqual((await r.gql(D.SESSION, { id: IDS.cli })).session);
    expect(await ok('/api/sessions/5EAF0002')).toEqual(s);
    expect([s.stepCount, s.userRequest, s.root.environment]).toEqual([
      2,
      'Investigate the build',
      'CLI',
    ]);
  });

  it('GET /api/sessions/{id}/steps: pages, full tier, filters', async () => {
    const compact = await ok(`/api/sessions/${IDS.ide}/steps?first=2`);
    expect(compact).toEqual(
      pageOf((await r.gql(D.STEPS, { id: IDS.ide, first: 2 })).session.steps),
    );
    expect(compact.totalCount).toBe(4);
    const full = await ok(`/api/sessions/${IDS.ide}/steps?first=2&full=true`);
    const gfull = await r.gql(D.STEPS, { id: IDS.ide, first: 2, full: true });
    expect(full).toEqual(pageOf(gfull.session.steps));
    expect(full.items[1].content).toContain(' narwhal ');
    expect(compact.items[1].content).not.toContain(' narwhal ');
    expect(compact.items[1].truncatedFields).toEqual(['content']);
    const rest = await ok(`/api/sessions/${IDS.ide}/steps?after=${compact.nextCursor}`);
    expect(rest.items.map((s: Data) => s.position)).toEqual([2, 3]);
    const byType = await ok(`/api/sessions/${IDS.ide}/steps?type=RUN_COMMAND&source=model`);
    expect(byType.items.map((s: Data) => s.index)).toEqual([2]);
    const byTool = await ok(`/api/sessions/${IDS.ide}/steps?tool=run_command&status=done`);
    expect(byTool.items.map((s: Data) => s.index)).toEqual([1]);
  });

  it('GET /api/sessions/{id}/steps/{index}: results and output', async () => {
    const step = await ok(`/api/sessions/${IDS.ide}/steps/2`);
    expect(step).toEqual((await r.gql(D.STEP, { id: IDS.ide, index: 2 })).session.step);
    expect(step.output).toEqual({
      file: 'output.txt',
      size: 26,
      duplicatesContent: false,
      text: 'pangolin one\npangolin two\n',
    });
    const call = await ok(`/api/sessions/${IDS.ide}/steps/1?full=1`);
    expect(call.toolCalls[0].result).toEqual({
      index: 2,
      position: 2,
      type: 'RUN_COMMAND',
      status: 'DONE',
    });
    expect(call.content).toContain(' narwhal ');
  });

  it.each([
    ['commands', D.COMMANDS, 'commands'],
    ['file-changes', D.FILE_CHANGES, 'fileChanges'],
    ['problems', D.PROBLEMS, 'problems'],
    ['secrets', D.SECRETS, 'secrets'],
  ])('GET /api/sessions/{id}/%s', async (route, doc, field) => {
    for (const id of [IDS.ide, IDS.acp]) {
      const body = await ok(`/api/sessions/${id}/${route}`);
      expect(body).toEqual({ items: (await r.gql(doc, { id })).session[field] });
    }
  });

  it('commands and secrets hold the known values', async () => {
    const { items } = await ok(`/api/sessions/${IDS.ide}/commands`);
    expect(items.map((c: Data) => [c.commandLine, c.cwd, c.result?.index])).toEqual([
      ['grep -r axolotl src', '/work/s1', 2],
    ]);
    const secrets = await ok(`/api/sessions/${IDS.acp}/secrets`);
    expect(
      secrets.items.map((f: Data) => `${f.kind} ${f.field} ${f.step?.index ?? f.artifact}`),
    ).toEqual([
      'password USER_REQUEST 0', // once: the request's content is not counted again
      'jwt CONTENT 1',
      'github-token TOOL_CALLS 1',
      'private-key ARTIFACT notes.md',
    ]);
  });

  it('GET /api/search and /api/stats', async () => {
    const hits = await ok('/api/search?q=zebrafish&first=3&order=newest-first&field=content');
    const g = await r.gql(D.SEARCH, {
      query: 'zebrafish',
      first: 3,
      order: 'NEWEST_FIRST',
      filter: { fields: ['CONTENT'] },
    });
    expect(hits).toEqual(pageOf(g.search));
    expect(hits.totalCount).toBe(23);
    const scoped = await ok(`/api/search?q=zebrafish&session=${IDS.cli}&environment=cli`);
    expect(scoped.items.map((h: Data) => h.field)).toEqual(['CONTENT']);
    const stats = await ok('/api/stats?environment=IDE&bucket=month');
    expect(stats).toEqual(
      (await r.gql(D.STATS, { filter: { environment: ['IDE'] }, bucket: 'MONTH' })).stats,
    );
    expect([stats.sessions, stats.steps]).toEqual([2, 26]);
  });
});
