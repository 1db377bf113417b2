import type { Command } from 'commander';
import { flavorOption, withSession, type SessionOptions } from '../flavor';
import { ARTIFACT, ARTIFACTS, COMMANDS, FILE_CHANGES } from '../../operations/documents';
import { requireSession } from '../session';
import { notFound } from '../errors';
import { withCommon } from '../options';
import { text } from '../output/format';
import { clean } from '../output/style';
import { printArtifactTable, type ArtifactItem } from './artifact-table';
import type { Context } from './context';

/** `commands`, `changes` and `artifacts`: a session's Activity lists and documents. */

interface CommandItem {
  step: { index: number; position: number };
  toolCallPosition: number;
  commandLine: string;
  cwd: string | null;
  result: { index: number; position: number; type: string; status: string } | null;
  background: boolean;
  exitCode: number | null;
  output: string | null;
  taskLog: string | null;
}

interface ChangeItem {
  step: { index: number; position: number };
  toolCallPosition: number;
  tool: string;
  path: string;
  kind: string;
  description: string | null;
  complete: boolean;
  linesAdded: number;
  linesRemoved: number;
  diff: string;
  status: string | null;
}

const ID = ['<id>', 'session id or unique prefix (4+ characters)'] as const;

export function registerLists(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('commands')
      .description('every run_command call, with its exit code')
      .argument(ID[0], ID[1])
      .addOption(flavorOption()),
  ).action(async (id: string, o: SessionOptions) => {
    await withSession(ctx, o, async (source, out) => {
      const data = await source.run<{ session: { commands: CommandItem[] } | null }>(COMMANDS, {
        id,
      });
      const items = requireSession(data.session).commands;
      if (out.json) return out.value({ items });
      out.table(
        [
          { header: 'step', align: 'right' },
          { header: 'exit', align: 'right' },
          { header: 'cwd' },
          { header: 'command', flex: true },
        ],
        items.map((c) => [
          text(c.step.index),
          c.background ? 'bg' : text(c.exitCode),
          text(c.cwd),
          c.commandLine,
        ]),
      );
    });
  });

  withCommon(
    program
      .command('changes')
      .description('every file write or edit, with lines added and removed')
      .argument(ID[0], ID[1])
      .addOption(flavorOption())
      .option('--diff', 'print each change as a unified diff'),
  ).action(async (id: string, o: SessionOptions & { diff?: boolean }) => {
    await withSession(ctx, o, async (source, out) => {
      const data = await source.run<{ session: { fileChanges: ChangeItem[] } | null }>(
        FILE_CHANGES,
        { id },
      );
      const items = requireSession(data.session).fileChanges;
      if (out.json) return out.value({ items });
      if (o.diff) {
        for (const c of items) out.block(c.diff, 'diff');
        return;
      }
      out.table(
        [
          { header: 'step', align: 'right' },
          { header: 'kind' },
          { header: '+', align: 'right' },
          { header: '-', align: 'right' },
          { header: 'path', flex: true },
        ],
        items.map((c) => [
          text(c.step.index),
          c.kind,
          text(c.linesAdded),
          text(c.linesRemoved),
          c.path,
        ]),
      );
    });
  });

  withCommon(
    program
      .command('artifacts')
      .description("the session's artifacts (plans, task lists, walkthroughs)")
      .argument(ID[0], ID[1])
      .addOption(flavorOption())
      .option('--cat <name>', "print one artifact's content"),
  ).action(async (id: string, o: SessionOptions & { cat?: string }) => {
    await withSession(ctx, o, async (source, out) => {
      if (o.cat !== undefined) {
        type One = { session: { artifact: (ArtifactItem & { content: string }) | null } | null };
        const data = await source.run<One>(ARTIFACT, { id, name: o.cat });
        const artifact = requireSession(data.session).artifact;
        if (!artifact) throw notFound(`artifact ${JSON.stringify(o.cat)}`);
        if (out.json) return out.value(artifact);
        // Markdown already, so --md prints it as it is too (control characters shown, not run).
        const body = clean(artifact.content);
        out.write(body === '' || body.endsWith('\n') ? body : `${body}\n`);
        return;
      }
      const data = await source.run<{ session: { artifacts: ArtifactItem[] } | null }>(ARTIFACTS, {
        id,
      });
      const items = requireSession(data.session).artifacts;
      if (out.json) return out.value({ items });
      printArtifactTable(out, items);
    });
  });
}
