import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json, type Run } from './bin';
import { serveForCli } from './cli-server';
import { ACP_ID, GHP, makeCliHome, MASK, PLAIN_ID, SECRET_ID } from './cli-home';

/**
 * The same commands against a server (--url) print what they print locally, on the same home
 * with a secret in it (REDACT on); a key scoped to one flavor sees nothing else.
 */

const MALFORMED_ID = 'ee000001-0000-4000-8000-000000000009';
const CHUNKS_ID = 'ee000002-0000-4000-8000-000000000008';
const FULL_KEY = 'bql_cli-full-key-0123456789abcdefghijklmnopqrstuvwxyz';
const ACP_KEY = 'bql_cli-acp-key-0123456789abcdefghijklmnopqrstuvwxyz';

let home: string;
let app: INestApplication;
let url: string;
let localCache: string;

const local = (args: string[]): Promise<Run> =>
  brainql(args, { GEMINI_HOME: home, CACHE_DIR: localCache });
const remote = (args: string[], key = FULL_KEY): Promise<Run> =>
  brainql([...args, '--url', url], { BRAINQL_KEY: key });

beforeAll(async () => {
  ensureBuilt();
  home = makeCliHome();
  // Chunks only (no transcript file), a line cut by the chunk boundary.
  const chunks = path.join(
    home,
    'antigravity-ide',
    'brain',
    CHUNKS_ID,
    '.system_generated/logs/chunks/transcript',
  );
  fs.mkdirSync(chunks, { recursive: true });
  const lines =
    [0, 1]
      .map((i) =>
        JSON.stringify({
          step_index: i,
          type: 'CORTEX_STEP_TYPE_USER_INPUT',
          status: 'CORTEX_STEP_STATUS_DONE',
          created_at: '2026-05-01T10:00:00Z',
          content: `chunked ${i}`,
        }),
      )
      .join('\n') + '\n';
  fs.writeFileSync(path.join(chunks, '0001.jsonl'), lines.slice(0, 150));
  fs.writeFileSync(path.join(chunks, '0002.jsonl'), lines.slice(150));
  // Its line 2 is no record (no closing brace), and holds a password.
  const malformed = path.join(
    home,
    'antigravity-ide',
    'brain',
    MALFORMED_ID,
    '.system_generated/logs',
  );
  fs.mkdirSync(malformed, { recursive: true });
  fs.writeFileSync(
    path.join(malformed, 'transcript.jsonl'),
    `${JSON.stringify({ step_index: 0, type: 'CORTEX_STEP_TYPE_USER_INPUT', status: 'CORTEX_STEP_STATUS_DONE', created_at: '2026-05-01T10:00:00Z', content: 'hello' })}\n` +
      '{"step_index":1,"content":"PGPASSWORD=MalfPlantPw47 psql\n',
  );
  localCache = makeTempDir('brainql-cli-local-cache-');
  ({ app, url } = await serveForCli(
    home,
    [
      { name: 'full', key: FULL_KEY },
      { name: 'acp', key: ACP_KEY, flavors: ['antigravity-acp'] },
    ],
    { WATCH: 'poll', POLL_MS: '100' },
  ));
}, 180_000);

afterAll(async () => {
  await app?.close();
});

const SAME: string[][] = [
  ['list'],
  ['list', '--json'],
  ['list', '--json', '--env', 'IDE', '-q', 'token'],
  ['list', '--tool', 'RUN_COMMAND'],
  ['list', '--json', '--tool', 'nosuch,run_command', '--tool', 'view_file'],
  ['list', '--json', '--hour', 'wed-10,8', '--hour', 'TUE-09'],
  ['list', '--hour', '59'],
  ['summary', SECRET_ID],
  ['summary', SECRET_ID, '--json'],
  ['steps', SECRET_ID],
  ['steps', SECRET_ID, '--json', '--offset', '1', '-n', '1', '--full'],
  ['step', SECRET_ID, '0', '--md'],
  ['step', SECRET_ID, '1', '--json', '--full'],
  ['tools', SECRET_ID, '--json'],
  ['commands', SECRET_ID],
  ['changes', SECRET_ID, '--json'],
  ['artifacts', SECRET_ID, '--json'],
  ['raw', SECRET_ID, '0'],
  ['raw', SECRET_ID, '1', '--compact'],
  ['search', 'token', '--json'],
  ['search', 'REDACTED'],
  ['search', 'token', '--session', SECRET_ID.slice(0, 8), '--json'],
  ['search', 'token', '--session', 'ffff0000'],
  ['stats', '--json', '--env', 'ide'],
  ['export', SECRET_ID, '--format', 'json'],
  ['export', SECRET_ID, '--format', 'markdown'],
  ['export', SECRET_ID, '--format', 'atif'],
  ['check', SECRET_ID, '--json'],
  ['summary', 'abcd'],
  ['summary', 'ffff0000'],
];

describe('remote mode prints what local mode prints', () => {
  it.each(SAME.map((a) => [a.join(' '), a]))('%s', async (_name, args) => {
    const [l, r] = await Promise.all([local(args), remote(args)]);
    expect(r.code).toBe(l.code);
    expect(r.bytes.equals(l.bytes)).toBe(true);
    if (l.stdout !== '') expect(l.stdout).not.toContain(GHP);
  });

  it('export -o refuses a file inside a brain root of the local home', async () => {
    const target = path.join(home, 'antigravity-acp', 'brain', ACP_ID, 'x.json');
    const r = await brainql(['export', ACP_ID, '--format', 'atif', '-o', target, '--url', url], {
      BRAINQL_KEY: FULL_KEY,
      GEMINI_HOME: home,
    });
    const root = fs.realpathSync(path.join(home, 'antigravity-acp', 'brain'));
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `brainql: will not write ${target}: it lies inside the brain root ${root}\n`,
    ]);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('the secret is masked in both', async () => {
    const r = await remote(['raw', SECRET_ID, '0']);
    expect(r.stdout).toContain(`the token ${MASK} please`);
    const search = json<{ totalCount: number }>(
      await remote(['search', GHP.slice(0, 12), '--json']),
    );
    expect(search.totalCount).toBe(0);
  });

  it('search --session narrows to the session a prefix names', async () => {
    type Hits = { totalCount: number; items: { session: { id: string }; field: string }[] };
    const all = json<Hits>(await remote(['search', 'tests', '--json']));
    // The user input's request is its content too.
    expect(all.items.map((h) => [h.session.id, h.field]).sort()).toEqual([
      [SECRET_ID, 'CONTENT'],
      [ACP_ID, 'CONTENT'],
      [ACP_ID, 'USER_REQUEST'],
    ]);
    const one = json<Hits>(await remote(['search', 'tests', '--session', 'ac90', '--json']));
    expect([one.totalCount, one.items.map((h) => [h.session.id, h.field]).sort()]).toEqual([
      2,
      [
        [ACP_ID, 'CONTENT'],
        [ACP_ID, 'USER_REQUEST'],
      ],
    ]);
  });

  it('ambiguous ids exit 3 with the candidates, absent ones 1', async () => {
    const [amb, absent, searchAmb, searchAbsent] = await Promise.all([
      remote(['summary', 'abcd']),
      remote(['raw', 'ffff0000', '0']),
      remote(['search', 'token', '--session', 'abcd']),
      remote(['search', 'token', '--session', 'ffff0000']),
    ]);
    expect(amb.code).toBe(3);
    expect(amb.stderr).toContain(`candidates:\n  ${SECRET_ID}\n  ${PLAIN_ID}\n`);
    expect(absent.code).toBe(1);
    expect([searchAmb.code, searchAmb.stdout, searchAmb.stderr]).toEqual([3, '', amb.stderr]);
    expect([searchAbsent.code, searchAbsent.stdout, searchAbsent.stderr]).toEqual([
      1,
      '',
      absent.stderr,
    ]);
  });
});

describe('keys', () => {
  it('a key scoped to antigravity-acp sees only that flavor, counts included', async () => {
    const list = json<{ items: { id: string }[]; totalCount: number }>(
      await remote(['list', '--json'], ACP_KEY),
    );
    expect(list).toMatchObject({ totalCount: 1, items: [{ id: ACP_ID }] });
    const stats = json<{ sessions: number }>(await remote(['stats', '--json'], ACP_KEY));
    expect(stats.sessions).toBe(1);
    const [summary, raw, search, amb] = await Promise.all([
      remote(['summary', SECRET_ID], ACP_KEY),
      remote(['raw', SECRET_ID, '0'], ACP_KEY),
      remote(['search', 'token', '--json'], ACP_KEY),
      remote(['summary', 'abcd'], ACP_KEY),
    ]);
    expect([summary.code, raw.code, amb.code]).toEqual([1, 1, 1]);
    expect(json<{ totalCount: number }>(search).totalCount).toBe(0);
  });

  it('a missing or wrong key, or no server, exits 4', async () => {
    const [none, wrong] = await Promise.all([
      brainql(['list', '--url', url]),
      remote(['list'], 'bql_wrong-key-0123456789abcdefghijklmnopqrstuvwxyz'),
    ]);
    expect([none.code, wrong.code]).toEqual([4, 4]);
    const down = await brainql(['list', '--url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:9');
  });
});

describe('wait', () => {
  it('returns when an idle session has no RUNNING last record, in both modes', async () => {
    // --idle counts from the start of the wait in both modes, however old the last line is.
    const timed = async (run: (args: string[]) => Promise<Run>) => {
      const t0 = Date.now();
      return { run: await run(['wait', SECRET_ID, '--idle', '2', '--json']), ms: Date.now() - t0 };
    };
    const [lt, rt] = await Promise.all([timed(local), timed((a) => remote(a))]);
    expect([lt.ms >= 2000, rt.ms >= 2000]).toEqual([true, true]);
    const [l, r] = [lt.run, rt.run];
    const expected = {
      id: SECRET_ID,
      idle: true,
      stepCount: 3,
      lastStatus: 'DONE',
      lastLineAt: '2026-06-03T10:00:09.000Z',
    };
    expect(json(l)).toEqual(expected);
    expect(json(r)).toEqual(expected);
  });

  it('follows a growing session and times out with exit 1 while lines keep coming', async () => {
    const file = path.join(
      home,
      'antigravity-acp/brain',
      ACP_ID,
      '.system_generated/logs/transcript.jsonl',
    );
    const before = fs.readFileSync(file);
    let step = 1;
    const append = () => {
      const rec = {
        step_index: step++,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        created_at: new Date().toISOString(),
      };
      fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
    };
    // The session's last line is months old when both waits start: only the lines arriving
    // count (a remote wait once took the old line's time and was idle at once).
    const grow = setInterval(append, 300);
    try {
      const [l, r] = await Promise.all([
        local(['wait', ACP_ID, '--idle', '2', '--timeout', '4']),
        remote(['wait', ACP_ID, '--idle', '2', '--timeout', '4']),
      ]);
      expect([l.code, r.code]).toEqual([1, 1]);
      expect(r.stderr).toContain('was still active after 4 s');
    } finally {
      clearInterval(grow);
      fs.writeFileSync(file, before);
    }
  });

  it('returns once the lines stop, counting the new records, in both modes', async () => {
    const file = path.join(
      home,
      'antigravity-acp/brain',
      ACP_ID,
      '.system_generated/logs/transcript.jsonl',
    );
    const before = fs.readFileSync(file);
    // Fixed times: "last line" is the newest record's created_at in both modes, not when it
    // arrived (a remote wait printed the arrival time).
    const append = (step: number) =>
      fs.appendFileSync(
        file,
        `${JSON.stringify({ step_index: step, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: `2026-07-01T09:${step}0:00Z` })}\n`,
      );
    try {
      append(1);
      const waiting = Promise.all([
        local(['wait', ACP_ID, '--idle', '3', '--timeout', '30', '--json']),
        remote(['wait', ACP_ID, '--idle', '3', '--timeout', '30', '--json']),
      ]);
      await new Promise((r) => setTimeout(r, 1500));
      append(2);
      const [l, r] = await waiting;
      for (const run of [l, r])
        expect(json(run)).toMatchObject({
          id: ACP_ID,
          idle: true,
          stepCount: 3,
          lastStatus: 'DONE',
          lastLineAt: '2026-07-01T09:20:00.000Z',
        });
    } finally {
      fs.writeFileSync(file, before);
    }
  });
});

describe('check --fail-on secrets', () => {
  it('fails on a secret on a line that is no record, locally and with --url', async () => {
    const args = ['check', MALFORMED_ID, '--fail-on', 'secrets'];
    const [l, r] = await Promise.all([local(args), remote(args)]);
    for (const run of [l, r]) {
      expect([run.code, run.stdout]).toEqual([
        1,
        'secrets: 1\n  1 password in lines that are no record\n',
      ]);
    }
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${FULL_KEY}` },
      body: JSON.stringify({
        query: `{ session(id: "${MALFORMED_ID}") { secrets { kind field step { index } artifact count } }
          secretExposures(kinds: ["password"]) { edges { node { session { id } count kinds } } } }`,
      }),
    });
    const finding = { kind: 'password', field: 'CONTENT', step: null, artifact: null, count: 1 };
    expect(await res.json()).toEqual({
      data: {
        session: { secrets: [finding] },
        secretExposures: {
          edges: [{ node: { session: { id: MALFORMED_ID }, count: 1, kinds: ['password'] } }],
        },
      },
    });
  });
});

describe('raw over a chunks-only session', () => {
  it('prints the line with --url as locally', async () => {
    const [l, r] = await Promise.all([
      local(['raw', CHUNKS_ID, '1']),
      remote(['raw', CHUNKS_ID, '1']),
    ]);
    expect([l.code, l.stdout, l.stderr]).toEqual([0, expect.stringContaining('"chunked 1"'), '']);
    expect([r.code, r.stdout, r.stderr]).toEqual([l.code, l.stdout, l.stderr]);
  });
});
