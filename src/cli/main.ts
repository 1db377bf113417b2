#!/usr/bin/env node
import './compile-cache';
import { CommanderError } from 'commander';
import { ConfigError } from '../config/home-settings';
import { CliError, errorFromCode, Exit } from './errors';
import { buildProgram } from './program';

/**
 * `brainql`: the command line. Exit codes: 0 done, 1 not found / check failed / wait timed
 * out, 2 usage, 3 ambiguous id (candidates on stderr), 4 server or auth error.
 */
async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram(undefined, argv).parseAsync(argv);
    return Exit.OK;
  } catch (err) {
    return report(err);
  }
}

function report(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and --version end through here too (exit code 0); commander printed the message.
    return err.exitCode === 0 ? Exit.OK : Exit.USAGE;
  }
  if (err instanceof CliError) {
    process.stderr.write(`brainql: ${err.message}\n`);
    if (err.candidates.length > 0)
      process.stderr.write(`candidates:\n${err.candidates.map((c) => `  ${c}\n`).join('')}`);
    return err.exitCode;
  }
  const code = (err as { code?: unknown }).code;
  if (err instanceof Error && typeof code === 'string' && /^[A-Z_]+$/.test(code)) {
    // An OperationError (the shared exporters' NOT_FOUND, a local run's GraphQL error).
    const candidates = (err as { candidates?: readonly string[] }).candidates ?? [];
    return report(errorFromCode(code, err.message, candidates));
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`brainql: ${err.message}\n`);
    return Exit.USAGE;
  }
  process.stderr.write(`brainql: ${err instanceof Error ? err.message : String(err)}\n`);
  return Exit.SERVER;
}

// A closed pipe (`brainql list | head`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = Exit.SERVER;
  },
);
