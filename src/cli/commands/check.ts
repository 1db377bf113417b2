import type { Command } from 'commander';
import { flavorOption, withSession, type SessionOptions } from '../flavor';
import { COMMANDS, PROBLEMS, SECRETS, SESSION } from '../../operations/documents';
import { requireSession } from '../session';
import { CliError, Exit } from '../errors';
import { repeated, withCommon } from '../options';
import { requireConfiguredHome, type Source } from '../source/source';
import type { Context } from './context';
import { indexReady } from './index-ready';

/** `check ID --fail-on …`: a CI gate. Prints why it fails and exits 1; prints "ok" otherwise. */

const CONDITIONS = ['ERRORS', 'FAILED-COMMANDS', 'SECRETS', 'PROBLEMS'] as const;
type Condition = (typeof CONDITIONS)[number];

export interface Reason {
  condition: string;
  count: number;
  details: string[];
}

type Data<T> = { session: T | null };

async function reasons(
  source: Source,
  id: string,
  on: ReadonlySet<Condition>,
): Promise<{ id: string; reasons: Reason[] }> {
  const session = requireSession(
    (await source.run<Data<{ id: string; errorCount: number }>>(SESSION, { id })).session,
  );
  const out: Reason[] = [];
  const sid = session.id;
  if (on.has('ERRORS') && session.errorCount > 0) {
    out.push({
      condition: 'errors',
      count: session.errorCount,
      details: [`${session.errorCount} records with status ERROR or type ERROR_MESSAGE`],
    });
  }
  if (on.has('FAILED-COMMANDS')) {
    type C = {
      commands: { step: { index: number }; commandLine: string; exitCode: number | null }[];
    };
    const { commands } = requireSession((await source.run<Data<C>>(COMMANDS, { id: sid })).session);
    const failed = commands.filter((c) => c.exitCode !== null && c.exitCode !== 0);
    if (failed.length > 0)
      out.push({
        condition: 'failed-commands',
        count: failed.length,
        details: failed.map((c) => `step ${c.step.index}: exit ${c.exitCode}: ${c.commandLine}`),
      });
  }
  if (on.has('SECRETS')) {
    await indexReady(source);
    type S = {
      secrets: {
        kind: string;
        field: string;
        step: { index: number } | null;
        artifact: string | null;
        count: number;
      }[];
    };
    const { secrets } = requireSession((await source.run<Data<S>>(SECRETS, { id: sid })).session);
    if (secrets.length > 0)
      out.push({
        condition: 'secrets',
        count: secrets.reduce((n, s) => n + s.count, 0),
        details: secrets.map(
          (s) =>
            `${s.count} ${s.kind} in ${
              s.step
                ? `step ${s.step.index} ${s.field}`
                : s.artifact !== null
                  ? `${/^[^/]+\.md$/.test(s.artifact) ? 'artifact' : 'file'} ${s.artifact}`
                  : 'lines that are no record'
            }`,
        ),
      });
  }
  if (on.has('PROBLEMS')) {
    type P = {
      problems: { code: string; message: string; file: string | null; line: number | null }[];
    };
    const { problems } = requireSession((await source.run<Data<P>>(PROBLEMS, { id: sid })).session);
    if (problems.length > 0)
      out.push({
        condition: 'problems',
        count: problems.length,
        details: problems.map(
          (p) =>
            `${p.code}${p.file ? ` ${p.file}${p.line !== null ? `:${p.line}` : ''}` : ''}: ${p.message}`,
        ),
      });
  }
  return { id: sid, reasons: out };
}

export function registerCheck(program: Command, ctx: Context): void {
  withCommon(
    program
      .command('check')
      .description('a CI gate: exit 1 and print the reasons when any listed condition holds')
      .argument('<id>', 'session id or unique prefix (4+ characters)')
      .addOption(flavorOption())
      .option(
        '--fail-on <conditions>',
        'comma-separated: errors, failed-commands, secrets, problems (default: all four)',
        repeated(CONDITIONS),
      ),
  ).action(async (id: string, o: SessionOptions & { failOn?: string[] }) => {
    await withSession(ctx, o, async (source, out) => {
      await requireConfiguredHome(source, 'check');
      const on = new Set((o.failOn ?? CONDITIONS) as Condition[]);
      const result = await reasons(source, id, on);
      const failed = result.reasons.length > 0;
      if (out.json)
        out.value({
          id: result.id,
          passed: !failed,
          checked: [...on].map((c) => c.toLowerCase()),
          reasons: result.reasons,
        });
      else if (!failed)
        out.line(`${result.id}: ok (${[...on].map((c) => c.toLowerCase()).join(', ')})`);
      else {
        for (const r of result.reasons) {
          out.write(
            out.md
              ? `- **${r.condition}** (${r.count})\n`
              : `${out.c.red(r.condition)}: ${r.count}\n`,
          );
          for (const d of r.details) out.line(out.md ? `  - ${d}` : `  ${d}`);
        }
      }
      if (failed)
        throw new CliError(
          Exit.FAILED,
          `${result.id}: check failed (${result.reasons.map((r) => r.condition).join(', ')})`,
        );
    });
  });
}
