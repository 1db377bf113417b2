import { exportSession } from '../../src/export/export-session';
import { fenced } from '../../src/export/fence';
import type { ExportStep } from '../../src/export/types';
import { EXPORT_SESSION, EXPORT_STEPS } from '../../src/operations/documents';
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
  log: { page: number; pulledBefore: number }[],
  pulled: () => number,
) {
  const run = ((document: string, variables: Record<string, unknown> = {}) => {
    if (document === EXPORT_SESSION)
      return Promise.resolve({ session: { ...session, stepCount: total } });
    expect(document).toBe(EXPORT_STEPS);
    expect(variables.id).toBe(ID);
    const first = variables.first as number;
    const start = variables.after === null ? 0 : Number(variables.after) + 1;
    log.push({ page: start / first, pulledBefore: pulled() });
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
      const log: { page: number; pulledBefore: number }[] = [];
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
      // Page p is asked for once the header and every step of pages 0..p-1 were taken.
      log.forEach(({ page, pulledBefore }, p) => {
        expect(page).toBe(p);
        expect(pulledBefore).toBe(1 + 7 * p);
      });
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
});
