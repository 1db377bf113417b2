import { buildProgram, COMMAND_NAMES } from './program';

/** The command table: help sees every command; a run declares only the one it names. */

const names = (argv: string[]) => buildProgram(undefined, argv).commands.map((c) => c.name());

it('declares every command, in the table order, when no command is named', () => {
  const all = [
    'list',
    'summary',
    'steps',
    'step',
    'tools',
    'commands',
    'changes',
    'artifacts',
    'raw',
    'search',
    'stats',
    'export',
    'wait',
    'check',
    'push',
    'serve',
  ];
  expect(COMMAND_NAMES).toEqual(all);
  expect(names([])).toEqual(all);
  expect(names(['node', 'brainql', '--help'])).toEqual(all);
  expect(names(['node', 'brainql', 'lst'])).toEqual(all); // for the suggestion
});

it('declares only the module of the command a run names', () => {
  expect(names(['node', 'brainql', 'list', '-n', '20'])).toEqual(['list']);
  expect(names(['node', 'brainql', 'tools', 'abcd'])).toEqual(['steps', 'step', 'tools']);
  expect(names(['node', 'brainql', 'changes'])).toEqual(['commands', 'changes', 'artifacts']);
});
