import { Command } from 'commander';
import { context, type Context } from './commands/context';
import type * as CheckCommand from './commands/check';
import type * as ExportCommand from './commands/export';
import type * as ListCommand from './commands/list';
import type * as ListsCommand from './commands/lists';
import type * as PushCommand from './commands/push';
import type * as RawCommand from './commands/raw';
import type * as SearchCommand from './commands/search';
import type * as ServeCommand from './commands/serve';
import type * as StatsCommand from './commands/stats';
import type * as StepsCommand from './commands/steps';
import type * as SummaryCommand from './commands/summary';
import type * as WaitCommand from './commands/wait';

type Register = (program: Command, ctx: Context) => void;

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * Every command, in help order, with the module that declares it, loaded only when needed: a
 * run that names its command loads that one module (`list` is timed, and the others' modules
 * were a third of its start), and everything else (help, a mistyped name) loads them all.
 */
const COMMANDS: readonly { names: readonly string[]; load: () => Register }[] = [
  { names: ['list'], load: () => (require('./commands/list') as typeof ListCommand).registerList },
  {
    names: ['summary'],
    load: () => (require('./commands/summary') as typeof SummaryCommand).registerSummary,
  },
  {
    names: ['steps', 'step', 'tools'],
    load: () => (require('./commands/steps') as typeof StepsCommand).registerSteps,
  },
  {
    names: ['commands', 'changes', 'artifacts'],
    load: () => (require('./commands/lists') as typeof ListsCommand).registerLists,
  },
  { names: ['raw'], load: () => (require('./commands/raw') as typeof RawCommand).registerRaw },
  {
    names: ['search'],
    load: () => (require('./commands/search') as typeof SearchCommand).registerSearch,
  },
  {
    names: ['stats'],
    load: () => (require('./commands/stats') as typeof StatsCommand).registerStats,
  },
  {
    names: ['export'],
    load: () => (require('./commands/export') as typeof ExportCommand).registerExport,
  },
  { names: ['wait'], load: () => (require('./commands/wait') as typeof WaitCommand).registerWait },
  {
    names: ['check'],
    load: () => (require('./commands/check') as typeof CheckCommand).registerCheck,
  },
  {
    names: ['push'],
    load: () => (require('./commands/push') as typeof PushCommand).registerPush,
  },
  {
    names: ['serve'],
    load: () => (require('./commands/serve') as typeof ServeCommand).registerServe,
  },
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** Every command's name, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.flatMap((c) => c.names);

/**
 * The `brainql` command and its subcommands, with generated help for each. `argv` (as given to
 * parseAsync) picks the one command to declare when its first argument names one.
 */
export function buildProgram(ctx: Context = context, argv: readonly string[] = []): Command {
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
  const named = COMMANDS.find((c) => c.names.includes(argv[2] ?? ''));
  for (const c of named ? [named] : COMMANDS) c.load()(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

/** The package's version (package.json sits two folders above dist/cli and src/cli). */
function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../package.json') as { version: string }).version;
}
