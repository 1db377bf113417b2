import type { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { parse } from 'graphql';
import request from 'supertest';
import { EXAMPLE_HOME } from '../../scripts/example-home';
import { createApp } from '../../src/app.factory';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { queryCost } from '../../src/graphql/limits/cost';
import { makeTempDir } from '../fixtures/brain-home';
import {
  ACTIVITY_IDS as A,
  AWS_KEY,
  buildActivitySessions,
  JWT,
  TEST_OUTPUT,
} from '../fixtures/session-activity';
import { postGql, type Data } from './harness';

/**
 * The Activity fields over the example home (the three real sessions and the generated ones)
 * plus the activity fixtures: exact values, redaction, key scopes and cost.
 */

const REAL_FULL = '9e779ff1-280b-47ed-945f-565cd870ce83';
const REAL_B = '240ff5ee-02e7-4b54-849e-917d5042eae3';
const REAL_A = 'a704176f-0000-4000-8000-000000000000';
const PAIR = 'ba5e0000-0000-4000-8000-000000000001';
const ACP = 'ac000000-0000-4000-8000-000000000017';
const ALL_KEY = 'bql_activity-all-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
const ACP_KEY = 'bql_activity-acp-0123456789abcdefghijklmnopqrstuvwxyzABCDEF';

let dir: string;
const apps: INestApplication[] = [];

async function start(env: Record<string, string>): Promise<http.Server> {
  const app = await createApp(
    loadConfig({
      GEMINI_HOME: path.join(dir, 'home'),
      RESCAN_MS: '3600000',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_POINTS: '100000000',
      ...env,
    }),
  );
  await app.init();
  await new Promise<void>((resolve) => app.getHttpServer().listen(0, '127.0.0.1', resolve));
  await app.get(BrainStore).refresh();
  apps.push(app);
  return app.getHttpServer() as http.Server;
}

let plain: http.Server;
beforeAll(async () => {
  dir = makeTempDir('brainql-activity-e2e-');
  fs.cpSync(EXAMPLE_HOME, path.join(dir, 'home'), { recursive: true });
  buildActivitySessions(path.join(dir, 'home/antigravity-ide/brain'));
  plain = await start({ REDACT: 'off' });
});
afterAll(async () => {
  for (const app of apps) await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function data(query: string, server = plain): Promise<Data> {
  const body = await postGql(server, query);
  expect(body.errors).toBeUndefined();
  return body.data;
}
const COMMAND =
  'step { position } toolCallPosition result { position type status } background exitCode';
const commandsOf = async (id: string, fields = COMMAND) =>
  (await data(`{ session(id: "${id}") { commands { ${fields} } } }`)).session.commands;
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
    const d = await data(`{ session(id: "${REAL_FULL}") { fileChanges {
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
    const d = await data(`{ session(id: "${REAL_B}") { fileChanges {
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
    expect((await data(`{ session(id: "${REAL_A}") { fileChanges { path } } }`)).session).toEqual({
      fileChanges: [],
    });
  });
});

describe('generated sessions', () => {
  it('example pair: results whose text states no outcome, a plan only the full tier has whole', async () => {
    const d = await data(`{ session(id: "${PAIR}") {
      commands { commandLine cwd result { index status } background exitCode output }
      fileChanges { step { index } kind complete linesAdded status }
      step(index: 13) { toolCalls { name result { index type status } } } } }`);
    const none = { background: false, exitCode: null, output: null };
    expect(d.session.commands).toEqual([
      { ...none, commandLine: 'npm test', cwd: '/work/p', result: { index: 4, status: 'DONE' } },
      {
        ...none,
        commandLine: 'npm run build',
        cwd: '/work/p/build',
        result: { index: 11, status: 'RUNNING' },
      },
      {
        ...none,
        commandLine: 'npm run lint',
        cwd: '/work/p',
        result: { index: 14, status: 'ERROR' },
      },
    ]);
    expect(d.session.fileChanges).toEqual([
      { step: { index: 6 }, kind: 'CREATE', complete: true, linesAdded: 124, status: 'DONE' },
    ]);
    expect(d.session.step.toolCalls).toEqual([
      { name: 'run_command', result: { index: 14, type: 'GENERIC', status: 'ERROR' } },
    ]);
  });

  it('ToolCall.result: two calls of one step, a missing result, the full-tier calls alike', async () => {
    const d = await data(`{ session(id: "${A.activity}") {
      two: step(index: 9) { toolCalls { name result { index } } }
      none: step(index: 14) { toolCalls(full: true) { result { index } } }
      cut: step(index: 16) { toolCalls(full: true) { result { index type } } }
      last: step(index: 29) { toolCalls { result { index } } } } }`);
    expect(d.session).toEqual({
      two: {
        toolCalls: [
          { name: 'run_command', result: { index: 10 } },
          { name: 'run_command', result: { index: 11 } },
        ],
      },
      none: { toolCalls: [{ result: null }] },
      cut: { toolCalls: [{ result: { index: 17, type: 'CODE_ACTION' } }] },
      last: { toolCalls: [] },
    });
  });

  it('activity fixture: the same commands and changes as the store gives, typed', async () => {
    const d = await data(`{ session(id: "${A.activity}") {
      commands { step { index } toolCallPosition exitCode background taskLog output }
      fileChanges { step { index } kind status complete linesAdded linesRemoved } } }`);
    const c = d.session.commands;
    expect(
      c.map((x: Data) => [x.step.index, x.toolCallPosition, x.exitCode, x.background]),
    ).toEqual([
      [1, 0, 0, false],
      [3, 0, 2, false],
      [5, 0, null, true],
      [7, 0, null, true],
      [9, 0, 0, false],
      [9, 1, -1, false],
      [12, 0, null, false],
      [14, 0, null, false],
    ]);
    expect(c[0].output).toBe(`${TEST_OUTPUT}\n  kept indent`);
    expect(c[2].taskLog).toBe('.system_generated/tasks/task 10.log');
    expect(
      d.session.fileChanges.map((x: Data) => [
        x.step.index,
        x.kind,
        x.status,
        x.complete,
        x.linesAdded,
        x.linesRemoved,
      ]),
    ).toEqual([
      [16, 'CREATE', 'DONE', true, 125, 0],
      [18, 'OVERWRITE', 'DONE', true, 2, 0],
      [20, 'EDIT', 'ERROR', true, 2, 1],
      [22, 'EDIT', 'DONE', true, 2, 2],
      [24, 'EDIT', 'DONE', true, 2, 1],
    ]);
    const cut = await data(`{ session(id: "${A.cut}") { fileChanges { complete linesAdded } } }`);
    expect(cut.session.fileChanges).toEqual([
      { complete: false, linesAdded: 82 },
      { complete: false, linesAdded: 24 },
    ]);
  });

  it('costs a transcript read and an assumed list size for each list', () => {
    const schema = apps[0].get(GraphQLSchemaHost).schema;
    const cost = (q: string) => queryCost({ schema, document: parse(q) }).total;
    // session 1 + commands (1 + 20 + 50 x 1) + fileChanges (1 + 20 + 20 x 1)
    expect(cost('{ session(id: "x") { commands { exitCode } fileChanges { diff } } }')).toBe(113);
    // ToolCall.result reads nothing more: 1 + its selection.
    expect(cost('{ session(id: "x") { step(index: 1) { toolCalls { result { index } } } } }')).toBe(
      1 + 1 + 1 + 5 * (1 + 1),
    );
  });
});

describe('redaction and scopes', () => {
  let guarded: http.Server;
  beforeAll(async () => {
    const keys = path.join(dir, 'keys.json');
    fs.writeFileSync(
      keys,
      JSON.stringify([
        { name: 'all', sha256: hashKey(ALL_KEY).toString('hex') },
        { name: 'acp', sha256: hashKey(ACP_KEY).toString('hex'), flavors: ['antigravity-acp'] },
      ]),
    );
    guarded = await start({ REDACT: 'on', API_KEYS_FILE: keys });
  });
  const ask = async (key: string, query: string) => {
    const res = await request(guarded)
      .post('/graphql')
      .set('Authorization', `Bearer ${key}`)
      .send({ query });
    const body = res.body as { data?: Data; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  it('masks a secret in a command line, an output and a diff', async () => {
    const d = await ask(
      ALL_KEY,
      `{ session(id: "${A.secrets}") { commands { commandLine output } fileChanges { diff } } }`,
    );
    const text = JSON.stringify(d);
    expect(text).not.toContain(JWT);
    expect(text).not.toContain(AWS_KEY);
    expect(d.session.commands).toEqual([
      {
        commandLine: 'curl -H "Authorization: Bearer [REDACTED:jwt]" https://api',
        output: 'export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]',
      },
    ]);
    expect(d.session.fileChanges[0].diff).toBe(
      '--- /w/.env\n+++ /w/.env\n@@ -1,1 +1,2 @@\n A=1\n+AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\n',
    );
  });

  it('gives a key scoped to another flavor no activity of the sessions it cannot see', async () => {
    const one = `{ session(id: "${A.activity}") { commands { commandLine } fileChanges { path } } }`;
    expect(await ask(ACP_KEY, one)).toEqual({ session: null });
    expect((await ask(ALL_KEY, one)).session.commands).toHaveLength(8);
    const page = await ask(
      ACP_KEY,
      '{ sessions(first: 100) { edges { node { id commands { commandLine } fileChanges { path } } } } }',
    );
    expect(page.sessions.edges).toEqual([{ node: { id: ACP, commands: [], fileChanges: [] } }]);
  });
});
