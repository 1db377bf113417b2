import type { Command } from 'commander';
import { ENVIRONMENTS } from '../../brain/types';
import { noSuchFlavor } from '../flavor';
import { hoursOfWeek, integer, repeated, withCommon, type CommonOptions } from '../options';
import { localTime, shortIds, text } from '../output/format';
import type { Printer } from '../output/printer';
import type { ListResult } from '../source/list-types';
import type { Context } from './context';
import { indexReady } from './index-ready';

interface ListOptions extends CommonOptions {
  n: number;
  all?: boolean;
  asc?: boolean;
  flavor: string[];
  env: string[];
  q?: string;
  tool: string[];
  hour: number[];
}

export function registerList(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('list')
      .description('sessions, newest first: id, created, steps, tool calls, errors, model, request')
      .option('-n <count>', 'how many sessions', integer(1), 20)
      .option('--all', 'every session')
      .option('--asc', 'oldest first')
      .option('--flavor <flavor>', 'only this root flavor (repeatable)', repeated(), [])
      .option(
        '--env <env>',
        'only this environment: ide, cli, acp, other (repeatable)',
        repeated(ENVIRONMENTS),
        [],
      )
      .option('-q <text>', 'only sessions whose request contains TEXT (case-insensitive)')
      .option(
        '--tool <name>',
        'only sessions that called this tool, in any case (repeatable; from the home index)',
        repeated(),
        [],
      )
      .option(
        '--hour <hour>',
        'only sessions with a step in this hour of the week, UTC: wed-10, or 0 (Monday 00:00) to 167 (repeatable; from the home index)',
        hoursOfWeek,
        [],
      ),
  ).action(async (o: ListOptions) => {
    await ctx.with(o, async (source, out) => {
      // As search and stats: a session the index has not read yet would match no tool or hour.
      if (o.tool.length || o.hour.length) await indexReady(source);
      const result = await source.list({
        limit: o.all ? null : o.n,
        oldestFirst: o.asc === true,
        environments: o.env,
        flavors: o.flavor,
        query: o.q ?? null,
        tools: o.tool,
        hours: o.hour,
      });
      const unknown = o.flavor.filter((f) => !result.flavors.includes(f));
      if (unknown.length > 0) throw noSuchFlavor(unknown, result.flavors);
      printList(out, result);
    });
  });
}

export function printList(out: Printer, result: ListResult): void {
  if (out.json) {
    out.value({ items: result.items, totalCount: result.totalCount });
    return;
  }
  const shortId = shortIds(result.items.map((s) => s.id));
  out.table(
    [
      // On a narrow terminal the model gives way first; the id, the day and the request's
      // first words stay readable longest. Where even they cannot fit (COLUMNS=40), the
      // counts and the model are left out rather than cut to `ste…`: the id names the session.
      { header: 'id', keep: 8 },
      { header: 'created', keep: 11, drop: 5 },
      { header: 'steps', align: 'right', drop: 2 },
      { header: 'tools', align: 'right', drop: 1 },
      { header: 'errors', align: 'right', drop: 3 },
      { header: 'model', drop: 4 },
      { header: 'request', flex: true, keep: 12 },
    ],
    result.items.map((s) => [
      shortId(s.id),
      localTime(s.createdAt),
      text(s.stepCount),
      text(s.toolCallCount),
      text(s.errorCount),
      text(s.model),
      text(s.userRequest),
    ]),
  );
  if (!out.md && result.totalCount > result.items.length)
    out.note(`${result.items.length} of ${result.totalCount} sessions (--all or -n for more)`);
}
