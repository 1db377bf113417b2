import type { Command } from 'commander';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'start the server (the same as npm start, without the build); settings from the environment',
    )
    .action(() => {
      // The server's entry point starts on load and runs until it is stopped.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../../main');
      return new Promise<void>(() => undefined);
    });
}
