import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../ops/node-flags';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'start the server (the same as npm start, without the build); settings from the environment',
    )
    .action(() => serve());
}

/**
 * Runs the server's entry point in a child Node with the server's flags (V8 reads them only at
 * start, so this process cannot take them on), and passes stop signals on. Resolves never: the
 * process exits with the server's code.
 */
function serve(): Promise<void> {
  const main = path.join(__dirname, '..', '..', 'main.js');
  // The IPC channel is how the server knows this process is gone (see main.ts).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, main], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  const forwarded = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of forwarded) process.on(signal, forward);
  child.on('exit', (code, signal) => {
    if (code !== null) process.exit(code);
    // Ended by a signal (Nest re-raises SIGTERM after its shutdown): end the same way.
    for (const s of forwarded) process.off(s, forward);
    process.kill(process.pid, signal ?? 'SIGTERM');
  });
  return new Promise<void>(() => undefined);
}
