import type { Command } from 'commander';
import { SEARCH, STATS } from '../../operations/documents';
import { integer, repeated, withCommon, type CommonOptions } from '../options';
import { shortId, text } from '../output/format';
import { usage } from '../errors';
import type { Context } from './context';
import { indexReady } from './index-ready';

const FIELDS = ['USER_REQUEST', 'CONTENT', 'THINKING', 'TOOL_CALLS', 'OUTPUT', 'ARTIFACT'] as const;
const ENVIRONMENTS = ['IDE', 'CLI', 'ACP', 'OTHER'] as const;

interface Hit {
  session: { id: string; createdAt: string; userRequest: string | null };
  field: string;
  step: { index: number; position: number; type: string } | null;
  artifact: string | null;
  snippet: string;
  highlights: { start: number; length: number }[];
  matchCount: number;
  score: number;
}

interface SearchData {
  search: { totalCount: number; edges: { node: Hit }[] };
}

/** Words as given; one holding spaces is a phrase (quoted for the query syntax). */
export function queryOf(words: readonly string[]): string {
  return words.map((w) => (/\s/.test(w) && !w.includes('"') ? `"${w}"` : w)).join(' ');
}

export function registerSearch(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('search')
      .description(
        'texts of every session holding every term (requests, content, thinking, tool calls, outputs, artifacts)',
      )
      .argument('<text...>', 'terms (3+ characters each); an argument with spaces is a phrase')
      .option('--session <id>', 'only this session (id or unique prefix)')
      .option(
        '--field <field>',
        `only these texts: ${FIELDS.map((f) => f.toLowerCase()).join(', ')} (repeatable)`,
        repeated(FIELDS),
        [],
      )
      .option('-n <count>', 'at most this many hits (1 to 100)', integer(1), 20)
      .option('--newest', 'newest sessions first instead of by relevance'),
  ).action(
    async (
      words: string[],
      o: CommonOptions & { session?: string; field: string[]; n: number; newest?: boolean },
    ) => {
      await ctx.with(o, async (source, out) => {
        const filter: Record<string, unknown> = {};
        if (o.session !== undefined) filter.session = o.session;
        if (o.field.length) filter.fields = o.field;
        await indexReady(source);
        const data = await source.run<SearchData>(SEARCH, {
          query: queryOf(words),
          first: o.n,
          filter,
          order: o.newest ? 'NEWEST_FIRST' : 'RELEVANCE',
        });
        const items = data.search.edges.map((e) => e.node);
        if (out.json) return out.value({ items, totalCount: data.search.totalCount });
        out.table(
          [
            { header: 'session' },
            { header: 'step', align: 'right' },
            { header: 'field' },
            { header: 'snippet', flex: true },
          ],
          items.map((h) => [
            shortId(h.session.id),
            h.step ? text(h.step.index) : text(h.artifact),
            h.field,
            h.snippet,
          ]),
        );
        if (!out.md && data.search.totalCount > items.length)
          out.write(out.c.dim(`${items.length} of ${data.search.totalCount} hits (-n for more)\n`));
      });
    },
  );

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

function printStats(out: import('../output/printer').Printer, s: Stats): void {
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
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(t.getTime()))
    throw usage(`--since: ${JSON.stringify(value)} is not an ISO-8601 date, e.g. 2026-06-01`);
  return t.toISOString();
}
