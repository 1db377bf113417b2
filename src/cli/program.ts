import { Command } from 'commander';
import { registerCheck } from './commands/check';
import { registerExport } from './commands/export';
import { registerList } from './commands/list';
import { registerSearch } from './commands/search';
import { registerServe } from './commands/serve';
import { registerStats } from './commands/stats';
import { registerWait } from './commands/wait';
import { registerRaw } from './commands/raw';
import { registerLists } from './commands/lists';
import { registerSteps } from './commands/steps';
import { registerSummary } from './commands/summary';
import { context, type Context } from './commands/context';

/** The `brainql` command and its subcommands, with generated help for each. */
export function buildProgram(ctx: Context = context): Command {
  const program = new Command('brainql')
    .description(
      'Read Google Antigravity brain directories: the local home (GEMINI_HOME, BRAIN_ROOTS) or, ' +
        'with --url, a brainql server.',
    )
    .version(version(), '-V, --version')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program.configureHelp({ sortSubcommands: false });
  registerList(program, ctx);
  registerSummary(program, ctx);
  registerSteps(program, ctx);
  registerLists(program, ctx);
  registerRaw(program, ctx);
  registerSearch(program, ctx);
  registerStats(program, ctx);
  registerExport(program, ctx);
  registerWait(program, ctx);
  registerCheck(program, ctx);
  registerServe(program);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

/** The package's version (package.json sits two folders above dist/cli and src/cli). */
function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../package.json') as { version: string }).version;
}
