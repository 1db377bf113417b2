import * as fs from 'node:fs';
import * as path from 'node:path';
import { brainql, ensureBuilt } from '../cli/bin';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, startCollector, type Collector } from './ingest-server';

/**
 * brainql push against a server's limits: a refusal the server sends before it reads the body
 * (413 over MAX_INGEST_BODY_MB, 507 past MAX_INGEST_MB) is read and reported as such, never as
 * "cannot reach the server", and --json still prints the summary.
 */

const ID = '11a00000-0000-4000-8000-000000000001';
const REL = '.system_generated/logs/transcript.jsonl';
const LINE =
  '{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","content":"hi"}\n';

let dir: string;
let home: string;

/** A home with one session whose transcript is `mb` MiB of whole lines. */
function makeHome(mb: number): void {
  home = path.join(dir, `home-${mb}`);
  const logs = path.join(home, 'antigravity-ide', 'brain', ID, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const n = Math.ceil((mb * 1024 * 1024) / LINE.length);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), LINE.repeat(n));
}

async function withCollector(
  env: Record<string, string>,
  fn: (c: Collector) => Promise<void>,
): Promise<void> {
  const sub = makeTempDir('brainql-push-limits-');
  fs.mkdirSync(path.join(sub, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  const c = await startCollector(sub, path.join(sub, 'server-home'), env);
  try {
    await fn(c);
  } finally {
    await c.app.close();
    fs.rmSync(sub, { recursive: true, force: true });
  }
}

const push = (c: Collector) =>
  brainql(['push', '--url', c.url, '--json'], {
    GEMINI_HOME: home,
    CACHE_DIR: path.join(dir, `cache-${Math.random()}`),
    BRAINQL_KEY: KEYS.ci,
  });

beforeAll(() => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-limits-');
}, 180_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('507 past MAX_INGEST_MB: the file is in failed[], exit 1, the summary printed', async () => {
  makeHome(20);
  await withCollector({ MAX_INGEST_MB: '1' }, async (c) => {
    const run = await push(c);
    expect(run.stderr).toBe('brainql: 1 files could not be pushed\n');
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as { failed: { code: string }[] };
    expect(summary).toMatchObject({ sessions: 1, files: 0, bytesSent: 0, skipped: 0 });
    expect(summary.failed).toEqual([
      {
        session: ID,
        path: REL,
        code: 'INSUFFICIENT_STORAGE',
        message: expect.stringMatching(/MAX_INGEST_MB/) as unknown,
      },
    ]);
    // The text summary counts files sent, not files tried.
    const text = await brainql(['push', '--url', c.url], {
      GEMINI_HOME: home,
      CACHE_DIR: path.join(dir, 'cache-text'),
      BRAINQL_KEY: KEYS.ci,
    });
    expect([text.code, text.stdout]).toEqual([
      1,
      '1 sessions, 0 files sent 0 bytes, 0 skipped (unchanged or without a transcript), 1 failed\n',
    ]);
  });
}, 120_000);

it('413 over MAX_INGEST_BODY_MB=1: smaller parts, the file arrives whole', async () => {
  makeHome(3);
  const size = fs.statSync(path.join(home, 'antigravity-ide', 'brain', ID, REL)).size;
  await withCollector({ MAX_INGEST_BODY_MB: '1' }, async (c) => {
    const run = await push(c);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toEqual({
      sessions: 1,
      files: 1,
      bytesSent: size,
      skipped: 0,
      failed: [],
      recovered: 0,
    });
    const there = path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain', ID, REL);
    expect(fs.statSync(there).size).toBe(size);
  });
}, 120_000);

it('files the server would refuse by name are listed in failed[] with the reason, exit 1', async () => {
  makeHome(0);
  const sdir = path.join(home, 'antigravity-ide', 'brain', ID);
  fs.writeFileSync(path.join(sdir, 'back\\slash.md'), 'b\n');
  fs.writeFileSync(path.join(sdir, '.hidden'), 'h\n');
  fs.writeFileSync(path.join(sdir, 'new\nline.md'), 'n\n');
  const deep = Array.from({ length: 17 }, (_, i) => `d${i}`).join('/');
  fs.mkdirSync(path.join(sdir, deep), { recursive: true });
  fs.writeFileSync(path.join(sdir, deep, 'deep.md'), 'd\n');
  await withCollector({}, async (c) => {
    const run = await push(c);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('brainql: 4 files could not be pushed\n');
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toEqual({
      sessions: 1,
      files: 1,
      bytesSent: 0,
      skipped: 0,
      recovered: 0,
      failed: [
        {
          session: ID,
          path: '.hidden',
          code: 'BAD_USER_INPUT',
          message:
            '".hidden" is not a name the brain format uses (a leading "." is allowed only for ' +
            '.system_generated and .user_uploaded at the top)',
        },
        {
          session: ID,
          path: 'back\\slash.md',
          code: 'BAD_USER_INPUT',
          message: 'a path segment holds a "/" or "\\"',
        },
        {
          session: ID,
          path: `${deep}/deep.md`,
          code: 'BAD_USER_INPUT',
          message: 'the path is deeper than 16 segments',
        },
        {
          session: ID,
          path: 'new\nline.md',
          code: 'BAD_USER_INPUT',
          message:
            'a path segment holds NUL, a control character (C0, DEL, C1) or a bidirectional formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)',
        },
      ],
    });
    // Still refused the next time: never taken for unchanged.
    expect((await push(c)).code).toBe(1);
  });
}, 120_000);
