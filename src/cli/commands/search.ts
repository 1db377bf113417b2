import type { Command } from 'commander';
import { SEARCH, SESSION } from '../../operations/documents';
import { flavorOption, withSession, type SessionOptions } from '../flavor';
import { integer, repeated, withCommon } from '../options';
import { shortIds, text } from '../output/format';
import type { Context } from './context';
import { requireSession } from '../session';
import { indexReady } from './index-ready';

const FIELDS = ['USER_REQUEST', 'CONTENT', 'THINKING', 'TOOL_CALLS', 'OUTPUT', 'ARTIFACT'] as const;

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
      .addOption(
        flavorOption(
          'only sessions in roots of this flavor; with --session, its copy there (also a shadowed one)',
        ),
      )
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
      o: SessionOptions & { session?: string; field: string[]; n: number; newest?: boolean },
    ) => {
      await withSession(ctx, o, async (source, out) => {
        const filter: Record<string, unknown> = {};
        // The session first: an unknown id exits 1 and an ambiguous one 3 with the
        // candidates, as every other command does (the query alone would say "no hits").
        if (o.session !== undefined) {
          const data = await source.run<{ session: { id: string } | null }>(SESSION, {
            id: o.session,
          });
          filter.session = requireSession(data.session).id;
        }
        // Only that root's texts: with --session, the copy resolved above (the source asked it).
        if (o.flavor !== undefined) filter.sessions = { flavor: [o.flavor] };
        if (o.field.length) filter.fields = o.field;
        await indexReady(source);
        const data = await source.run<SearchData>(SEARCH, {
          query: queryOf(words),
          first: o.n,
          filter,
          order: o.newest ? 'NEWEST_FIRST' : 'RELEVANCE',
        });
        const items = data.search.edges.map((e) => e.node);
        const shortId = shortIds(items.map((h) => h.session.id));
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
}
