import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import type { HomeIndex } from '../../src/index/home-index';
import { simpleSession } from '../fixtures/session-misc';
import type { Data } from './harness';
import {
  ask,
  buildSearchHome,
  HIT,
  IDS,
  label,
  NARWHAL_CONTENT,
  RED_FOX,
  startIndexedApp,
  type SearchHome,
} from './search-home';

/**
 * search over the real index (REDACT=off here; masking is secrets.e2e.spec.ts's): a known hit
 * in every field, the full tier, phrases, filters, both orders page by page, errors, batching,
 * and cursors while the index grows (last: it adds sessions).
 */

let sh: SearchHome;
let app: INestApplication;
let server: http.Server;
let index: HomeIndex;

beforeAll(async () => {
  sh = buildSearchHome();
  ({ app, server, index } = await startIndexedApp(sh));
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

const SEARCH = `query($q: String!, $first: Int, $after: String, $filter: SearchFilter, $order: SearchOrder) {
  search(query: $q, first: $first, after: $after, filter: $filter, order: $order) {
    totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${HIT} score } } } }`;

async function search(q: string, vars: Record<string, unknown> = {}): Promise<Data> {
  const body = await ask(server, SEARCH, { q, first: 100, order: 'NEWEST_FIRST', ...vars });
  expect(body.errors).toBeUndefined();
  return body.data.search;
}
const labels = async (q: string, vars: Record<string, unknown> = {}) =>
  (await search(q, vars)).edges.map((e: Data) => label(e.node));
const nodes = async (q: string) =>
  (await search(q)).edges.map(({ node: { score: _score, ...n } }: Data) => n);
async function failure(q: string, vars: Record<string, unknown> = {}) {
  const body = await ask(server, SEARCH, { q, ...vars });
  expect([body.data, body.errors?.length]).toEqual([null, 1]);
  return body.errors![0];
}

const hit = (id: string, field: string, step: [number, string] | null, artifact = null) => ({
  session: { id },
  field,
  step: step && { index: step[0], type: step[1] },
  artifact,
});
const ZEBRAFISH_NEWEST = [
  `${IDS.acp} CONTENT 1`,
  `${IDS.cli} CONTENT 1`,
  `${IDS.ide} USER_REQUEST 0`,
  `${IDS.ide} CONTENT 0`,
  ...Array.from({ length: 20 }, (_, i) => `${IDS.many} CONTENT ${i + 1}`),
];

describe('search (e2e)', () => {
  it('finds a term in every field, each hit with its snippet, highlights and count', async () => {
    const at = NARWHAL_CONTENT.indexOf('narwhal');
    expect(await nodes('narwhal')).toEqual([
      {
        ...hit(IDS.ide, 'CONTENT', [1, 'PLANNER_RESPONSE']),
        snippet: NARWHAL_CONTENT.slice(at - 100, at + 200),
        highlights: [{ start: 100, length: 7 }],
        matchCount: 1,
      },
    ]);
    // Numbers and booleans of the arguments are left out (Blocking: true).
    expect(await nodes('axolotl')).toEqual([
      {
        ...hit(IDS.ide, 'TOOL_CALLS', [1, 'PLANNER_RESPONSE']),
        snippet: 'run_command\ngrep -r axolotl src\n/work/s1',
        highlights: [{ start: 20, length: 7 }],
        matchCount: 1,
      },
      {
        ...hit(IDS.ide, 'CONTENT', [2, 'RUN_COMMAND']),
        snippet:
          'Created At: 2026-07-01T10:00:02Z\nCompleted At: 2026-07-01T10:00:02Z\nOutput:\naxolotl found in src/a.ts',
        highlights: [{ start: 76, length: 7 }],
        matchCount: 1,
      },
    ]);
    expect(await nodes('PANGOLIN')).toEqual([
      {
        ...hit(IDS.ide, 'OUTPUT', [2, 'RUN_COMMAND']),
        snippet: 'pangolin one\npangolin two\n',
        highlights: [
          { start: 0, length: 8 },
          { start: 13, length: 8 },
        ],
        matchCount: 2,
      },
    ]);
    expect(await nodes('capybara')).toEqual([
      {
        ...hit(IDS.ide, 'ARTIFACT', null, 'implementation_plan.md' as never),
        snippet: '# Plan\nThe capybara plan\n',
        highlights: [{ start: 11, length: 8 }],
        matchCount: 1,
      },
    ]);
    expect(await labels('quokka')).toEqual([`${IDS.cli} THINKING 1`, `${IDS.ide} THINKING 1`]);
    // Only in an older version of the artifact: versions are not searched.
    expect(await search('wombat')).toEqual({
      totalCount: 0,
      pageInfo: { hasNextPage: false, endCursor: null },
      edges: [],
    });
  });

  it('reads the full tier: the compact content does not hold "narwhal"', async () => {
    const body = await ask(
      server,
      `{ session(id: "${IDS.ide}") { step(index: 1) { content full: content(full: true) } } }`,
    );
    const step = body.data.session.step;
    expect([step.content.includes('narwhal'), step.full]).toEqual([false, NARWHAL_CONTENT]);
  });

  it('takes a quoted phrase as one term, and several terms anywhere in one text', async () => {
    expect(await nodes('"red fox"')).toEqual([
      {
        ...hit(IDS.ide, 'CONTENT', [3, 'PLANNER_RESPONSE']),
        snippet: RED_FOX,
        highlights: [{ start: 4, length: 7 }],
        matchCount: 1,
      },
    ]);
    const both = await nodes('red fox');
    expect(both).toEqual([
      {
        ...hit(IDS.cli, 'THINKING', [1, 'PLANNER_RESPONSE']),
        snippet: 'the quokka again, a fox in a red box',
        highlights: [
          { start: 20, length: 3 },
          { start: 29, length: 3 },
        ],
        matchCount: 1,
      },
      {
        ...hit(IDS.ide, 'CONTENT', [3, 'PLANNER_RESPONSE']),
        snippet: RED_FOX,
        highlights: [4, 8, 39, 53].map((start) => ({ start, length: 3 })),
        matchCount: 2,
      },
    ]);
    expect(await labels('"fox red"')).toEqual([]);
    expect(await labels('red fox quokka')).toEqual([`${IDS.cli} THINKING 1`]);
  });

  it('orders NEWEST_FIRST by session createdAt, then position and field', async () => {
    const all = await search('zebrafish');
    expect(all.totalCount).toBe(24);
    expect(all.edges.map((e: Data) => label(e.node))).toEqual(ZEBRAFISH_NEWEST);
    expect(all.edges[1].node).toMatchObject({
      snippet: 'zebrafish zebrafishzebrafish and Zebrafish',
      highlights: [0, 10, 19, 33].map((start) => ({ start, length: 9 })),
      matchCount: 4,
    });
    expect(await labels('ZebraFish')).toEqual(ZEBRAFISH_NEWEST);
  });

  it('orders RELEVANCE by score descending, over the same hits', async () => {
    const all = await search('zebrafish', { order: 'RELEVANCE' });
    const scores: number[] = all.edges.map((e: Data) => e.node.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(all.edges.map((e: Data) => label(e.node)).sort()).toEqual([...ZEBRAFISH_NEWEST].sort());
    expect(all.totalCount).toBe(24);
  });

  it('pages both orders by 5: the pages concatenate to the whole list', async () => {
    for (const order of ['NEWEST_FIRST', 'RELEVANCE']) {
      const whole = (await search('zebrafish', { order })).edges.map((e: Data) => label(e.node));
      const seen: string[] = [];
      const flags: boolean[] = [];
      let after: string | null = null;
      do {
        const page: Data = await search('zebrafish', { order, first: 5, after });
        expect(page.totalCount).toBe(24);
        expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
        seen.push(...page.edges.map((e: Data) => label(e.node)));
        flags.push(page.pageInfo.hasNextPage);
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      } while (after);
      expect([seen, flags]).toEqual([whole, [true, true, true, true, false]]);
    }
  });

  it('gives cursors that hold no server path (copies of an id are told apart by a number)', async () => {
    for (const order of ['NEWEST_FIRST', 'RELEVANCE']) {
      const page: Data = await search('zebrafish', { order, first: 24 });
      for (const { cursor } of page.edges as { cursor: string }[]) {
        const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
        expect(decoded).not.toContain(sh.dir);
        expect(decoded).not.toContain('/brain/');
        expect(typeof (JSON.parse(decoded) as unknown[]).at(-1)).toBe('number');
      }
    }
  });

  it('filters by field, by sessions and by one session (id or prefix)', async () => {
    const only = (fields: string[]) => ({ filter: { fields } });
    expect(await labels('zebrafish', only(['USER_REQUEST']))).toEqual([
      `${IDS.ide} USER_REQUEST 0`,
    ]);
    expect(await labels('quokka', only(['OUTPUT', 'ARTIFACT']))).toEqual([]);
    expect(await labels('axolotl', only(['TOOL_CALLS']))).toEqual([`${IDS.ide} TOOL_CALLS 1`]);
    expect(await labels('zebrafish', only([]))).toEqual(ZEBRAFISH_NEWEST);
    const sessions = (f: object) => ({ filter: { sessions: f } });
    expect(await labels('zebrafish', sessions({ environment: ['CLI'] }))).toEqual([
      `${IDS.cli} CONTENT 1`,
    ]);
    expect(await labels('zebrafish', sessions({ createdAfter: '2026-07-02T10:00:00Z' }))).toEqual(
      ZEBRAFISH_NEWEST.slice(0, 2),
    );
    expect(await labels('zebrafish', sessions({ query: 'MIGRATION' }))).toEqual(
      ZEBRAFISH_NEWEST.slice(2, 4),
    );
    const one = (session: string, more: object = {}) => ({ filter: { session, ...more } });
    expect(await labels('zebrafish', one('5EAF0001'))).toEqual(ZEBRAFISH_NEWEST.slice(2, 4));
    expect(await labels('zebrafish', one(IDS.cli))).toEqual([`${IDS.cli} CONTENT 1`]);
    expect(await labels('zebrafish', one(IDS.cli, { sessions: { environment: ['IDE'] } }))).toEqual(
      [],
    );
    expect(await search('zebrafish', one('ffff0000-0000-4000-8000-000000000000'))).toMatchObject({
      totalCount: 0,
      edges: [],
    });
  });

  it('answers the contract errors: ambiguous or short session prefixes, bad queries, pages, cursors', async () => {
    expect(await failure('zebrafish', { filter: { session: '5eaf' } })).toMatchObject({
      path: ['search'],
      extensions: {
        code: 'AMBIGUOUS_SESSION_ID',
        candidates: [IDS.ide, IDS.cli, IDS.acp, IDS.many],
      },
    });
    expect(await failure('zebrafish', { filter: { session: '5ea' } })).toMatchObject({
      message: '"filter.session" must be a full session id or a prefix of at least 4 characters',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    for (const q of ['ab', '', 'zebrafish "x"', 'a'.repeat(513)]) {
      expect((await failure(q)).extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        argument: 'query',
      });
    }
    for (const first of [0, 101]) {
      // Refused before anything runs (HTTP 400): no data at all.
      const body = await ask(server, SEARCH, { q: 'zebrafish', first });
      expect(body.data).toBeUndefined();
      expect(body.errors).toMatchObject([
        {
          message: '"first" must be an integer from 1 to 100',
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ]);
    }
    const relevance = (await search('zebrafish', { order: 'RELEVANCE', first: 1 })).pageInfo
      .endCursor;
    const listing = (await ask(server, '{ sessions(first: 1) { pageInfo { endCursor } } }')).data
      .sessions.pageInfo.endCursor;
    for (const after of [relevance, listing, 'garbage']) {
      expect(await failure('zebrafish', { order: 'NEWEST_FIRST', after })).toMatchObject({
        message: '"after" is not a cursor of this list: pass an endCursor or edge cursor from it',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
  });

  it('resolves a page of 20 hits with one batched store call per kind of data (no N+1)', async () => {
    const store = app.get(BrainStore);
    const spies = (['recordsOf', 'summaries'] as const).map((m) => jest.spyOn(store, m));
    const query = `query($n: Int) { search(query: "zebrafish", first: $n, order: NEWEST_FIRST) {
      edges { node { session { id userRequest stepCount } step { index type content } } } } }`;
    const count = async (n: number) => {
      spies.forEach((s) => s.mockClear());
      const body = await ask(server, query, { n });
      expect(body.data.search.edges).toHaveLength(n);
      return spies.map((s) => s.mock.calls.length);
    };
    try {
      expect(await count(5)).toEqual([1, 1]);
      expect(await count(20)).toEqual([1, 1]);
      // The 20 hits are in 4 sessions: one batch of 4.
      expect(spies[0].mock.calls[0][0]).toHaveLength(4);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });

  it('keeps cursors valid while the index grows (both orders)', async () => {
    const first = await search('zebrafish', { first: 3 });
    const relevance = await search('zebrafish', { order: 'RELEVANCE' });
    const newer = '5eaf0005-0000-4000-8000-000000000005';
    const older = '5eaf0006-0000-4000-8000-000000000006';
    const brain = path.dirname(sh.dirs.ide);
    simpleSession(path.join(brain, newer), '2026-07-05T00:00:00Z', 'Newer zebrafish');
    simpleSession(path.join(brain, older), '2026-06-01T00:00:00Z', 'Older zebrafish');
    await app.get(BrainStore).refresh();
    await index.caughtUp();
    // Each new session has the term in its request (USER_REQUEST, CONTENT) and answer.
    const rest = await search('zebrafish', { after: first.pageInfo.endCursor });
    expect(rest.totalCount).toBe(30);
    expect(rest.edges.map((e: Data) => label(e.node))).toEqual([
      ...ZEBRAFISH_NEWEST.slice(3),
      `${older} USER_REQUEST 0`,
      `${older} CONTENT 0`,
      `${older} CONTENT 2`,
    ]);
    // A RELEVANCE cursor taken before the growth continues at its score: the hits now scored
    // below it, in the current order (bm25 scores move as the home grows, so a hit near the
    // cursor may cross it).
    const mid = relevance.edges[10];
    const after = await search('zebrafish', { order: 'RELEVANCE', after: mid.cursor });
    const now = await search('zebrafish', { order: 'RELEVANCE' });
    expect(now.totalCount).toBe(30);
    expect(after.edges.map((e: Data) => label(e.node))).toEqual(
      now.edges.filter((e: Data) => e.node.score < mid.node.score).map((e: Data) => label(e.node)),
    );
  });
});
