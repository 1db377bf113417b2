import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BASES,
  buildFixtureHome,
  CLI_RUN_LOCAL_TIME,
  copyRealSessions,
  FIXTURE_FACTS,
  FIXTURE_IDS as I,
  FIXTURE_MTIME_MS,
  type FixtureHome,
  GEMINI,
  makeTempDir,
  PAIR_FACTS,
  REQUESTS,
} from '../../test/fixtures/brain-home';
import { put } from '../../test/fixtures/fs-util';
import {
  approvalPreamble,
  at,
  compactLine,
  filler,
  fullLine,
  jsonl,
  planner,
  userInput,
  userInputContent,
} from '../../test/fixtures/records';
import { CHUNKS_REQUEST } from '../../test/fixtures/session-lines';
import {
  COMPACT_FILE,
  copySession,
  fixtureStore,
  FULL_FILE,
  listedOf,
  measure,
} from '../../test/store-helpers';
import { summarize, userRequestOf, type SessionSummary } from './session-summary';
import { BrainStore } from './store';
import type { StepRecord } from './types';

/** Session-level facts from USER_INPUT text and tool calls, over fixture and real sessions. */

let fx: FixtureHome;
let store: BrainStore;

beforeAll(async () => {
  fx = buildFixtureHome(makeTempDir('brainql-summary-'));
  copyRealSessions(fx.home);
  store = fixtureStore(fx);
  await store.refresh();
});
afterAll(() => fs.rmSync(fx.dir, { recursive: true, force: true }));

const summaryOf = async (id: string): Promise<SessionSummary> =>
  store.summary(await listedOf(store, id));

const S = (
  createdAt: string,
  updatedAt: string,
  userRequest: string | null,
  model: string | null,
  localTime: string | null,
  counts: [number, number, number],
  mentionedFiles: string[] = [],
  workspaceRoot: string | null = null,
): SessionSummary => ({
  createdAt: new Date(createdAt),
  updatedAt: new Date(updatedAt),
  userRequest,
  model,
  localTime,
  mentionedFiles,
  workspaceRoot,
  stepCount: counts[0],
  toolCallCount: counts[1],
  errorCount: counts[2],
});

describe('userRequestOf', () => {
  it.each([
    [
      '<USER_REQUEST>\n  hello world \n</USER_REQUEST>\n<ADDITIONAL_METADATA>x</ADDITIONAL_METADATA>',
      'hello world',
    ],
    ['  no tag at all \n', 'no tag at all'],
    [approvalPreamble('file:///x/plan.md') + '<USER_REQUEST>\n\n</USER_REQUEST>', null],
    ['<USER_REQUEST> \t </USER_REQUEST>', null],
    ['', null],
    ['   ', null],
    [
      '<USER_REQUEST>\ncut before the closing tag\n<truncated 10 bytes>\n',
      'cut before the closing tag\n<truncated 10 bytes>',
    ],
    ['<USER_REQUEST>first</USER_REQUEST><USER_REQUEST>second</USER_REQUEST>', 'first'],
  ])('%j -> %j', (content, want) => expect(userRequestOf(content)).toBe(want));

  it('is null for a missing content', () => expect(userRequestOf(null)).toBeNull());
});

describe('summarize (pure)', () => {
  const rec = (over: Partial<StepRecord>): StepRecord => ({
    index: 0,
    position: 0,
    line: 1,
    occurrence: 0,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    createdAt: null,
    content: null,
    thinking: null,
    error: null,
    toolCalls: [],
    truncatedFields: [],
    tokens: null,
    ...over,
  });
  const call = (args: Record<string, unknown>) => ({
    position: 0,
    name: 'run_command',
    args,
    toolAction: null,
    toolSummary: null,
  });
  const fallback = {
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-02T00:00:00Z'),
  };

  it('falls back to the given times when no record has a valid created_at', () => {
    const s = summarize([rec({}), rec({})], [], fallback);
    expect([s.createdAt, s.updatedAt, s.stepCount]).toEqual([
      fallback.createdAt,
      fallback.updatedAt,
      2,
    ]);
  });

  it('takes the first valid created_at and the latest one, in any order', () => {
    const d = (s: string) => new Date(s);
    const s = summarize(
      [
        rec({}),
        rec({ createdAt: d('2026-05-02T00:00:00Z') }),
        rec({ createdAt: d('2026-05-05T00:00:00Z') }),
        rec({ createdAt: d('2026-05-01T00:00:00Z') }),
      ],
      [],
      fallback,
    );
    expect([s.createdAt, s.updatedAt]).toEqual([
      d('2026-05-02T00:00:00Z'),
      d('2026-05-05T00:00:00Z'),
    ]);
  });

  it('counts tool calls and errors (status ERROR or type ERROR_MESSAGE, once each)', () => {
    const s = summarize(
      [
        rec({ toolCalls: [call({}), call({})] }),
        rec({ status: 'ERROR' }),
        rec({ type: 'ERROR_MESSAGE', status: 'ERROR' }),
        rec({ type: 'ERROR_MESSAGE' }),
        rec({ status: 'CANCELLED', toolCalls: [call({})] }),
      ],
      [],
      fallback,
    );
    expect([s.stepCount, s.toolCallCount, s.errorCount]).toEqual([5, 3, 3]);
  });

  it('takes the first string Cwd of any tool call', () => {
    const s = summarize(
      [
        rec({ toolCalls: [call({ Cwd: 5 }), call({ CommandLine: 'x' })] }),
        rec({ toolCalls: [call({}), call({ Cwd: '/first' })] }),
        rec({ toolCalls: [call({ Cwd: '/second' })] }),
      ],
      [],
      fallback,
    );
    expect(s.workspaceRoot).toBe('/first');
  });

  it('reads request, model, local time and mentions from the USER_INPUT texts', () => {
    const texts = [
      approvalPreamble('file:///p.md') +
        '<USER_REQUEST>\n\n</USER_REQUEST>\nThe current local time is: 2026-05-10T11:00:00.123+02:00..\n@[a.ts] @[conversation:"Chat"]',
      userInputContent({
        request: 'Second @[b.ts] and @[a.ts]',
        localTime: '2026-05-11T00:00:00Z',
        model: { from: 'None', to: 'Model A' },
      }),
      'The user changed setting `Model Selection` from Model A to Model B. No need; then setting `Model Selection` from Model B to Model C.\nNo need to say. @[c.ts]',
    ];
    expect(summarize([], texts, fallback)).toMatchObject({
      userRequest: 'Second @[b.ts] and @[a.ts]',
      model: 'Model C',
      // only one final period is dropped
      localTime: '2026-05-10T11:00:00.123+02:00.',
      mentionedFiles: ['a.ts', 'b.ts', 'c.ts'],
    });
  });

  it('needs "No need" after a model change', () => {
    const s = summarize([], ['setting `Model Selection` from None to Model X.\nThanks'], fallback);
    expect(s.model).toBeNull();
  });
});

describe('summaries of the fixture sessions', () => {
  it('summarizes the pair', async () => {
    expect(await summaryOf(I.pair)).toEqual(
      S(
        FIXTURE_FACTS[I.pair].createdAt!,
        PAIR_FACTS.updatedAt,
        PAIR_FACTS.userRequest,
        PAIR_FACTS.model,
        PAIR_FACTS.localTime,
        [PAIR_FACTS.stepCount, PAIR_FACTS.toolCallCount, PAIR_FACTS.errorCount],
        [...PAIR_FACTS.mentionedFiles],
        PAIR_FACTS.workspaceRoot,
      ),
    );
  });

  it('reads a truncated USER_INPUT from its full twin (request and mention only there)', async () => {
    expect(await summaryOf(I.chunksOnly)).toEqual(
      S(
        '2026-05-27T09:00:00Z',
        '2026-05-27T09:00:04Z',
        CHUNKS_REQUEST,
        GEMINI,
        '2026-05-27T11:00:00+02:00',
        [5, 1, 0],
        ['deep/file.ts'],
      ),
    );
  });

  it('summarizes the line-structure sessions', async () => {
    expect(await summaryOf(I.duplicates)).toEqual(
      S(
        '2026-05-26T09:00:00Z',
        '2026-05-26T09:00:05Z',
        'Show me duplicates',
        GEMINI,
        '2026-05-26T10:00:00+01:00',
        [6, 0, 0],
      ),
    );
    expect(await summaryOf(I.partialLast)).toEqual(
      S(
        '2026-05-25T09:00:00Z',
        '2026-05-25T09:00:06Z',
        'Partial last line',
        GEMINI,
        '2026-05-25T10:00:00+01:00',
        [8, 1, 0],
      ),
    );
    expect(await summaryOf(I.noNewlineValid)).toEqual(
      S(
        '2026-05-24T09:00:00Z',
        '2026-05-24T09:00:02Z',
        'No final newline',
        GEMINI,
        '2026-05-24T10:00:00+01:00',
        [3, 0, 0],
      ),
    );
    expect(await summaryOf(I.malformed)).toEqual(
      S(
        '2026-05-23T09:00:00Z',
        '2026-05-23T09:00:05Z',
        'Malformed lines',
        GEMINI,
        '2026-05-23T10:00:00+01:00',
        [5, 0, 0],
      ),
    );
    expect(await summaryOf(I.invalidUtf8)).toEqual(
      S(
        '2026-05-22T09:00:00Z',
        '2026-05-22T09:00:04Z',
        'Bytes please',
        null,
        '2026-05-22T10:00:00+01:00',
        [4, 0, 0],
      ),
    );
  });

  it('summarizes sessions without USER_INPUT, without records, or with only the full file', async () => {
    expect(await summaryOf(I.noUserInput)).toEqual(
      S('2026-05-21T10:00:00Z', '2026-05-21T10:00:01Z', null, null, null, [2, 0, 0]),
    );
    const empty = await listedOf(store, I.empty);
    expect(await store.summary(empty)).toEqual(
      S(
        empty.createdAt.toISOString(),
        new Date(FIXTURE_MTIME_MS).toISOString(),
        null,
        null,
        null,
        [0, 0, 0],
      ),
    );
    expect(empty.createdAt.getTime()).toBe(FIXTURE_MTIME_MS);
    expect(await summaryOf(I.freshOnly)).toEqual(
      S(
        '2026-05-20T09:00:00Z',
        '2026-05-20T09:00:00Z',
        'Fresh session',
        GEMINI,
        '2026-05-20T10:00:00+01:00',
        [1, 0, 0],
      ),
    );
    expect(await summaryOf(I.fullOnly)).toEqual(
      S(
        '2026-05-21T10:00:00Z',
        '2026-05-21T10:00:02Z',
        'Only the full file',
        GEMINI,
        '2026-05-21T12:00:00+02:00',
        [3, 1, 0],
        [],
        '/work/full',
      ),
    );
  });

  it('uses only valid created_at values, else the oldest and newest file times', async () => {
    expect(await summaryOf(I.noCreatedAt)).toEqual(
      S(
        '2026-05-19T12:00:00Z',
        '2026-05-19T12:30:00Z',
        'No zone on the first record',
        null,
        '2026-05-31T18:15:58+01:00',
        [4, 0, 0],
      ),
    );
    const listed = await listedOf(store, I.noValidCreatedAt);
    expect(await store.summary(listed)).toEqual(
      S(
        listed.createdAt.toISOString(),
        new Date(FIXTURE_MTIME_MS).toISOString(),
        'Nothing valid',
        null,
        '2026-05-31T18:15:58+01:00',
        [3, 0, 0],
      ),
    );
    expect(listed.createdAt.getTime()).toBe(FIXTURE_MTIME_MS);
  });

  it('summarizes the simple sessions of every root', async () => {
    const simple = (key: keyof typeof REQUESTS & keyof typeof BASES, localTime?: string) => {
      const base = BASES[key];
      return S(base, at(base, 2), REQUESTS[key], GEMINI, localTime ?? at(base, 0), [3, 0, 0]);
    };
    for (const key of [
      'twoRoots',
      'tieRoots',
      'prefixA',
      'prefixB',
      'prefixExact',
      'prefixLonger',
      'upperId',
      'jetskiRun',
      'linkInside',
    ] as const) {
      expect([key, await summaryOf(I[key])]).toEqual([key, simple(key)]);
    }
    expect(await summaryOf(I.cliRun)).toEqual(simple('cliRun', CLI_RUN_LOCAL_TIME));
    expect(await summaryOf(I.acpRun)).toEqual(
      S(
        '2026-05-11T09:00:00Z',
        '2026-05-11T09:00:01Z',
        'CI: generate tests',
        GEMINI,
        '2026-05-11T09:00:00Z',
        [2, 0, 0],
      ),
    );
    expect(await summaryOf(I.escapes)).toEqual(
      S(
        '2026-05-13T09:00:00Z',
        '2026-05-13T09:00:03Z',
        'Escapes',
        GEMINI,
        '2026-05-13T10:00:00+01:00',
        [4, 1, 0],
      ),
    );
    expect(await summaryOf(I.fifo)).toEqual(
      S(
        '2026-05-12T09:00:00Z',
        '2026-05-12T09:00:02Z',
        'Fifo',
        GEMINI,
        '2026-05-12T10:00:00+01:00',
        [3, 0, 0],
      ),
    );
  });

  it('gives every listed session the userRequest and model of the facts', async () => {
    for (const [id, facts] of Object.entries(FIXTURE_FACTS)) {
      if (facts.onlyWith === 'big') continue;
      const s = await summaryOf(id);
      expect([id, s.userRequest, s.model, s.stepCount]).toEqual([
        id,
        facts.userRequest,
        facts.model,
        facts.stepCount,
      ]);
    }
  });
});

describe('summaries of the real sessions', () => {
  const PROJECT = '/Users/ly/Desktop/antigravity project/suivi-ca-app';
  it('summarizes the compact and full-only real transcripts', async () => {
    expect(await summaryOf('9e779ff1-280b-47ed-945f-565cd870ce83')).toEqual(
      S(
        '2026-06-25T20:02:49Z',
        '2026-06-25T20:06:33Z',
        "a fin de ne pas perdre le logique de l'application et si je perd les infos sur cette appareil, je veux l'historique de conversasation soit preserver et le walkthrou",
        GEMINI,
        '2026-06-25T21:02:49+01:00',
        [61, 27, 0],
        [],
        PROJECT,
      ),
    );
    expect(await summaryOf('a704176f-0000-4000-8000-000000000000')).toEqual(
      S(
        '2026-06-25T17:15:58Z',
        '2026-06-25T17:25:41Z',
        'comment je peux continuer le travail de ce projet dans une autre appareil ?',
        GEMINI,
        '2026-06-25T18:15:58+01:00',
        [38, 15, 0],
        [],
        PROJECT,
      ),
    );
    expect(await summaryOf('240ff5ee-02e7-4b54-849e-917d5042eae3')).toEqual(
      S(
        '2026-06-16T10:44:34Z',
        '2026-06-16T11:02:30Z',
        '[baseline-browser-mapping] The data in this module is over two months old.  To ensure accurate Baseline data, please update: `npm i baseline-browser-mapping@latest -D`',
        GEMINI,
        '2026-06-16T11:44:34+01:00',
        [60, 23, 1],
        [],
        PROJECT,
      ),
    );
  });
});

describe('summaries of hand-made sessions', () => {
  let work: string;
  let n = 0;
  beforeAll(() => {
    work = makeTempDir('brainql-summary-work-');
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  const T = (s: number) => at('2026-04-01T08:00:00Z', s);

  async function summaryFor(compact: string, full?: string): Promise<SessionSummary> {
    const root = path.join(work, `h${n++}`, 'brain');
    const dir = path.join(root, `sess${n}`);
    put(path.join(dir, COMPACT_FILE), compact);
    if (full !== undefined) put(path.join(dir, FULL_FILE), full);
    const s = new BrainStore({ geminiHome: null, brainRoots: [root], rescanMs: 3_600_000 });
    await s.refresh();
    return s.summary(await listedOf(s, `sess${n}`));
  }

  it('skips an artifact approval with an empty request and takes the next request', async () => {
    const recs = [
      userInput(0, T(0), {
        preamble: approvalPreamble('file:///x/implementation_plan.md'),
        request: '',
        localTime: '2026-04-01T10:00:00+02:00',
        model: { from: 'None', to: 'Model A' },
      }),
      planner(1, T(1), { content: 'ok' }),
      userInput(2, T(2), {
        request: '  Next request @[x.ts]  ',
        localTime: '2026-04-01T10:00:02+02:00',
      }),
      userInput(3, T(3), {
        request: 'Third @[x.ts] @[y.ts]',
        localTime: '2026-04-01T10:00:03+02:00',
        model: { from: 'Model A', to: 'Model B' },
      }),
    ];
    expect(await summaryFor(jsonl(recs.map(compactLine)))).toEqual(
      S(
        T(0),
        T(3),
        'Next request @[x.ts]',
        'Model B',
        '2026-04-01T10:00:00+02:00',
        [4, 0, 0],
        ['x.ts', 'y.ts'],
      ),
    );
  });

  it('uses the compact text of a truncated USER_INPUT when its full twin is missing', async () => {
    const long =
      'Start @[head.ts]\n' + filler(3000, 'req') + '@[middle.ts]' + filler(3000, 'req') + ' end';
    const rec = userInput(0, T(0), { request: long, localTime: '2026-04-01T10:00:00+02:00' });
    const other = planner(1, T(1), { content: 'x' });
    const s = await summaryFor(
      jsonl([compactLine(rec), compactLine(other)]),
      jsonl([fullLine(other)]),
    );
    expect(s.mentionedFiles).toEqual(['head.ts']);
    expect(s.userRequest?.startsWith('Start @[head.ts]\n')).toBe(true);
    expect(s.userRequest).toMatch(/\n<truncated \d+ bytes>\n/);
    const whole = await summaryFor(
      jsonl([compactLine(rec), compactLine(other)]),
      jsonl([fullLine(rec), fullLine(other)]),
    );
    expect([whole.userRequest, whole.mentionedFiles]).toEqual([long, ['head.ts', 'middle.ts']]);
  });

  it('follows a growing transcript', async () => {
    const dir = copySession(path.join(fx.roots.ide, I.freshOnly), path.join(work, 'grow', 'brain'));
    const s = new BrainStore({
      geminiHome: null,
      brainRoots: [path.dirname(dir)],
      rescanMs: 3_600_000,
    });
    await s.refresh();
    const listed = await listedOf(s, I.freshOnly);
    expect((await s.summary(listed)).stepCount).toBe(1);
    fs.appendFileSync(
      path.join(dir, COMPACT_FILE),
      jsonl([
        compactLine(
          planner(1, '2026-05-20T09:05:00Z', {
            tool_calls: [{ name: 'run_command', args: { Cwd: '/grown' } }],
          }),
        ),
        compactLine({
          ...planner(2, '2026-05-20T09:06:00Z'),
          type: 'ERROR_MESSAGE',
          error: 'boom',
        }),
      ]),
    );
    expect(await s.summary(listed)).toEqual(
      S(
        '2026-05-20T09:00:00Z',
        '2026-05-20T09:06:00Z',
        'Fresh session',
        GEMINI,
        '2026-05-20T10:00:00+01:00',
        [3, 1, 1],
        [],
        '/grown',
      ),
    );
  });
  it('follows a change of the transcript that adds no record (updatedAt from its mtime)', async () => {
    const dir = copySession(
      path.join(fx.roots.ide, I.noValidCreatedAt),
      path.join(work, 'mtime', 'brain'),
    );
    const s = new BrainStore({
      geminiHome: null,
      brainRoots: [path.dirname(dir)],
      rescanMs: 3_600_000,
    });
    await s.refresh();
    const listed = await listedOf(s, I.noValidCreatedAt);
    const file = path.join(dir, COMPACT_FILE);
    const first = new Date('2026-06-01T00:00:00Z');
    fs.utimesSync(file, first, first);
    expect((await s.summary(listed)).updatedAt).toEqual(first);
    fs.appendFileSync(file, '\n{"not":"a record"}\n');
    const later = new Date('2026-06-02T00:00:00Z');
    fs.utimesSync(file, later, later);
    const after = await s.summary(listed);
    expect([after.updatedAt, after.stepCount]).toEqual([later, 3]);
  });
});

describe('cost of summaries', () => {
  it('reads no full transcript for a session whose USER_INPUTs are not truncated', async () => {
    const fresh = fixtureStore(fx);
    const listed = await listedOf(fresh, I.pair);
    const m = await measure(() => fresh.summary(listed));
    expect(m.opens).toEqual([COMPACT_FILE]);
    expect(m.bytes).toBe(fs.statSync(path.join(listed.entry.realDir, COMPACT_FILE)).size);
  });
});
