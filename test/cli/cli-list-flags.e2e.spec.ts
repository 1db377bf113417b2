import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { brainql, ensureBuilt, json } from './bin';
import { ACP_ID, makeCliHome, PLAIN_ID, SECRET_ID } from './cli-home';

/**
 * list and steps flags over the local home (issue 19 item 12): a flavor no root has is a
 * mistake, the "N of M" footer is not part of the rows, a tool name matches in any case
 * (steps --tool; list --tool and --hour, issue 20, answered from the home index the local app
 * builds).
 */
let home: string;
let cache: string;
const local = (args: string[]) => brainql(args, { GEMINI_HOME: home, CACHE_DIR: cache });

beforeAll(() => {
  ensureBuilt();
  home = makeCliHome();
  cache = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-cli-flags-cache-'));
}, 180_000); // ensureBuilt may build (as in the other CLI specs)
afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cache, { recursive: true, force: true });
});

it('list --flavor with a flavor no root has says so and exits 1', async () => {
  const r = await local(['list', '--flavor', 'nosuch', '--flavor', 'antigravity-ide']);
  expect([r.code, r.stdout, r.stderr.trim()]).toEqual([
    1,
    '',
    'brainql: no such flavor: nosuch (flavors served: antigravity-acp, antigravity-ide)',
  ]);
});

it('puts the "N of M" footer on stderr: stdout holds the table only', async () => {
  const r = await local(['list', '-n', '1']);
  expect(r.code).toBe(0);
  expect(
    r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]),
  ).toEqual(['id', 'abcd0001']);
  expect(r.stderr).toBe('1 of 3 sessions (--all or -n for more)\n');
});

it('matches steps --tool in any case', async () => {
  const indexes = async (tool: string) =>
    json<{ items: { index: number }[] }>(
      await local(['steps', SECRET_ID, '--tool', tool, '--json']),
    ).items.map((s) => s.index);
  expect(await indexes('run_command')).toEqual([1]);
  expect(await indexes('RUN_Command')).toEqual([1]);
  expect(await indexes('nosuch')).toEqual([]);
});

it('list --tool keeps the sessions that called any of the tools, in any case', async () => {
  const ids = async (...args: string[]) =>
    json<{ items: { id: string }[]; totalCount: number }>(await local(['list', '--json', ...args]));
  expect(await ids('--tool', 'RUN_Command')).toEqual({
    items: [expect.objectContaining({ id: SECRET_ID })],
    totalCount: 1,
  });
  expect((await ids('--tool', 'nosuch', '--tool', 'run_command')).items.map((s) => s.id)).toEqual([
    SECRET_ID,
  ]);
  expect(await ids('--tool', 'nosuch,view_file')).toEqual({ items: [], totalCount: 0 });
  expect(await ids('--tool', 'run_command', '--env', 'acp')).toEqual({ items: [], totalCount: 0 });
});

it('list --tool refuses a name of more than 200 characters, saying what is accepted', async () => {
  const r = await local(['list', '--tool', 'x'.repeat(201)]);
  expect([r.code, r.stdout, r.stderr.trim()]).toEqual([
    2,
    '',
    'brainql: "tool" takes 1 to 20 tool names of 1 to 200 characters each; got a name of 201 characters (BAD_USER_INPUT)',
  ]);
});

it('list --hour keeps the sessions with a step in any of the hours (UTC), written as the console writes them', async () => {
  // The sessions' steps: Wednesday 2026-06-03 10:00, Tuesday 06-02 09:00, Monday 06-01 08:00.
  const ids = async (...args: string[]) =>
    json<{ items: { id: string }[]; totalCount: number }>(
      await local(['list', '--json', ...args]),
    ).items.map((s) => s.id);
  expect(await ids('--hour', 'wed-10')).toEqual([SECRET_ID]);
  expect(await ids('--hour', 'WED-10')).toEqual([SECRET_ID]);
  // The API's own numbers: Tuesday 09:00 is 24 + 9.
  expect(await ids('--hour', '33')).toEqual([PLAIN_ID]);
  expect(await ids('--hour', 'mon-8,58')).toEqual([SECRET_ID, ACP_ID]);
  expect(await ids('--hour', 'mon-08', '--hour', 'tue-09')).toEqual([PLAIN_ID, ACP_ID]);
  expect(await ids('--hour', 'wed-11,0,167')).toEqual([]);
  expect(await ids('--hour', 'wed-10', '--env', 'acp')).toEqual([]);
});

it.each(['wed-25', 'wednesday-10', '168', '-1', 'wed'])(
  'list --hour %s is refused with what is accepted (exit 2)',
  async (bad) => {
    const r = await local(['list', '--hour', `mon-09,${bad}`]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `error: option '--hour <hour>' argument 'mon-09,${bad}' is invalid. "${bad}" is no hour of the week: expected a day and a UTC hour as mon-09 (mon, tue, wed, thu, fri, sat or sun; 0 to 23), or an hour of the week from 0 (Monday 00:00 UTC) to 167 (Sunday 23:00)\n(run with --help for usage)\n`,
    ]);
  },
);
