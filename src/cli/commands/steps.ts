import type { Command } from 'commander';
import { flavorOption, withSession, type SessionOptions } from '../flavor';
import { STEP, STEPS, TOOLS } from '../../operations/documents';
import { requireSession } from '../session';
import { notFound } from '../errors';
import { integer, repeated, withCommon } from '../options';
import { text } from '../output/format';
import type { Run } from '../source/source';
import type { Context } from './context';
import { printStep, printSteps, type StepItem } from './step-print';

/** `steps`, `step` and `tools`: a session's records. */

interface Page<T> {
  session: {
    steps: {
      totalCount: number;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: { node: T }[];
    };
  } | null;
}

/** Steps per query; at the full tier each step costs ~130 points, so a page stays far under the limit. */
const MAX_PAGE = 500;
const MAX_FULL_PAGE = 100;
const ID = ['<id>', 'session id or unique prefix (4+ characters)'] as const;

/**
 * Steps `offset` to `offset + limit` (all after `offset` when limit is null), a page at a time
 * (cursors are opaque, so an offset is skipped by paging over it).
 */
export async function readSteps<T>(
  run: Run,
  document: string,
  vars: Record<string, unknown>,
  offset: number,
  limit: number | null,
): Promise<{ items: T[]; totalCount: number }> {
  const items: T[] = [];
  let skip = offset;
  let after: string | null = null;
  let totalCount = 0;
  const page = vars.full === true ? MAX_FULL_PAGE : MAX_PAGE;
  for (;;) {
    const want = limit === null ? page : Math.min(page, skip + limit - items.length);
    if (want <= 0) break;
    const data: Page<T> = await run<Page<T>>(document, { ...vars, first: want, after });
    const steps = requireSession(data.session).steps;
    totalCount = steps.totalCount;
    let nodes = steps.edges.map((e) => e.node);
    const skipped = Math.min(skip, nodes.length);
    nodes = nodes.slice(skipped);
    skip -= skipped;
    for (const node of limit === null ? nodes : nodes.slice(0, limit - items.length))
      items.push(node);
    if (!steps.pageInfo.hasNextPage || (limit !== null && items.length >= limit)) break;
    after = steps.pageInfo.endCursor;
  }
  return { items, totalCount };
}

export function registerSteps(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('steps')
      .description('one line per step (record), in file order')
      .argument(ID[0], ID[1])
      .addOption(flavorOption())
      .option('-n <count>', 'at most this many steps (default: all)', integer(1))
      .option('--offset <k>', 'skip the first K steps', integer(0), 0)
      .option(
        '--type <type>',
        'only records of this type, e.g. planner_response (repeatable)',
        repeated(),
        [],
      )
      .option('--tool <name>', 'only steps with a call of this tool')
      .option('--full', 'untruncated content, thinking and arguments (full tier)'),
  ).action(
    async (
      id: string,
      o: SessionOptions & {
        n?: number;
        offset: number;
        type: string[];
        tool?: string;
        full?: boolean;
      },
    ) => {
      await withSession(ctx, o, async (source, out) => {
        const filter: Record<string, unknown> = {};
        if (o.type.length) filter.types = o.type.map((t) => t.toUpperCase());
        if (o.tool !== undefined) filter.toolName = o.tool;
        const vars = { id, filter, full: o.full === true };
        const { items, totalCount } = await readSteps<StepItem>(
          source.run,
          STEPS,
          vars,
          o.offset,
          o.n ?? null,
        );
        printSteps(out, items, totalCount);
      });
    },
  );

  withCommon(
    program
      .command('step')
      .description('one step: content, thinking, tool calls, results, output')
      .argument(ID[0], ID[1])
      .argument('<index>', 'the step_index', integer(0))
      .addOption(flavorOption())
      .option('--full', 'untruncated values (full tier)'),
  ).action(async (id: string, index: number, o: SessionOptions & { full?: boolean }) => {
    await withSession(ctx, o, async (source, out) => {
      type One = { session: { step: StepItem | null } | null };
      const data = await source.run<One>(STEP, { id, index, full: o.full === true });
      const step = requireSession(data.session).step;
      if (!step) throw notFound(`step ${index}`);
      printStep(out, step);
    });
  });

  withCommon(
    program
      .command('tools')
      .description('every tool call, with its result')
      .argument(ID[0], ID[1])
      .addOption(flavorOption()),
  ).action(async (id: string, o: SessionOptions) => {
    await withSession(ctx, o, async (source, out) => {
      type S = Pick<StepItem, 'index' | 'position' | 'type' | 'status' | 'toolCalls'>;
      const { items: steps } = await readSteps<S>(source.run, TOOLS, { id }, 0, null);
      const items = steps.flatMap((s) =>
        s.toolCalls.map((c) => ({
          step: { index: s.index, position: s.position, type: s.type, status: s.status },
          ...c,
        })),
      );
      if (out.json) return out.value({ items });
      out.table(
        [
          { header: 'step', align: 'right' },
          { header: '#', align: 'right' },
          { header: 'tool' },
          { header: 'result' },
          { header: 'summary', flex: true },
        ],
        items.map((c) => [
          text(c.step.index),
          text(c.position),
          c.name,
          c.result ? `${c.result.index} ${c.result.status}` : '',
          c.toolSummary ?? c.toolAction ?? JSON.stringify(c.args),
        ]),
      );
    });
  });
}
