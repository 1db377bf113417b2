import type { Command } from 'commander';
import { ENVIRONMENTS } from '../../brain/types';
import { impossibleDate } from '../../graphql/strict-date-time';
import { STATS } from '../../operations/documents';
import { usage } from '../errors';
import { repeated, withCommon, type CommonOptions } from '../options';
import { text } from '../output/format';
import type { Printer } from '../output/printer';
import type { Context } from './context';
import { indexReady } from './index-ready';

/** `stats`: the Stats numbers over the sessions a filter keeps. */

export function registerStats(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('stats')
      .description(
        'numbers over the sessions: steps, tool calls, errors, commands, changes, breakdowns',
      )
      .option(
        '--since <date>',
        'only sessions created at or after DATE (ISO-8601, e.g. 2026-06-01)',
      )
      .option(
        '--env <env>',
        'only this environment: ide, cli, acp, other (repeatable)',
        repeated(ENVIRONMENTS),
        [],
      ),
  ).action(async (o: CommonOptions & { since?: string; env: string[] }) => {
    await ctx.with(o, async (source, out) => {
      const filter: Record<string, unknown> = {};
      if (o.since !== undefined) filter.createdAfter = dateArg(o.since);
      if (o.env.length) filter.environment = o.env;
      await indexReady(source);
      const data = await source.run<{ stats: Stats }>(STATS, { filter });
      printStats(out, data.stats);
    });
  });
}

interface Count {
  key: string | null;
  count: number;
}
interface Stats {
  sessions: number;
  steps: number;
  toolCalls: number;
  errors: number;
  commands: number;
  failedCommands: number;
  fileChanges: number;
  linesAdded: number;
  linesRemoved: number;
  byEnvironment: Count[];
  byFlavor: Count[];
  byModel: Count[];
  byStepType: Count[];
  byStatus: Count[];
  byTool: { name: string; calls: number; errors: number }[];
  timeline: unknown[];
}

function printStats(out: Printer, s: Stats): void {
  if (out.json) return out.value(s);
  out.fields([
    ['sessions', s.sessions],
    ['steps', s.steps],
    ['tool calls', s.toolCalls],
    ['errors', s.errors],
    ['commands', s.commands],
    ['failed commands', s.failedCommands],
    ['file changes', s.fileChanges],
    ['lines added', s.linesAdded],
    ['lines removed', s.linesRemoved],
  ]);
  const counts = (title: string, list: Count[]) => {
    if (list.length === 0) return;
    out.heading(title);
    out.table(
      [{ header: 'key' }, { header: 'count', align: 'right' }],
      list.map((c) => [c.key ?? '(none)', text(c.count)]),
    );
  };
  counts('by environment', s.byEnvironment);
  counts('by flavor', s.byFlavor);
  counts('by model', s.byModel);
  counts('by step type', s.byStepType);
  counts('by status', s.byStatus);
  if (s.byTool.length > 0) {
    out.heading('by tool');
    out.table(
      [
        { header: 'tool' },
        { header: 'calls', align: 'right' },
        { header: 'errors', align: 'right' },
      ],
      s.byTool.map((t) => [t.name, text(t.calls), text(t.errors)]),
    );
  }
}

/** An ISO-8601 date or date-time; a bare date is midnight UTC. */
export function dateArg(value: string): string {
  const v = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value;
  const t = new Date(v);
  // The server's rule (impossibleDate): new Date rolls 2026-02-30 over to March 2.
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(t.getTime()) || impossibleDate(v))
    throw usage(`--since: ${JSON.stringify(value)} is not an ISO-8601 date, e.g. 2026-06-01`);
  return t.toISOString();
}
