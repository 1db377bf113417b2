import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/fs-util';
import { COMMAND_NAMES } from '../../src/cli/program';
import { brainql, ensureBuilt, EXAMPLE_HOME, json, ROOT, type Run } from './bin';
import { ACP_ID, GHP, makeCliHome, MASK, PLAIN_ID, SECRET_ID } from './cli-home';

/** The compiled bin on the local home: values, exit codes, output forms. */

const BA5E = 'ba5e0000-0000-4000-8000-000000000001';
const BA5E_DIR = path.join(EXAMPLE_HOME, 'antigravity-ide/brain', BA5E, '.system_generated/logs');
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);

let cache: string;
let home: string;
const example = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  brainql(args, { GEMINI_HOME: EXAMPLE_HOME, CACHE_DIR: cache, ...env });
const mine = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  brainql(args, { GEMINI_HOME: home, CACHE_DIR: cache, ...env });

beforeAll(() => {
  ensureBuilt();
  cache = makeTempDir('brainql-cli-cache-');
  home = makeCliHome();
}, 180_000);

describe('list', () => {
  it('prints the example home newest first, as the GraphQL fields, with totalCount', async () => {
    const out = json<{
      items: { id: string; stepCount: number; errorCount: number }[];
      totalCount: number;
    }>(await example(['list', '--json', '-n', '4']));
    expect(out.totalCount).toBe(6);
    expect(out.items.map((s) => s.id.slice(0, 8))).toEqual([
      '9e779ff1',
      'a704176f',
      '240ff5ee',
      'ba5e0000',
    ]);
    expect(out.items[3]).toEqual({
      id: BA5E,
      source: null,
      root: {
        path: path.join(EXAMPLE_HOME, 'antigravity-ide/brain'),
        flavor: 'antigravity-ide',
        environment: 'IDE',
      },
      createdAt: '2026-05-28T09:00:00.000Z',
      updatedAt: expect.any(String),
      userRequest:
        'Refactor @[src/app.ts] like in @[conversation:"Old chat"].\nThen update @[README.md] and re-check @[src/app.ts].',
      model: 'Claude Opus 4.5 (Thinking)',
      localTime: '2026-05-28T10:00:00+01:00',
      mentionedFiles: ['src/app.ts', 'README.md'],
      workspaceRoot: '/work/p',
      stepCount: 16,
      toolCallCount: 5,
      errorCount: 2,
    });
  });

  it('filters by environment (case-insensitive), flavor and request text, and sorts oldest first', async () => {
    const ids = async (args: string[]) =>
      json<{ items: { id: string }[] }>(await example(['list', '--json', ...args])).items.map((s) =>
        s.id.slice(0, 8),
      );
    expect(await ids(['--env', 'acp'])).toEqual(['ac000000']);
    expect(await ids(['--flavor', 'antigravity-acp', '--env', 'IDE,acp'])).toEqual(['ac000000']);
    expect(await ids(['-q', 'MALFORMED'])).toEqual(['bad00000']);
    expect(await ids(['--asc', '-n', '2'])).toEqual(['ac000000', 'bad00000']);
  });

  it('prints a table that fits COLUMNS, without ANSI escapes when piped', async () => {
    const run = await example(['list', '-n', '2'], { COLUMNS: '100' });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(ANSI);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +created +steps +tools +errors +model +request$/);
    expect(lines[1]).toMatch(
      /^9e779ff1 {2}2026-06-25 20:02 +61 +27 +0 {2}Gemini 3\.5 Flash \(High\) {2}a fin de/,
    );
    for (const l of lines.slice(0, 3)) expect(Array.from(l).length).toBeLessThanOrEqual(100);
    // The request is cut to what is left of the width.
    expect(Array.from(lines[1])).toHaveLength(100);
    expect(lines[1].endsWith('…')).toBe(true);
    // The footer is a note (stderr): a pipe reads the rows alone.
    expect(lines).toHaveLength(3);
    expect(run.stderr.split('\n')).toContain('2 of 6 sessions (--all or -n for more)');
  });

  it('leaves the counts and the model out at COLUMNS=40 and 60 rather than cut them to nothing', async () => {
    const at = async (columns: string) =>
      (await example(['list', '-n', '2'], { COLUMNS: columns })).stdout;
    expect(await at('40')).toBe(
      [
        'id        created           request',
        '9e779ff1  2026-06-25 20:02  a fin de ne…',
        'a704176f  2026-06-25 17:15  comment je …',
        '',
      ].join('\n'),
    );
    expect(await at('60')).toBe(
      [
        'id        created      steps  errors  model     request',
        '9e779ff1  2026-06-25…     61       0  Gemini …  a fin de ne…',
        'a704176f  2026-06-25…     38       0  Gemini …  comment je …',
        '',
      ].join('\n'),
    );
  });

  it('prints markdown with --md', async () => {
    const run = await example(['list', '-n', '1', '--md']);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      '| id | created | steps | tools | errors | model | request |',
      '|---|---|---:|---:|---:|---|---|',
    ]);
  });

  it('masks secrets in what it prints (REDACT on) and shows them with REDACT=off', async () => {
    const on = await mine(['list', '--json']);
    expect(on.stdout).not.toContain(GHP);
    expect(json<{ items: { userRequest: string }[] }>(on).items[0].userRequest).toBe(
      `Deploy with the token ${MASK} please`,
    );
    const off = json<{ items: { userRequest: string }[] }>(
      await mine(['list', '--json'], { REDACT: 'off' }),
    );
    expect(off.items[0].userRequest).toBe(`Deploy with the token ${GHP} please`);
  });

  it('never loads Nest or Apollo', async () => {
    const probe = path.join(makeTempDir('brainql-cli-probe-'), 'probe.js');
    fs.writeFileSync(
      probe,
      `process.on('exit', () => { const heavy = Object.keys(require.cache).filter((k) => /@nestjs|@apollo|class-validator/.test(k)); if (heavy.length) { process.stderr.write(heavy[0]); process.exitCode = 9; } });\n` +
        `process.argv = [process.argv[0], 'brainql', 'list', '-n', '1'];\nrequire(${JSON.stringify(path.resolve(__dirname, '../../dist/cli/main.js'))});\n`,
    );
    const { execFileSync } = await import('node:child_process');
    const stdout = execFileSync(process.execPath, [probe], {
      env: { ...process.env, GEMINI_HOME: EXAMPLE_HOME, CACHE_DIR: cache },
    });
    expect(stdout.toString()).toContain('9e779ff1');
  });
});

describe('session commands', () => {
  it('summary: metadata, counts, artifacts and problems', async () => {
    const s = json<
      Record<string, unknown> & { artifacts: { name: string }[]; problems: unknown[] }
    >(await example(['summary', 'ba5e', '--json']));
    expect(s).toMatchObject({
      id: BA5E,
      stepCount: 16,
      toolCallCount: 5,
      errorCount: 2,
      model: 'Claude Opus 4.5 (Thinking)',
    });
    expect(s.artifacts.map((a) => a.name)).toEqual([
      'implementation_plan.md',
      'notes.md',
      'task.md',
      'task_old.md',
      'walkthrough.md',
      'weird.md',
    ]);
    expect(s.problems).toEqual([]);
  });

  it('steps: offset, count, type and tool filters', async () => {
    const page = (args: string[]) =>
      example(['steps', 'ba5e', '--json', ...args]).then((r) =>
        json<{ items: { position: number; index: number; type: string }[]; totalCount: number }>(r),
      );
    const [a, b, c] = await Promise.all([
      page(['--offset', '3', '-n', '2']),
      page(['--tool', 'run_command']),
      page(['--type', 'planner_response']),
    ]);
    expect(a.totalCount).toBe(16);
    expect(a.items.map((s) => [s.position, s.index, s.type])).toEqual([
      [3, 3, 'PLANNER_RESPONSE'],
      [4, 4, 'GENERIC'],
    ]);
    expect(b.items.map((s) => s.index)).toEqual([3, 10, 13]);
    expect(c.items.map((s) => s.index)).toEqual([3, 6, 8, 10, 13, 16]);
  });

  it('pages a long session at the full tier within the cost limit', async () => {
    const big = makeTempDir('brainql-cli-big-');
    const id = 'b1900000-0000-4000-8000-000000000001';
    const rec = (i: number) =>
      JSON.stringify({
        step_index: i,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        created_at: '2026-06-01T10:00:00Z',
        content: `step ${i}`,
        thinking: 't',
        tool_calls: [{ name: 'run_command', args: { CommandLine: '"ls"' } }],
      });
    const logs = path.join(big, 'antigravity-ide/brain', id, '.system_generated/logs');
    fs.mkdirSync(logs, { recursive: true });
    fs.writeFileSync(
      path.join(logs, 'transcript.jsonl'),
      Array.from({ length: 1200 }, (_, i) => `${rec(i)}\n`).join(''),
    );
    const out = json<{ items: { index: number; content: string }[]; totalCount: number }>(
      await brainql(['steps', 'b190', '--full', '--json', '--offset', '1'], {
        GEMINI_HOME: big,
        CACHE_DIR: cache,
      }),
    );
    expect(out.totalCount).toBe(1200);
    expect(out.items.map((s) => s.index)).toEqual(Array.from({ length: 1199 }, (_, i) => i + 1));
    expect(out.items[1198].content).toBe('step 1199');
  });

  it('step, tools, commands, changes, artifacts', async () => {
    const [step, tools, commands, changes, cat] = await Promise.all([
      example(['step', 'ba5e', '3', '--json']),
      example(['tools', 'ba5e', '--json']),
      mine(['commands', SECRET_ID, '--json']),
      example(['changes', 'ba5e', '--json']),
      example(['artifacts', 'ba5e', '--cat', 'task.md']),
    ]);
    expect(json<{ index: number; type: string; truncatedFields: string[] }>(step)).toMatchObject({
      index: 3,
      type: 'PLANNER_RESPONSE',
      truncatedFields: ['thinking'],
    });
    expect(
      json<{ items: { step: { index: number }; name: string }[] }>(tools).items.map((c) => [
        c.step.index,
        c.name,
      ]),
    ).toEqual([
      [3, 'run_command'],
      [6, 'write_to_file'],
      [8, 'read_url_content'],
      [10, 'run_command'],
      [13, 'run_command'],
    ]);
    expect(json<{ items: unknown[] }>(commands).items).toEqual([
      {
        step: { index: 1, position: 1 },
        toolCallPosition: 0,
        commandLine: 'npm test',
        cwd: '/w/app',
        result: { index: 2, position: 2, type: 'GENERIC', status: 'DONE' },
        background: false,
        exitCode: 1,
        output: '1 failing',
        taskLog: null,
      },
    ]);
    expect(
      json<{ items: { path: string; kind: string; linesAdded: number }[] }>(changes).items.map(
        (c) => [c.path, c.kind, c.linesAdded],
      ),
    ).toEqual([['/x/implementation_plan.md', 'CREATE', 124]]);
    expect(cat.stdout).toBe('# Task\n\n- [x] refactor\n- [ ] docs\n');
  });

  it('raw prints the line byte for byte: the full tier, or the compact line with --compact', async () => {
    const lineOf = (file: string) =>
      fs
        .readFileSync(path.join(BA5E_DIR, file))
        .toString('utf8')
        .split('\n')
        .find((l) => l.startsWith('{"step_index":3,'));
    const [full, compact] = await Promise.all([
      example(['raw', 'ba5e', '3']),
      example(['raw', 'ba5e', '3', '--compact']),
    ]);
    expect(full.bytes.equals(Buffer.from(`${lineOf('transcript_full.jsonl')}\n`))).toBe(true);
    expect(compact.bytes.equals(Buffer.from(`${lineOf('transcript.jsonl')}\n`))).toBe(true);
    expect(full.bytes.length).toBeGreaterThan(compact.bytes.length);
  });

  it('raw masks a secret on the line', async () => {
    const run = await mine(['raw', SECRET_ID, '0']);
    expect(run.stdout).toContain(`the token ${MASK} please`);
    expect(run.stdout).not.toContain(GHP);
  });
});

describe('exit codes', () => {
  it('1 not found, 2 usage, 3 ambiguous with candidates on stderr', async () => {
    const [absent, short, ambiguous, noStep, badOption, noArg] = await Promise.all([
      mine(['summary', 'ffff0000']),
      mine(['summary', 'ab']),
      mine(['summary', 'abcd']),
      mine(['step', PLAIN_ID, '99']),
      mine(['list', '--env', 'desktop']),
      mine(['summary']),
    ]);
    expect([
      absent.code,
      short.code,
      ambiguous.code,
      noStep.code,
      badOption.code,
      noArg.code,
    ]).toEqual([1, 2, 3, 1, 2, 2]);
    expect(ambiguous.stderr).toContain(`candidates:\n  ${SECRET_ID}\n  ${PLAIN_ID}\n`);
    expect(badOption.stderr).toContain('expected one of ide, cli, acp, other');
  });

  it('npx brainql runs the bin in the checkout (it is executable, by its #! line)', async () => {
    const version = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    const out = await new Promise<string>((resolve, reject) =>
      execFile('npx', ['--no-install', 'brainql', '--version'], { cwd: ROOT }, (err, stdout) =>
        err ? reject(new Error(err.message)) : resolve(stdout),
      ),
    );
    expect(out).toBe(`${version}\n`);
    // npx loads npm's package trees before it runs the bin, and re-reads all of node_modules
    // when its cache of this checkout is stale (README, "Start and test"): 10 to 20 s in a test
    // run, and past jest's 60 s on a busy machine. Nothing here is about speed.
  }, 300_000);

  it('a mistyped command gets a suggestion and exit 2', async () => {
    const run = await mine(['summry', SECRET_ID]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'summry'");
    expect(run.stderr).toContain('(Did you mean summary?)');
  });

  it('--help works for the program and every command', async () => {
    // The command table (src/cli/program.spec.ts holds it to the contract's list).
    const commands = COMMAND_NAMES;
    const top = await brainql(['--help']);
    expect(top.code).toBe(0);
    for (const c of commands) expect(top.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    const runs = await Promise.all(commands.map((c) => brainql([c, '--help'])));
    runs.forEach((r, i) => {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: brainql ${commands[i]}`);
    });
  });
});

describe('without a brain home', () => {
  // HOME is the test file's own empty folder: ~/.gemini holds no brain root.
  const noHome = () => ({ HOME: makeTempDir('brainql-cli-nohome-'), CACHE_DIR: cache });
  const notice = (home: string) =>
    `brainql: no brain home in ${path.join(home, '.gemini')} (set GEMINI_HOME or BRAIN_ROOTS): ` +
    `reading the example home ${EXAMPLE_HOME}\n`;

  it('list and summary read the example home, and say so on stderr', async () => {
    const env = noHome();
    const [list, summary, example] = await Promise.all([
      brainql(['list', '--json'], env),
      brainql(['summary', 'ba5e', '--json'], env),
      brainql(['list', '--json'], { GEMINI_HOME: EXAMPLE_HOME, CACHE_DIR: cache }),
    ]);
    expect([list.code, list.stderr, list.stdout]).toEqual([0, notice(env.HOME), example.stdout]);
    expect([summary.code, summary.stderr]).toEqual([0, notice(env.HOME)]);
  });

  it('check and wait refuse it: a CI gate must not pass on the example', async () => {
    const env = noHome();
    const [check, wait] = await Promise.all([
      brainql(['check', 'ba5e'], env),
      brainql(['wait', 'ba5e', '--idle', '1'], env),
    ]);
    for (const [run, command] of [
      [check, 'check'],
      [wait, 'wait'],
    ] as const) {
      expect([run.code, run.stdout, run.stderr]).toEqual([
        2,
        '',
        notice(env.HOME) +
          `brainql: ${command} reads only a configured brain home (GEMINI_HOME or BRAIN_ROOTS), never the example\n`,
      ]);
    }
  });
});

describe('check', () => {
  it('fails with the reasons, and passes on what does not hold', async () => {
    const failing = await mine(['check', SECRET_ID, '--fail-on', 'failed-commands,secrets']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toBe(
      'failed-commands: 1\n  step 1: exit 1: npm test\nsecrets: 2\n  1 github-token in step 0 USER_REQUEST\n  1 github-token in file .user_uploaded/env.txt\n',
    );
    const passing = await mine(['check', ACP_ID, '--fail-on', 'FAILED-COMMANDS,secrets', '--json']);
    expect(passing.code).toBe(0);
    expect(JSON.parse(passing.stdout)).toEqual({
      id: ACP_ID,
      passed: true,
      checked: ['failed-commands', 'secrets'],
      reasons: [],
    });
  });
});
