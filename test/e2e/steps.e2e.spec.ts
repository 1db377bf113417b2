import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_FACTS, FIXTURE_IDS as I, PAIR_FACTS, REAL_FACTS } from '../fixtures/brain-home';
import { encodeArg, resultHeader, truncateText, userInputContent } from '../fixtures/records';
import { chunksOnlyRecords, DUP_2A, DUP_2B, MALFORMED_STEP4 } from '../fixtures/session-lines';
import {
  PAIR_PLAN,
  PAIR_REQUEST,
  PAIR_STEP3_THINKING,
  PAIR_STEP4_OUTPUT,
  pairRecords,
} from '../fixtures/session-pair';
import { allNewestFirst, createdAtOf, Data, useE2E } from './harness';
import { fromApi, oracleSteps, STEP_SELECTION } from './oracle';

const LOGS = '.system_generated/logs';
const STEP4_CONTENT = resultHeader('2026-05-28T09:00:04Z') + PAIR_STEP4_OUTPUT;

describe('steps (e2e)', () => {
  const e = useE2E();
  const steps = async (id: string, args = 'first: 500', fields = 'index'): Promise<Data> =>
    (
      await e.data(
        `query($id: String!) { session(id: $id) { steps(${args}) {
           totalCount edges { cursor node { ${fields} } } pageInfo { hasNextPage endCursor } } } }`,
        { id },
      )
    ).session.steps;
  const step = async (id: string, index: number, fields: string): Promise<Data> =>
    (
      await e.data(
        `query($id: String!, $i: Int!) { session(id: $id) { step(index: $i) { ${fields} } } }`,
        { id, i: index },
      )
    ).session.step;

  it('matches the naive reading of the files for every step of every session', async () => {
    let compared = 0;
    let truncated = 0;
    for (const id of allNewestFirst(e.fx)) {
      const got = await steps(id, 'first: 100', STEP_SELECTION);
      expect(got.pageInfo.hasNextPage).toBe(false);
      const want = oracleSteps(e.dirOf(id), createdAtOf(e.fx, id));
      compared += want.length;
      truncated += want.filter((s) => s.truncatedFields.length > 0).length;
      expect({ id, steps: got.edges.map((x: Data) => fromApi(x.node)) }).toEqual({
        id,
        steps: want,
      });
      expect(got.totalCount).toBe(want.length);
    }
    // Every record of every listed session was compared, including the real truncations.
    const counts = [...Object.values(FIXTURE_FACTS), ...Object.values(REAL_FACTS)];
    expect(compared).toBe(
      counts
        .filter((f) => !('onlyWith' in f) || f.onlyWith !== 'big')
        .reduce((n, f) => n + f.stepCount, 0),
    );
    expect(truncated).toBe(3 + 1 + 2 + 1 + 3 + 7); // pair, chunksOnly, duplicates, malformed, a704, 240f
  });

  describe('pair session, by hand', () => {
    it('lists the records in file order with positions, gaps kept', async () => {
      const s = await steps(I.pair, 'first: 500', 'index position type source status createdAt');
      expect(s.edges.map((x: Data) => x.node.index)).toEqual(PAIR_FACTS.stepIndices);
      expect(s.edges.map((x: Data) => x.node.position)).toEqual([...Array(16).keys()]);
      expect(s.edges.map((x: Data) => x.node.createdAt)).toEqual(
        pairRecords().map((r) => new Date(r.created_at!).toISOString()),
      );
      expect(s.edges.map((x: Data) => `${x.node.type}/${x.node.source}/${x.node.status}`)).toEqual(
        pairRecords().map((r) => `${r.type}/${r.source}/${r.status}`),
      );
      expect(s.totalCount).toBe(16);
      expect(s.pageInfo).toEqual({ hasNextPage: false, endCursor: s.edges[15].cursor });
    });

    it('reads truncated content from the full file (one line) and untruncated content as is', async () => {
      const fullLines = fs
        .readFileSync(path.join(e.dirOf(I.pair), LOGS, 'transcript_full.jsonl'), 'utf8')
        .split('\n');
      const s4 = await step(
        I.pair,
        4,
        'content full: content(full: true) truncatedFields userRequest',
      );
      expect(s4.full).toBe(STEP4_CONTENT);
      expect(s4.full).toBe(JSON.parse(fullLines[4]).content);
      expect(s4.content).toBe(truncateText(STEP4_CONTENT));
      expect(s4.content).toContain(`\n<truncated ${PAIR_FACTS.removedBytes.step4Content} bytes>\n`);
      expect(s4.truncatedFields).toEqual(['content']);
      expect(s4.userRequest).toBeNull();
      const s16 = await step(I.pair, 16, 'content full: content(full: true) truncatedFields');
      expect(s16).toEqual({
        content: 'Done. The plan is approved and the tests pass.',
        full: 'Done. The plan is approved and the tests pass.',
        truncatedFields: [],
      });
    });

    it('reads thinking truncated in the older style (marker, no truncated_fields)', async () => {
      const s3 = await step(
        I.pair,
        3,
        'thinking full: thinking(full: true) content truncatedFields tokens { input output cacheRead }',
      );
      expect(s3).toEqual({
        thinking: truncateText(PAIR_STEP3_THINKING),
        full: PAIR_STEP3_THINKING,
        content: null,
        truncatedFields: ['thinking'],
        tokens: { input: 1200, output: 345, cacheRead: 800 },
      });
      expect(s3.thinking).toContain('\n<truncated 904 bytes>\n');
    });

    it('decodes compact tool-call arguments, keeps a cut one raw, and reads full arguments plainly', async () => {
      const calls = 'position name args toolAction toolSummary';
      const s3 = await step(
        I.pair,
        3,
        `toolCalls { ${calls} } f: toolCalls(full: true) { ${calls} }`,
      );
      const run = {
        position: 0,
        name: 'run_command',
        args: {
          CommandLine: 'npm test',
          Cwd: '/work/p',
          WaitMsBeforeAsync: 5000,
          SafeToAutoRun: true,
          toolAction: 'Running tests',
          toolSummary: 'npm test',
        },
        toolAction: 'Running tests',
        toolSummary: 'npm test',
      };
      expect(s3).toEqual({ toolCalls: [run], f: [run] });

      const s6 = await step(
        I.pair,
        6,
        `toolCalls { ${calls} } f: toolCalls(full: true) { ${calls} } truncatedFields content`,
      );
      const common = {
        TargetFile: '/x/implementation_plan.md',
        Overwrite: false,
        ArtifactMetadata: { ArtifactType: 'implementation_plan', Summary: 'Plan' },
        toolAction: 'Writing plan',
        toolSummary: 'implementation_plan.md',
      };
      const write = (CodeContent: string) => [
        {
          position: 0,
          name: 'write_to_file',
          args: { ...common, CodeContent },
          toolAction: 'Writing plan',
          toolSummary: 'implementation_plan.md',
        },
      ];
      const raw = encodeArg(PAIR_PLAN);
      expect(raw).toMatch(/\n<truncated \d+ bytes>$/);
      expect(s6).toEqual({
        toolCalls: write(raw),
        f: write(PAIR_PLAN),
        truncatedFields: ['tool_calls'],
        content: 'I will write the implementation plan.',
      });
    });

    it('gives userRequest on USER_INPUT steps only (empty request: null)', async () => {
      const s = await steps(I.pair, 'first: 500', 'index type userRequest');
      const got = s.edges.map((x: Data) => [x.node.index, x.node.userRequest]);
      expect(got).toEqual(PAIR_FACTS.stepIndices.map((i) => [i, i === 0 ? PAIR_REQUEST : null]));
      const s12 = await step(I.pair, 12, 'type content');
      expect(s12.type).toBe('USER_INPUT');
      expect(s12.content).toContain('The user has approved this document.');
    });

    it('shows errors, statuses and the step outputs', async () => {
      expect(await step(I.pair, 15, 'type status error content')).toEqual({
        type: 'ERROR_MESSAGE',
        status: 'DONE',
        error: 'model quota exceeded',
        content: null,
      });
      expect(await step(I.pair, 14, 'status error')).toEqual({ status: 'ERROR', error: null });
      expect(await step(I.pair, 11, 'status')).toEqual({ status: 'RUNNING' });
      const out = 'output { file size text duplicatesContent }';
      expect((await step(I.pair, 4, out)).output).toEqual({
        file: 'output.txt',
        size: Buffer.byteLength(PAIR_STEP4_OUTPUT),
        text: PAIR_STEP4_OUTPUT,
        duplicatesContent: true,
      });
      expect((await step(I.pair, 9, out)).output).toEqual({
        file: 'content.md',
        size: 32,
        text: '# Example docs\n\nA fetched page.\n',
        duplicatesContent: false,
      });
      expect((await step(I.pair, 11, out)).output).toEqual({
        file: 'output.txt',
        size: 14,
        text: 'build started\n',
        duplicatesContent: false,
      });
      expect((await step(I.pair, 3, out)).output).toBeNull();
    });

    it('reads output byte ranges; a range cutting a character decodes the cut bytes as U+FFFD', async () => {
      const bytes = Buffer.from(PAIR_STEP4_OUTPUT);
      const rocket = bytes.indexOf(Buffer.from('\u{1F680}'));
      const e9 = bytes.indexOf(Buffer.from('é'));
      const text = async (offset: number, length: number): Promise<string> =>
        (await step(I.pair, 4, `output { text(offset: ${offset}, length: ${length}) }`)).output
          .text;
      expect(await text(0, 9)).toBe('PASS line');
      expect(await text(rocket, 4)).toBe('\u{1F680}');
      expect(await text(rocket, 13)).toBe('\u{1F680} launched');
      expect(await text(rocket + 1, 5)).toBe('\uFFFD\uFFFD\uFFFD l');
      expect(await text(rocket, 2)).toBe('\uFFFD');
      expect(await text(rocket - 2, 3)).toBe(
        bytes.subarray(rocket - 2, rocket).toString() + '\uFFFD',
      );
      expect(await text(e9 + 1, 3)).toBe('\uFFFD' + bytes.subarray(e9 + 2, e9 + 4).toString());
      expect(await text(bytes.length - 5, 100)).toBe(bytes.subarray(bytes.length - 5).toString());
      expect(await text(bytes.length, 10)).toBe('');
      expect(await text(bytes.length + 1000, 10)).toBe('');
      expect(await text(10, 0)).toBe('');
      const whole = await step(
        I.pair,
        4,
        'output { a: text b: text(offset: 0) c: text(length: 1048576) }',
      );
      expect(whole.output).toEqual({
        a: PAIR_STEP4_OUTPUT,
        b: PAIR_STEP4_OUTPUT,
        c: PAIR_STEP4_OUTPUT,
      });
    });
  });

  describe('paging and filters', () => {
    const indices = async (id: string, args: string): Promise<number[]> => {
      const s = await steps(id, args);
      expect(s.totalCount).toBe(s.edges.length);
      return s.edges.map((x: Data) => x.node.index);
    };

    it('pages by 5 to the end; the pages concatenate to the whole list', async () => {
      const got: number[] = [];
      const hasNext: boolean[] = [];
      let after: string | null = null;
      do {
        const d: Data = await e.data(
          `query($id: String!, $after: String) { session(id: $id) { steps(first: 5, after: $after) {
             totalCount edges { node { index } } pageInfo { hasNextPage endCursor } } } }`,
          { id: I.pair, after },
        );
        const s = d.session.steps;
        expect(s.totalCount).toBe(16);
        got.push(...s.edges.map((x: Data) => x.node.index));
        hasNext.push(s.pageInfo.hasNextPage);
        after = s.pageInfo.hasNextPage ? s.pageInfo.endCursor : null;
      } while (after);
      expect(got).toEqual(PAIR_FACTS.stepIndices);
      expect(hasNext).toEqual([true, true, true, false]);
    });

    it('pages through duplicates by position, not by step_index', async () => {
      const all = await steps(I.duplicates, 'first: 500', 'index position');
      const after = all.edges[2].cursor; // the first of the two step_index 2 records
      const d = await e.data(
        `query($id: String!, $a: String) { session(id: $id) { steps(first: 2, after: $a) {
           edges { node { index position } } } } }`,
        { id: I.duplicates, a: after },
      );
      expect(d.session.steps.edges.map((x: Data) => x.node)).toEqual([
        { index: 2, position: 3 },
        { index: 3, position: 4 },
      ]);
    });

    it('starts a page at a position (fromPosition): the page holding a step, and the one before', async () => {
      const page = async (args: string) => {
        const s = await steps(I.duplicates, args, 'index position');
        return [s.edges.map((x: Data) => [x.node.index, x.node.position]), s.pageInfo.hasNextPage];
      };
      expect(await page('first: 2, fromPosition: 3')).toEqual([
        [
          [2, 3],
          [3, 4],
        ],
        true,
      ]);
      expect(await page('first: 2, fromPosition: 1')).toEqual([
        [
          [1, 1],
          [2, 2],
        ],
        true,
      ]);
      // Its endCursor goes on as any page's.
      const s = await steps(I.duplicates, 'first: 2, fromPosition: 3', 'position');
      const next = await steps(
        I.duplicates,
        `first: 1, after: "${s.pageInfo.endCursor}"`,
        'position',
      );
      expect(next.edges.map((x: Data) => x.node.position)).toEqual([5]);
      expect(await page('first: 2, fromPosition: 1000')).toEqual([[], false]);
      expect(
        await steps(I.pair, 'first: 3, fromPosition: 2, filter: { sources: [SYSTEM] }', 'index'),
      ).toMatchObject({ totalCount: 3, edges: [{ node: { index: 2 } }, { node: { index: 15 } }] });
    });

    it('refuses a negative fromPosition, or one with after', async () => {
      const refused = async (args: string) =>
        (await e.error(`{ session(id: "${I.duplicates}") { steps(${args}) { totalCount } } }`))
          .message;
      expect(await refused('fromPosition: -1')).toBe('"fromPosition" must be 0 or more; got -1');
      const { endCursor } = (await steps(I.duplicates, 'first: 1', 'index')).pageInfo;
      expect(await refused(`fromPosition: 0, after: "${endCursor}"`)).toBe(
        '"fromPosition" and "after" each start a page: give one',
      );
    });

    it('filters by types, sources, statuses and toolName; totalCount follows', async () => {
      expect(await indices(I.pair, 'filter: { types: ["USER_INPUT"] }')).toEqual([0, 12]);
      expect(await indices(I.pair, 'filter: { types: ["GENERIC", "ERROR_MESSAGE"] }')).toEqual([
        4, 7, 9, 11, 14, 15,
      ]);
      expect(await indices(I.pair, 'filter: { sources: [SYSTEM] }')).toEqual([1, 2, 15]);
      expect(await indices(I.pair, 'filter: { sources: [USER_EXPLICIT, SYSTEM] }')).toEqual([
        0, 1, 2, 12, 15,
      ]);
      expect(await indices(I.pair, 'filter: { statuses: [RUNNING] }')).toEqual([11]);
      expect(await indices(I.pair, 'filter: { statuses: [ERROR, RUNNING] }')).toEqual([11, 14]);
      expect(await indices(I.pair, 'filter: { statuses: [CANCELLED] }')).toEqual([]);
      expect(await indices(I.pair, 'filter: { toolName: "run_command" }')).toEqual([3, 10, 13]);
      expect(await indices(I.pair, 'filter: { toolName: "write_to_file" }')).toEqual([6]);
      // Tool names match in any case (issue 19: `steps --tool` is case-insensitive).
      expect(await indices(I.pair, 'filter: { toolName: "RUN_COMMAND" }')).toEqual([3, 10, 13]);
      expect(
        await indices(I.pair, 'filter: { types: ["GENERIC"], statuses: [DONE], sources: [MODEL] }'),
      ).toEqual([4, 7, 9]);
      expect(await indices(I.pair, 'filter: { types: [] }')).toEqual(PAIR_FACTS.stepIndices);
      expect(await indices(I.noUserInput, 'filter: { sources: [USER_EXPLICIT] }')).toEqual([0]);
    });

    it('pages a filtered list', async () => {
      const s1 = await steps(I.pair, 'first: 2, filter: { sources: [MODEL] }');
      expect(s1.edges.map((x: Data) => x.node.index)).toEqual([3, 4]);
      expect(s1.totalCount).toBe(11);
      const s2 = await steps(
        I.pair,
        `first: 100, after: "${s1.pageInfo.endCursor}", filter: { sources: [MODEL] }`,
      );
      expect(s2.edges.map((x: Data) => x.node.index)).toEqual([6, 7, 8, 9, 10, 11, 13, 14, 16]);
      expect(s2.pageInfo.hasNextPage).toBe(false);
    });

    it('answers an empty connection for a session without records', async () => {
      expect(await steps(I.empty)).toEqual({
        totalCount: 0,
        edges: [],
        pageInfo: { hasNextPage: false, endCursor: null },
      });
    });
  });

  describe('step(index)', () => {
    it('returns the first record with that index, or null', async () => {
      const fields = 'index position content full: content(full: true) truncatedFields';
      const first = await step(I.duplicates, 2, fields);
      expect(first).toEqual({
        index: 2,
        position: 2,
        content: truncateText(DUP_2A),
        full: DUP_2A,
        truncatedFields: ['content'],
      });
      // The second record with index 2 is reached by listing; its twin is the second full one.
      const s = await steps(I.duplicates, 'first: 500', fields);
      expect(s.edges[3].node).toEqual({
        index: 2,
        position: 3,
        content: truncateText(DUP_2B),
        full: DUP_2B,
        truncatedFields: ['content'],
      });
      expect((await step(I.duplicates, 5, 'position')).position).toBe(5);
      expect(await step(I.duplicates, 4, 'position')).toBeNull(); // only in the full file
      expect(await step(I.pair, 5, 'position')).toBeNull(); // the 4 -> 6 gap
      expect(await step(I.pair, -1, 'position')).toBeNull();
      expect(await step(I.partialLast, 8, 'position')).toBeNull(); // the partial last line
      expect((await step(I.partialLast, 7, 'content')).content).toBe('Still writing...');
    });

    it('reads records across chunk cuts, also one cutting a character', async () => {
      const recs = chunksOnlyRecords();
      expect(await step(I.chunksOnly, 2, 'content')).toEqual({
        content: 'Looking at the café \u2615 menu.',
      });
      expect((await step(I.chunksOnly, 3, 'content')).content).toBe(recs[3].content);
      const s0 = await step(
        I.chunksOnly,
        0,
        'content full: content(full: true) truncatedFields userRequest',
      );
      expect(s0.full).toBe(recs[0].content);
      expect(s0.content).toBe(truncateText(recs[0].content!));
      expect(s0.truncatedFields).toEqual(['content']);
      expect(s0.userRequest).toContain('See @[deep/file.ts] for details.');
    });

    it('returns the compact value when the full twin is missing (malformed)', async () => {
      const s = await steps(I.malformed, 'first: 500', 'index position');
      expect(s.edges.map((x: Data) => x.node)).toEqual([
        { index: 0, position: 0 },
        { index: 1, position: 1 },
        { index: 3, position: 2 },
        { index: 4, position: 3 },
        { index: 5, position: 4 },
      ]);
      const s4 = await step(I.malformed, 4, 'content full: content(full: true) truncatedFields');
      const compact = truncateText(resultHeader('2026-05-23T09:00:04Z') + MALFORMED_STEP4);
      expect(s4).toEqual({ content: compact, full: compact, truncatedFields: ['content'] });
      expect((await step(I.malformed, 3, 'content')).content).toBe('index written as 3.0');
    });

    it('keeps records with invalid UTF-8 (U+FFFD) and escaped NUL', async () => {
      expect(await step(I.invalidUtf8, 1, 'content output { text size }')).toEqual({
        content: 'bad bytes: \uFFFD\uFFFD end',
        output: { text: 'out: \uFFFD\uFFFD\n', size: 8 },
      });
      expect((await step(I.invalidUtf8, 2, 'content')).content).toBe('nul:\u0000:end');
      expect(await step(I.invalidUtf8, 3, 'content')).toBeNull();
      expect((await step(I.invalidUtf8, 4, 'position')).position).toBe(3);
    });

    it('shows the session createdAt for steps without a valid created_at', async () => {
      const s = await steps(I.noCreatedAt, 'first: 500', 'createdAt');
      expect(s.edges.map((x: Data) => x.node.createdAt)).toEqual([
        '2026-05-19T12:00:00.000Z',
        '2026-05-19T12:00:00.000Z',
        '2026-05-19T12:00:00.000Z',
        '2026-05-19T12:30:00.000Z',
      ]);
    });

    it('uses full-only arguments as they are', async () => {
      expect(await step(I.fullOnly, 1, 'toolCalls(full: true) { args } truncatedFields')).toEqual({
        toolCalls: [{ args: { CommandLine: 'ls', Cwd: '/work/full', WaitMsBeforeAsync: 1000 } }],
        truncatedFields: [],
      });
      const u = await step(I.fullOnly, 0, 'content userRequest');
      expect(u.userRequest).toBe('Only the full file');
      expect(u.content).toBe(
        userInputContent({
          request: 'Only the full file',
          localTime: '2026-05-21T12:00:00+02:00',
          model: { from: 'None', to: 'Gemini 3.5 Flash (High)' },
        }),
      );
    });

    it('never serves an output through a link leading outside; FIFOs are absent', async () => {
      expect((await step(I.escapes, 3, 'output { file size text }')).output).toEqual({
        file: 'content.md',
        size: 28,
        text: 'Fallback content for step 3\n',
      });
      expect((await step(I.fifo, 1, 'output { file }')).output).toBeNull();
    });
  });
});
