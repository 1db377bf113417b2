import { REAL_A, REAL_B, REAL_FULL, useActivityApp } from './activity-home';
import type { Data } from './harness';

/**
 * Session.commands and Session.fileChanges of the three real sessions, value for value: the
 * expected figures come from an independent reading of the transcripts (results paired by
 * position, exit codes and outputs by the contract's text rules, counts by a textbook LCS).
 */

const e = useActivityApp(() => ({ REDACT: 'off' }));

const COMMAND =
  'step { position } toolCallPosition result { position type status } background exitCode';
const commandsOf = async (id: string, fields = COMMAND) =>
  (await e.data(`{ session(id: "${id}") { commands { ${fields} } } }`)).session.commands;
const row = (
  position: number,
  exitCode: number | null,
  background = false,
  type = 'RUN_COMMAND',
  status = 'DONE',
) => ({
  step: { position },
  toolCallPosition: 0,
  result: { position: position + 1, type, status },
  background,
  exitCode,
});
/** Code points, as the independent oracle counted them. */
const len = (s: string | null) => (s === null ? null : [...s].length);

describe('real sessions', () => {
  it('9e779ff1: 13 commands, one in the background, the rest completed', async () => {
    const commands = await commandsOf(REAL_FULL, `${COMMAND} output taskLog cwd`);
    expect(commands.map(({ output: _o, taskLog: _t, cwd: _c, ...rest }: Data) => rest)).toEqual([
      row(9, 0),
      row(11, 0),
      row(13, null, true, 'RUN_COMMAND', 'RUNNING'),
      ...[30, 32, 39, 41, 43, 45, 47, 49, 51, 55].map((p) => row(p, 0)),
    ]);
    expect(commands.map((c: Data) => len(c.output))).toEqual([
      162,
      238,
      null,
      554,
      125,
      3948,
      3444,
      8177,
      2667,
      8138,
      13,
      161,
      2458,
    ]);
    expect(commands[10].output).toBe('Python 3.13.2');
    // The task log it names was not kept with the session.
    expect(commands.map((c: Data) => c.taskLog)).toEqual(new Array(13).fill(null));
    expect(new Set(commands.map((c: Data) => c.cwd))).toEqual(
      new Set(['/Users/ly/Desktop/antigravity project/suivi-ca-app']),
    );
  });

  it('9e779ff1: the script written, then one line of it replaced', async () => {
    const file = '/Users/ly/Desktop/antigravity project/suivi-ca-app/scripts/backup_history.py';
    const d = await e.data(`{ session(id: "${REAL_FULL}") { fileChanges {
      step { index } toolCallPosition tool path kind description complete linesAdded linesRemoved
      status diff } } }`);
    const [write, edit] = d.session.fileChanges;
    expect({ ...write, diff: undefined }).toEqual({
      step: { index: 55 },
      toolCallPosition: 0,
      tool: 'write_to_file',
      path: file,
      kind: 'OVERWRITE',
      description:
        'Create backup_history.py script to automate copying and formatting conversation logs and walkthroughs.',
      complete: true,
      linesAdded: 265,
      linesRemoved: 0,
      status: 'DONE',
      diff: undefined,
    });
    expect(write.diff.split('\n').slice(0, 4)).toEqual([
      `--- ${file}`,
      `+++ ${file}`,
      '@@ -0,0 +1,265 @@',
      '+#!/usr/bin/env python3',
    ]);
    expect({ ...edit, diff: undefined }).toEqual({
      step: { index: 61 },
      toolCallPosition: 0,
      tool: 'replace_file_content',
      path: file,
      kind: 'EDIT',
      description: 'Fix syntax warning by correctly escaping backslash in separator string',
      complete: true,
      linesAdded: 1,
      linesRemoved: 1,
      status: 'DONE',
      diff: undefined,
    });
    expect(edit.diff).toBe(
      [
        `--- ${file}`,
        `+++ ${file}`,
        '@@ -257,2 +257,2 @@',
        '-            files_str = " \\| ".join(files_links)',
        '+            files_str = " \\\\| ".join(files_links)',
        `             f.write(f"| {conv['date']} | **{conv['title']}** | {files_str} |\\n")`,
        '',
      ].join('\n'),
    );
  });

  it('240ff5ee (compact): three background installs and four completed commands', async () => {
    const commands = await commandsOf(REAL_B, `${COMMAND} commandLine taskLog`);
    const bg = (p: number) => row(p, null, true, 'RUN_COMMAND', 'RUNNING');
    expect(commands.map(({ commandLine: _c, taskLog: _t, ...rest }: Data) => rest)).toEqual([
      bg(7),
      row(11, 0),
      row(13, 0),
      { ...row(15, null, true, 'RUN_COMMAND', 'RUNNING') },
      bg(19),
      row(43, 0),
      row(45, 0),
    ]);
    // Compact arguments are decoded: no JSON quotes left.
    expect(commands.map((c: Data) => c.commandLine)).toEqual([
      'npm i baseline-browser-mapping@latest -D',
      'npm config list',
      'curl -I https://registry.npmjs.org/baseline-browser-mapping',
      'npm cache clean --force',
      'npm i baseline-browser-mapping@latest -D',
      'git log -n 5 --oneline -- src/components/OperatingExpenses.jsx',
      'git show 794437a --stat',
    ]);
    expect(commands.map((c: Data) => c.taskLog)).toEqual(new Array(7).fill(null));
    const d = await e.data(`{ session(id: "${REAL_B}") { fileChanges {
      step { position } kind complete linesAdded linesRemoved status } } }`);
    expect(d.session.fileChanges).toEqual([
      {
        step: { position: 55 },
        kind: 'OVERWRITE',
        complete: true,
        linesAdded: 21,
        linesRemoved: 0,
        status: 'DONE',
      },
    ]);
  });

  it('a704176f (compact): four git commands with their outputs', async () => {
    const commands = await commandsOf(REAL_A, 'step { position } exitCode output');
    expect(commands).toEqual([
      {
        step: { position: 5 },
        exitCode: 0,
        output:
          'origin\thttps://github.com/Ab-Ly/suivi-ca-app.git (fetch)\norigin\thttps://github.com/Ab-Ly/suivi-ca-app.git (push)',
      },
      {
        step: { position: 9 },
        exitCode: 0,
        output: expect.stringMatching(/^Sur la branche main\n/),
      },
      { step: { position: 11 }, exitCode: 0, output: 'Not ignored' },
      { step: { position: 13 }, exitCode: 0, output: 'db.sqlite' },
    ]);
    expect(len(commands[1].output)).toBe(554);
    expect((await e.data(`{ session(id: "${REAL_A}") { fileChanges { path } } }`)).session).toEqual(
      {
        fileChanges: [],
      },
    );
  });
});
