import type { Command } from 'commander';
import { flavorOption, withSession, type SessionOptions } from '../flavor';
import { SESSION_SUMMARY } from '../../operations/documents';
import { requireSession } from '../session';
import { withCommon } from '../options';
import { localTime, text } from '../output/format';
import type { Printer } from '../output/printer';
import type { SessionRow } from '../source/list-types';
import { printArtifactTable, type ArtifactItem } from './artifact-table';
import type { Context } from './context';

export interface SummaryData extends SessionRow {
  artifacts: ArtifactItem[];
  problems: { code: string; message: string; file: string | null; line: number | null }[];
}

export function registerSummary(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('summary')
      .description("a session's metadata, counts, artifacts and problems")
      .argument('<id>', 'session id or unique prefix (4+ characters)')
      .addOption(flavorOption()),
  ).action(async (id: string, o: SessionOptions) => {
    await withSession(ctx, o, async (source, out) => {
      const data = await source.run<{ session: SummaryData | null }>(SESSION_SUMMARY, { id });
      printSummary(out, requireSession(data.session));
    });
  });
}

export function printSummary(out: Printer, s: SummaryData): void {
  if (out.json) {
    out.value(s);
    return;
  }
  out.title(`session ${s.id}`);
  out.fields([
    ['flavor', s.root.flavor],
    ['environment', s.root.environment],
    ['created', localTime(s.createdAt)],
    ['updated', localTime(s.updatedAt)],
    ['local time', s.localTime],
    ['model', s.model],
    ['workspace', s.workspaceRoot],
    ['steps', s.stepCount],
    ['tool calls', s.toolCallCount],
    ['errors', s.errorCount],
    ['mentioned', s.mentionedFiles.join(', ')],
    ['directory', `${s.root.path}/${s.id}`],
  ]);
  if (s.userRequest !== null) {
    out.heading('request');
    out.block(s.userRequest);
  }
  out.heading(`artifacts (${s.artifacts.length})`);
  if (s.artifacts.length > 0) printArtifactTable(out, s.artifacts);
  out.heading(`problems (${s.problems.length})`);
  if (s.problems.length > 0)
    out.table(
      [
        { header: 'code' },
        { header: 'file' },
        { header: 'line', align: 'right' },
        { header: 'message', flex: true },
      ],
      s.problems.map((p) => [p.code, text(p.file), text(p.line), p.message]),
    );
}
