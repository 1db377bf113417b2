import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import type { Data } from './harness';
import {
  ask,
  AWS_KEY,
  buildSearchHome,
  GITHUB_TOKEN,
  HIT,
  IDS,
  JWT,
  label,
  PASSWORD,
  PRIVATE_KEY,
  startIndexedApp,
  type SearchHome,
} from './search-home';

/**
 * Session.secrets and secretExposures over the real index, with REDACT=on and =off: the same
 * findings either way; with REDACT=on a planted secret cannot be found by its value, and
 * REDACTED finds the masked spans.
 */

let sh: SearchHome;
const apps: Record<'on' | 'off', { app: INestApplication; server: http.Server }> = {} as never;

beforeAll(async () => {
  sh = buildSearchHome();
  for (const redact of ['on', 'off'] as const) {
    apps[redact] = await startIndexedApp(sh, { REDACT: redact });
  }
});
afterAll(async () => {
  for (const a of Object.values(apps)) await a.app.close();
  fs.rmSync(sh.dir, { recursive: true, force: true });
});

async function data(redact: 'on' | 'off', query: string, vars: Record<string, unknown> = {}) {
  const body = await ask(apps[redact].server, query, vars);
  expect(body.errors).toBeUndefined();
  return body.data;
}

const FINDING = 'kind field step { index type } artifact count';
const f = (kind: string, field: string, step: [number, string] | null, artifact = null) => ({
  kind,
  field,
  step: step && { index: step[0], type: step[1] },
  artifact,
  count: 1,
});
const ACP_FINDINGS = [
  // The request's password, in step 0's CONTENT too, is counted once (review 9, item 5).
  f('password', 'USER_REQUEST', [0, 'USER_INPUT']),
  f('jwt', 'CONTENT', [1, 'PLANNER_RESPONSE']),
  f('github-token', 'TOOL_CALLS', [1, 'PLANNER_RESPONSE']),
  f('private-key', 'ARTIFACT', null, 'notes.md' as never),
];
const MANY_FINDINGS = [f('aws-access-key', 'THINKING', [21, 'PLANNER_RESPONSE'])];
const EXPOSURES = `query($kinds: [String!], $filter: SessionFilter, $first: Int, $after: String) {
  secretExposures(kinds: $kinds, filter: $filter, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node { session { id } count kinds findings { ${FINDING} } } } } }`;

describe.each(['on', 'off'] as const)('secrets with REDACT=%s (e2e)', (redact) => {
  it('lists every finding of a session by step, field and kind, then artifacts', async () => {
    const d = await data(
      redact,
      `query($a: String!, $b: String!, $c: String!) {
         a: session(id: $a) { secrets { ${FINDING} } }
         b: session(id: $b) { secrets { ${FINDING} } }
         c: session(id: $c) { secrets { ${FINDING} } } }`,
      { a: IDS.acp, b: IDS.many, c: IDS.ide },
    );
    expect([d.a.secrets, d.b.secrets, d.c.secrets]).toEqual([ACP_FINDINGS, MANY_FINDINGS, []]);
  });

  it('lists exposed sessions newest first with their count and sorted kinds', async () => {
    const d = await data(redact, EXPOSURES);
    expect(d.secretExposures).toEqual({
      totalCount: 2,
      pageInfo: { hasNextPage: false, endCursor: d.secretExposures.edges[1].cursor },
      edges: [
        {
          cursor: d.secretExposures.edges[0].cursor,
          node: {
            session: { id: IDS.acp },
            count: 4,
            kinds: ['github-token', 'jwt', 'password', 'private-key'],
            findings: ACP_FINDINGS,
          },
        },
        {
          cursor: d.secretExposures.edges[1].cursor,
          node: {
            session: { id: IDS.many },
            count: 1,
            kinds: ['aws-access-key'],
            findings: MANY_FINDINGS,
          },
        },
      ],
    });
  });

  it('counts and shows only the kinds asked for; [] is every kind', async () => {
    const of = async (kinds: string[] | null, filter?: object) =>
      (await data(redact, EXPOSURES, { kinds, filter })).secretExposures.edges.map((e: Data) => [
        e.node.session.id,
        e.node.count,
        e.node.kinds,
        e.node.findings.length,
      ]);
    expect(await of(['password', 'aws-access-key'])).toEqual([
      [IDS.acp, 1, ['password'], 1],
      [IDS.many, 1, ['aws-access-key'], 1],
    ]);
    expect(await of(['jwt'])).toEqual([[IDS.acp, 1, ['jwt'], 1]]);
    expect(await of(['JWT', 'nothing'])).toEqual([]);
    expect(await of([])).toEqual([
      [IDS.acp, 4, ['github-token', 'jwt', 'password', 'private-key'], 4],
      [IDS.many, 1, ['aws-access-key'], 1],
    ]);
    expect(await of(null, { environment: ['IDE'] })).toEqual([
      [IDS.many, 1, ['aws-access-key'], 1],
    ]);
    expect(await of(null, { createdBefore: '2026-06-30T10:00:00Z' })).toEqual([]);
  });

  it('pages newest first with its own cursors', async () => {
    const one = (await data(redact, EXPOSURES, { first: 1 })).secretExposures;
    expect([one.totalCount, one.pageInfo.hasNextPage]).toEqual([2, true]);
    const two = (await data(redact, EXPOSURES, { first: 1, after: one.pageInfo.endCursor }))
      .secretExposures;
    expect(two.edges.map((e: Data) => e.node.session.id)).toEqual([IDS.many]);
    expect([two.totalCount, two.pageInfo.hasNextPage]).toEqual([2, false]);
    const body = await ask(apps[redact].server, EXPOSURES, { after: 'garbage' });
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});

describe('secrets batching (e2e)', () => {
  it('asks the index once per request, shared by secretExposures and Session.secrets', async () => {
    const { app } = apps.on;
    const index = app.get<HomeIndex>(HOME_INDEX);
    const spies = [jest.spyOn(index, 'secrets'), jest.spyOn(app.get(BrainStore), 'recordsOf')];
    try {
      const d = await data(
        'on',
        `{ secretExposures { edges { node { findings { step { index } }
           session { id secrets { kind step { type } } } } } } }`,
      );
      expect(d.secretExposures.edges).toHaveLength(2);
      expect(spies.map((s) => s.mock.calls.length)).toEqual([1, 1]);
      expect(spies[0].mock.calls[0][0]).toHaveLength(2);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
  });
});

describe('search and redaction (e2e)', () => {
  const search = async (redact: 'on' | 'off', q: string) =>
    (
      await data(
        redact,
        `query($q: String!) { search(query: $q, first: 100, order: NEWEST_FIRST) {
           totalCount edges { node { ${HIT} } } } }`,
        { q },
      )
    ).search;

  it('with REDACT=on finds no planted secret by its value', async () => {
    for (const secret of [PASSWORD, JWT.slice(0, 40), GITHUB_TOKEN, AWS_KEY, 'MIIEpAIBAAKCAQEA']) {
      expect([secret, (await search('on', secret)).totalCount]).toEqual([secret, 0]);
    }
    // With REDACT=off the same values are found where they are.
    expect((await search('off', PASSWORD)).edges.map((e: Data) => label(e.node))).toEqual([
      `${IDS.acp} USER_REQUEST 0`,
      `${IDS.acp} CONTENT 0`,
    ]);
    expect((await search('off', AWS_KEY)).edges.map((e: Data) => label(e.node))).toEqual([
      `${IDS.many} THINKING 21`,
    ]);
    expect((await search('off', PRIVATE_KEY.split('\n')[1])).totalCount).toBe(1);
  });

  it('with REDACT=on finds the masked spans by REDACTED, snippets masked', async () => {
    const found = await search('on', 'REDACTED');
    expect(found.edges.map((e: Data) => label(e.node))).toEqual([
      `${IDS.acp} USER_REQUEST 0`,
      `${IDS.acp} CONTENT 0`,
      `${IDS.acp} CONTENT 1`,
      `${IDS.acp} TOOL_CALLS 1`,
      `${IDS.acp} ARTIFACT notes.md`,
      `${IDS.many} THINKING 21`,
    ]);
    expect(found.edges.map((e: Data) => [e.node.snippet, e.node.highlights])).toEqual([
      ['Deploy with password=[REDACTED:password] please', [{ start: 22, length: 8 }]],
      [expect.stringContaining('password=[REDACTED:password] please'), [{ start: 37, length: 8 }]],
      ['Use token [REDACTED:jwt] for zebrafish', [{ start: 11, length: 8 }]],
      ['run_command\ngh auth [REDACTED:github-token]', [{ start: 21, length: 8 }]],
      ['# Notes\n[REDACTED:private-key]\n', [{ start: 9, length: 8 }]],
      ['the key is [REDACTED:aws-access-key]', [{ start: 12, length: 8 }]],
    ]);
    expect((await search('off', 'REDACTED')).totalCount).toBe(0);
  });
});
