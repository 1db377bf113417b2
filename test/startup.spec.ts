import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { hashKey } from '../src/auth/api-keys';
import { makeTempDir } from './fixtures/brain-home';
import {
  childEnv,
  REPO,
  runNode,
  serverArgs,
  START_DEADLINE_MS,
  START_TEST_TIMEOUT_MS,
} from './security/attack-setup';

/**
 * What the real process says and does at start: an explicitly named home or root that holds
 * nothing stops it (never silently the example home), and the first log lines tell the
 * operator what is served, who may ask, and whether secrets are masked.
 */

const ID = '5a000000-0000-4000-8000-000000000001';
let dir: string;

// Every test here starts the real server and waits for it (see START_DEADLINE_MS).
jest.setTimeout(START_TEST_TIMEOUT_MS);

function session(root: string): void {
  const logs = path.join(root, ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(
    path.join(logs, 'transcript.jsonl'),
    '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z","content":"hi"}\n',
  );
}

/** Starts the server and returns the `msg` of its log lines up to the listening line. */
function firstLines(
  env: NodeJS.ProcessEnv,
  context = 'brainql',
): Promise<{ level: number; msg: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serverArgs(), {
      cwd: REPO,
      env: childEnv({ PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'info', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), START_DEADLINE_MS);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('GraphQL API at')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; context?: string })
        .filter((l) => l.context === context);
      // The lines up to the listening one: the scan's "ready" line may come in the same chunk.
      const listening = lines.findIndex((l) => l.msg.startsWith('GraphQL API at'));
      const first = listening < 0 ? lines : lines.slice(0, listening + 1);
      resolve(first.map(({ level, msg }) => ({ level, msg })));
    });
  });
}

beforeAll(() => {
  dir = makeTempDir('brainql-startup-');
  session(path.join(dir, 'home/antigravity-ide/brain'));
  fs.mkdirSync(path.join(dir, 'empty-home/antigravity-ide'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'user/.gemini'), { recursive: true });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a brain home or root named explicitly', () => {
  it.each([
    [
      { GEMINI_HOME: '/nonexistent/brainql-home' },
      ['  GEMINI_HOME="/nonexistent/brainql-home": is not a directory'],
    ],
    [
      { GEMINI_HOME: '<dir>/empty-home' },
      ['  GEMINI_HOME="<dir>/empty-home": holds no <flavor>/brain directory'],
    ],
    [
      { GEMINI_HOME: '<dir>/home', BRAIN_ROOTS: '<dir>/missing/brain,<dir>/home' },
      [
        '  BRAIN_ROOTS: "<dir>/missing/brain" is not a directory',
        '  BRAIN_ROOTS: "<dir>/home" is a home (it holds "<dir>/home/antigravity-ide/brain"), not a brain root: set GEMINI_HOME="<dir>/home", or name those brain folders',
      ],
    ],
    [
      { GEMINI_HOME: '<dir>/home', BRAIN_ROOTS: '<dir>/home/antigravity-ide' },
      [
        '  BRAIN_ROOTS: "<dir>/home/antigravity-ide" is a flavor folder, not a brain root: name its brain folder, "<dir>/home/antigravity-ide/brain"',
      ],
    ],
    [
      { GEMINI_HOME: '<dir>/home', KEYS_FILE: '<dir>/keys.json', REDCAT: 'on' },
      [
        '  KEYS_FILE: KEYS_FILE is not a variable brainql reads; did you mean API_KEYS_FILE? Rename it (or unset it): API_KEYS_FILE is left at its default.',
        '  REDCAT: REDCAT is not a variable brainql reads; did you mean REDACT? Rename it (or unset it): REDACT is left at its default.',
      ],
    ],
  ])('stops the start with every mistake named: %j', async (vars, expected) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: path.join(dir, 'user') };
    for (const [k, v] of Object.entries(vars)) env[k] = v.replaceAll('<dir>', dir);
    const run = await runNode(serverArgs(), env, START_DEADLINE_MS);
    expect([run.status, run.stdout]).toEqual([1, '']);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'Invalid configuration:',
      ...expected.map((l) => l.replaceAll('<dir>', dir)),
    ]);
  });
});

describe('the first log lines', () => {
  it('say the example home is served only when the default ~/.gemini has no brain root', async () => {
    const example = path.join(REPO, 'example-home');
    expect(await firstLines({ HOME: path.join(dir, 'user') })).toEqual([
      {
        level: 40,
        msg:
          `Serving the EXAMPLE brain home ${example}: no brain root exists under the default ` +
          `GEMINI_HOME=${dir}/user/.gemini. Set GEMINI_HOME to a folder holding <flavor>/brain/ ` +
          'to serve your own sessions.',
      },
      {
        level: 30,
        msg:
          `Serving 2 brain roots: ${example}/antigravity-acp/brain (antigravity-acp), ` +
          `${example}/antigravity-ide/brain (antigravity-ide)`,
      },
      {
        level: 40,
        msg: 'API keys: none; anonymous access is ON for anyone who can reach 127.0.0.1:0',
      },
      { level: 30, msg: 'Redaction: ON (secrets are masked in every answer)' },
      {
        level: 30,
        msg: expect.stringMatching(/^GraphQL API at http:\/\/127\.0\.0\.1:[1-9]\d*\/graphql$/),
      },
    ]);
  });

  it('count the keys, say redaction is off, and warn of a key scoped to a flavor no root has', async () => {
    const keys = path.join(dir, 'keys.json');
    fs.writeFileSync(
      keys,
      JSON.stringify([
        { name: 'all', sha256: hashKey('k1').toString('hex') },
        { name: 'ci', sha256: hashKey('k2').toString('hex'), flavors: ['antigravity-acp'] },
      ]),
    );
    const home = path.join(dir, 'home');
    expect(await firstLines({ GEMINI_HOME: home, API_KEYS_FILE: keys, REDACT: 'off' })).toEqual([
      { level: 30, msg: `Serving 1 brain root: ${home}/antigravity-ide/brain (antigravity-ide)` },
      { level: 30, msg: 'API keys: 2 loaded; every request needs one' },
      { level: 40, msg: 'Redaction: OFF (REDACT=off): secrets are served unmasked' },
      {
        level: 40,
        msg: 'API key "ci" is scoped to antigravity-acp, which no served root has: it sees nothing there',
      },
      { level: 30, msg: expect.stringMatching(/^GraphQL API at /) },
    ]);
  });

  it('warn by name of a variable that looks like a tuning setting but is none', async () => {
    const home = path.join(dir, 'home');
    expect(await firstLines({ GEMINI_HOME: home, LOGLEVEL: 'debug', POLL_MSS: '50' })).toEqual([
      { level: 30, msg: `Serving 1 brain root: ${home}/antigravity-ide/brain (antigravity-ide)` },
      {
        level: 40,
        msg: 'API keys: none; anonymous access is ON for anyone who can reach 127.0.0.1:0',
      },
      { level: 30, msg: 'Redaction: ON (secrets are masked in every answer)' },
      {
        level: 40,
        msg: 'LOGLEVEL is not a variable brainql reads; did you mean LOG_LEVEL? It is ignored.',
      },
      {
        level: 40,
        msg: 'POLL_MSS is not a variable brainql reads; did you mean POLL_MS? It is ignored.',
      },
      { level: 30, msg: expect.stringMatching(/^GraphQL API at /) },
    ]);
  });
});

describe('the home index at start', () => {
  it('warns that an unwritable CACHE_DIR keeps the index in memory, before it listens', async () => {
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const cache = path.join(blocker, 'cache');
    const home = path.join(dir, 'home');
    expect(await firstLines({ GEMINI_HOME: home, CACHE_DIR: cache }, 'Index')).toEqual([
      {
        level: 40,
        msg: `CACHE_DIR ${cache} is not writable (ENOTDIR): the index is kept in memory`,
      },
      {
        level: 30,
        msg: 'home index in memory (see the warning above): 0 of 0 sessions kept from an earlier run; building in the background',
      },
    ]);
  });
});

describe('request logs', () => {
  it('log a client mistake at info with the request id, never at error or with a stack', async () => {
    const child = spawn(process.execPath, serverArgs(), {
      cwd: REPO,
      env: childEnv({
        PATH: process.env.PATH,
        PORT: '0',
        LOG_LEVEL: 'info',
        GEMINI_HOME: path.join(dir, 'home'),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      for (let i = 0; i < 300 && !/GraphQL API at http:\/\/127\.0\.0\.1:(\d+)/.test(out); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const port = /GraphQL API at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const ask = (id: string, query: string) =>
        fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': id },
          body: JSON.stringify({ query }),
        });
      expect((await ask('req-first-0', '{ sessions(first: 0) { totalCount } }')).status).toBe(400);
      expect((await ask('req-no-field', 'query Q { nope }')).status).toBe(400);
      // No mutations in the schema, and subscriptions are not served over POST: both the
      // client's mistake, refused before anything runs (400) and logged as such.
      const mutation = await ask('req-mutation', 'mutation { x }');
      expect([mutation.status, await mutation.json()]).toEqual([
        400,
        {
          errors: [
            {
              message: READ_ONLY,
              locations: [{ line: 1, column: 1 }],
              extensions: { code: 'BAD_USER_INPUT' },
            },
          ],
        },
      ]);
      const sub = await ask('req-sub', 'subscription { sessionEvents { type } }');
      expect([sub.status, await sub.json()]).toEqual([
        400,
        { errors: [{ message: SUBSCRIPTION_OVER_HTTP, extensions: { code: 'BAD_USER_INPUT' } }] },
      ]);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const clientErrors = lines
      .filter((l) => typeof l.msg === 'string' && l.msg.startsWith('client error'))
      .map((l) => [l.level, (l.req as { id: string }).id, l.code, l.msg]);
    expect(clientErrors).toEqual([
      [
        30,
        'req-first-0',
        'BAD_USER_INPUT',
        'client error: "first" must be an integer from 1 to 100',
      ],
      [
        30,
        'req-no-field',
        'BAD_USER_INPUT',
        'client error: Cannot query field "nope" on type "Query".',
      ],
      [30, 'req-mutation', 'BAD_USER_INPUT', `client error: ${READ_ONLY}`],
      [30, 'req-sub', 'BAD_USER_INPUT', `client error: ${SUBSCRIPTION_OVER_HTTP}`],
    ]);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(out).not.toMatch(/"(stack|trace)"/);
  });
});

const READ_ONLY =
  'brainql is read-only and has no mutations: send a query, or a subscription over WebSocket or SSE.';
const SUBSCRIPTION_OVER_HTTP =
  'Subscriptions are served over WebSocket (graphql-ws, on /graphql) or SSE ' +
  '(/graphql/stream, Accept: text/event-stream); an HTTP POST or GET answers queries only.';

describe('a busy port', () => {
  it('stops the start with one line naming the address, no stack', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const run = await runNode(
        serverArgs(),
        { PATH: process.env.PATH, PORT: String(port), GEMINI_HOME: path.join(dir, 'home') },
        START_DEADLINE_MS,
      );
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `Cannot listen on 127.0.0.1:${port} (EADDRINUSE): the port is already in use: ` +
          'stop what holds it, or set PORT to another port.',
      ]);
      expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /);
      // Nothing else: no start logged, no error line of Nest's (review 22).
      expect(run.stdout).toBe('');
    } finally {
      holder.close();
    }
  });
});
