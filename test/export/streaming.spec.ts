import { exportSession } from '../../src/export/export-session';
import { fenced } from '../../src/export/fence';
import type { ExportProblem, ExportStep } from '../../src/export/types';
import { EXPORT_SESSION, EXPORT_STEPS } from '../../src/operations/documents';
import { OperationError } from '../../src/operations/operation-error';
import type { RunOperation } from '../../src/operations/run';
import { codeBlocks } from './fences';

/**
 * The exporters against a stand-in `run` serving a long synthetic session: pages are asked
 * for one at a time, only once the previous page's steps have been written, so memory holds
 * one page whatever the session's length.
 */

const ID = 'feed0000-0000-4000-8000-000000000000';
const session = {
  id: ID,
  root: { path: '/r', flavor: 'antigravity-ide', environment: 'IDE' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  userRequest: 'Show ``` and ```` fences',
  model: null,
  localTime: null,
  mentionedFiles: [],
  workspaceRoot: null,
  stepCount: 0,
  toolCallCount: 0,
  errorCount: 0,
  artifacts: [],
};

const LOST: ExportProblem = {
  code: 'MALFORMED_LINE',
  message: 'not JSON <here> | at column 3',
  file: '.system_generated/logs/transcript.jsonl',
  line: 7,
};
let problems: ExportProblem[] = [];

const TRICKY = 'before\n```js\nconst a = 1;\n```\nthen ````\nand ``` inline\n';

function step(position: number): ExportStep {
  return {
    index: position,
    position,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    createdAt: session.createdAt,
    content: position === 0 ? TRICKY : `step ${position} ${'x'.repeat(10_000)}`,
    thinking: null,
    error: null,
    truncatedFields: [],
    userRequest: null,
    toolCalls: [],
    output: null,
    tokens: null,
  };
}

/** A `run` over `total` steps; `pulled` counts the steps the consumer has taken so far. */
function fakeRun(
  total: number,
  log: { start: number; first: number; pulledBefore: number }[],
  pulled: () => number,
) {
  const run = ((document: string, variables: Record<string, unknown> = {}) => {
    if (document === EXPORT_SESSION)
      return Promise.resolve({ session: { ...session, stepCount: total, problems } });
    expect(document).toBe(EXPORT_STEPS);
    expect(variables.id).toBe(ID);
    const first = variables.first as number;
    const start = variables.after === null ? 0 : Number(variables.after) + 1;
    log.push({ start, first, pulledBefore: pulled() });
    const end = Math.min(total, start + first);
    const edges = Array.from({ length: end - start }, (_, i) => ({ node: step(start + i) }));
    return Promise.resolve({
      session: {
        steps: { pageInfo: { hasNextPage: end < total, endCursor: String(end - 1) }, edges },
      },
    });
  }) as RunOperation;
  return run;
}

describe('streamed exports', () => {
  it.each(['json', 'atif', 'markdown'] as const)(
    '%s: 2,000 steps in pages of 7, each page asked for after the previous one was written',
    async (format) => {
      const log: { start: number; first: number; pulledBefore: number }[] = [];
      let chunks = 0;
      const ex = await exportSession(
        fakeRun(2000, log, () => chunks),
        ID,
        format,
        {
          pageSize: 7,
        },
      );
      // Nothing is read before the first chunk is asked for.
      expect(log).toEqual([]);
      let bytes = 0;
      for await (const chunk of ex.chunks) {
        chunks++;
        bytes += chunk.length;
      }
      expect(log).toHaveLength(Math.ceil(2000 / 7));
      // Page p is asked for once the header and every step of pages 0..p-1 were taken: in JSON
      // a step is two chunks, its separator and its JSON (see jsonExport), in markdown one.
      const perStep = format === 'markdown' ? 1 : 2;
      log.forEach(({ start, pulledBefore }, p) => {
        expect(start).toBe(7 * p);
        expect(pulledBefore).toBe(1 + perStep * 7 * p);
      });
      // Pages are no larger than the steps the header counted: the last asks for 5.
      expect(log.map((l) => l.first).slice(-2)).toEqual([7, 5]);
      expect(bytes).toBeGreaterThan(2000 * 10_000);
    },
  );

  it('markdown fences hold ``` and ```` intact', async () => {
    const ex = await exportSession(
      fakeRun(1, [], () => 0),
      ID,
      'markdown',
    );
    let md = '';
    for await (const chunk of ex.chunks) md += chunk;
    const blocks = codeBlocks(md);
    expect(blocks.map((b) => [b.info, b.body, b.closed])).toEqual([
      ['text', 'Show ``` and ```` fences', true],
      ['markdown', TRICKY.replace(/\n$/, ''), true],
    ]);
    expect(fenced(TRICKY).split('\n')[0]).toBe('`````');
    expect(fenced('no ticks')).toBe('```\nno ticks\n```\n');
  });

  it('waits out RATE_LIMITED between pages (the limit holds, the download is slowed)', async () => {
    const log: { start: number; first: number; pulledBefore: number }[] = [];
    const inner = fakeRun(10, log, () => 0);
    let refusals = 2;
    const run = ((doc: string, vars?: Record<string, unknown>) => {
      if (doc === EXPORT_STEPS && vars?.after !== null && refusals-- > 0) {
        return Promise.reject(new OperationError('RATE_LIMITED', 'slow down', undefined, 7));
      }
      return inner(doc, vars);
    }) as RunOperation;
    const waits: number[] = [];
    const wait = (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    };
    const ex = await exportSession(run, ID, 'json', { pageSize: 4, wait });
    let text = '';
    for await (const chunk of ex.chunks) text += chunk;
    expect(waits).toEqual([7000, 7000]);
    expect((JSON.parse(text) as { steps: unknown[] }).steps).toHaveLength(10);
    expect(log.map((l) => [l.start, l.first])).toEqual([
      [0, 4],
      [4, 4],
      [8, 2],
    ]);
  });

  it('a page over the size or time limits is asked again smaller; one step too large comes from its compact record', async () => {
    const inner = fakeRun(10, [], () => 0);
    const calls: [number, number, boolean, string][] = [];
    const run = (async (doc: string, vars: Record<string, unknown> = {}) => {
      if (doc !== EXPORT_STEPS) return inner(doc, vars);
      const start = vars.after === null ? 0 : Number(vars.after) + 1;
      const first = vars.first as number;
      const full = vars.full as boolean;
      // Pages of more than 2 steps are too big; step 5 alone is too big at the full tier.
      const refused = first > 2 || (full && start <= 5 && 5 < start + first);
      calls.push([start, first, full, refused ? 'refused' : 'ok']);
      if (refused) throw new OperationError('QUERY_TOO_COMPLEX', 'over MAX_RESPONSE_BYTES');
      type Page = { session: { steps: { edges: { node: ExportStep }[] } } };
      const data = await inner<Page>(doc, vars);
      if (!full) {
        for (const { node } of data.session.steps.edges) {
          node.content = `compact ${node.position}`;
          node.truncatedFields = ['content'];
        }
      }
      return data;
    }) as RunOperation;
    const ex = await exportSession(run, ID, 'json', { pageSize: 4 });
    let text = '';
    for await (const chunk of ex.chunks) text += chunk;
    const steps = (JSON.parse(text) as { steps: ExportStep[] }).steps;
    expect(steps.map((s) => s.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([steps[5].content, steps[5].truncatedFields]).toEqual(['compact 5', ['content']]);
    expect(steps[6].content).toBe(`step 6 ${'x'.repeat(10_000)}`);
    // Four pages answered in a row double the size again.
    expect(calls).toEqual([
      [0, 4, true, 'refused'],
      [0, 2, true, 'ok'],
      [2, 2, true, 'ok'],
      [4, 2, true, 'refused'],
      [4, 1, true, 'ok'],
      [5, 1, true, 'refused'],
      [5, 1, false, 'ok'],
      [6, 1, true, 'ok'],
      [7, 1, true, 'ok'],
      [8, 1, true, 'ok'],
      [9, 1, true, 'ok'],
    ]);
  });

  it('markdown text outside fences carries no HTML a renderer would run', async () => {
    const evil = 'Evil | <img src=x onerror=alert(5)> & x';
    const run = ((doc: string, vars?: Record<string, unknown>) =>
      doc === EXPORT_SESSION
        ? Promise.resolve({ session: { ...session, model: evil, stepCount: 1, problems: [] } })
        : fakeRun(1, [], () => 0)(doc, vars)) as RunOperation;
    let text = '';
    for await (const chunk of (await exportSession(run, ID, 'markdown')).chunks) text += chunk;
    expect(text).toContain('| model | Evil \\| &lt;img src=x onerror=alert(5)&gt; &amp; x |\n');
    expect(text).not.toContain('<img');
  });

  it('ends with the problems of the session', async () => {
    problems = [
      LOST,
      { code: 'MISSING_FULL_RECORD', message: 'no full record', file: null, line: null },
    ];
    try {
      const read = async (format: 'json' | 'markdown' | 'atif') => {
        let text = '';
        for await (const c of (
          await exportSession(
            fakeRun(2, [], () => 0),
            ID,
            format,
          )
        ).chunks)
          text += c;
        return text;
      };
      expect((JSON.parse(await read('json')) as { problems: unknown }).problems).toEqual(problems);
      expect(
        (await read('markdown')).endsWith(
          '\n## Problems\n\n' +
            '- `MALFORMED_LINE` `.system_generated/logs/transcript.jsonl:7`: not JSON &lt;here&gt; \\| at column 3\n' +
            '- `MISSING_FULL_RECORD`: no full record\n',
        ),
      ).toBe(true);
      expect((JSON.parse(await read('atif')) as { notes: string }).notes).toBe(
        'Problems in the brain files:\n' +
          'MALFORMED_LINE .system_generated/logs/transcript.jsonl:7: not JSON <here> | at column 3\n' +
          'MISSING_FULL_RECORD: no full record',
      );
    } finally {
      problems = [];
    }
  });

  it('any other error mid-export rejects the chunks', async () => {
    const inner = fakeRun(10, [], () => 0);
    const run = ((doc: string, vars?: Record<string, unknown>) =>
      doc === EXPORT_STEPS && vars?.after !== null
        ? Promise.reject(new OperationError('INTERNAL_SERVER_ERROR', 'Internal server error'))
        : inner(doc, vars)) as RunOperation;
    const ex = await exportSession(run, ID, 'atif', { pageSize: 4 });
    const read = async () => {
      for await (const chunk of ex.chunks) void chunk;
    };
    await expect(read()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });
});
