import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN, brainql, ensureBuilt, EXAMPLE_HOME } from '../cli/bin';
import { makeTempDir } from '../fixtures/brain-home';
import { filesUnder, KEYS, startCollector, type Collector } from './ingest-server';

/** brainql push: what it sends, resuming, two pushers at once, links, --redact, exit codes. */

interface Summary {
  sessions: number;
  files: number;
  bytesSent: number;
  skipped: number;
  failed: { session: string; path: string; code: string; message: string }[];
  recovered: number;
}

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const ACP = 'ac000000-0000-4000-8000-000000000017';
const BIG = 'b1600000-0000-4000-8000-000000000001';

let dir: string;
let home: string;
let c: Collector;
const env = (more: Record<string, string> = {}) => ({
  GEMINI_HOME: home,
  CACHE_DIR: path.join(dir, 'client-cache'),
  BRAINQL_KEY: KEYS.ci,
  ...more,
});
const push = async (args: string[] = [], more: Record<string, string> = {}) => {
  const run = await brainql(['push', '--url', c.url, '--json', ...args], env(more));
  return { ...run, summary: run.stdout ? (JSON.parse(run.stdout) as Summary) : null };
};
const serverCopy = (flavor: string, id: string) =>
  path.join(c.ingestDir, 'ci-runner', flavor, 'brain', id);
/** Every local file of the home and the SHA-256 of it and of the server's copy. */
function mirrorPairs(): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const flavor of fs.readdirSync(home)) {
    const root = path.join(home, flavor, 'brain');
    for (const id of fs.readdirSync(root)) {
      for (const rel of filesUnder(path.join(root, id))) {
        const there = path.join(serverCopy(flavor, id), rel);
        out.push([
          `${id}/${rel}`,
          sha(path.join(root, id, rel)),
          fs.existsSync(there) ? sha(there) : 'absent',
        ]);
      }
    }
  }
  return out;
}
const totalBytes = () =>
  fs.readdirSync(home).reduce((n, flavor) => {
    const root = path.join(home, flavor, 'brain');
    for (const id of fs.readdirSync(root))
      for (const rel of filesUnder(path.join(root, id)))
        n += fs.statSync(path.join(root, id, rel)).size;
    return n;
  }, 0);

beforeAll(async () => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-');
  home = path.join(dir, 'home');
  fs.cpSync(EXAMPLE_HOME, home, { recursive: true });
  fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'server-home'));
}, 120_000);
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('brainql push', () => {
  it('sends every file once, byte for byte; a second run sends nothing', async () => {
    const files = mirrorPairs().length;
    const first = await push();
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.summary).toEqual({
      sessions: 6,
      files,
      bytesSent: totalBytes(),
      skipped: 0,
      failed: [],
      recovered: 0,
    });
    for (const [name, local, there] of mirrorPairs()) expect([name, there]).toEqual([name, local]);
    // Every file is marked held by this server in the state file: one listing checks that it
    // still holds one session's files, and the other five sessions cost no request at all.
    const requests: string[] = [];
    const count = (req: { method?: string; url?: string }) =>
      requests.push(`${req.method} ${req.url!.split('/').slice(0, 4).join('/')}`);
    c.server.on('request', count);
    const again = await push().finally(() => c.server.off('request', count));
    expect(requests).toEqual(['GET /api/ingest/sessions']);
    expect(again.summary).toEqual({
      sessions: 6,
      files: 0,
      bytesSent: 0,
      skipped: files,
      failed: [],
      recovered: 0,
    });
  });

  it('sends only the new bytes of a grown transcript, and a changed file whole', async () => {
    const t = path.join(
      home,
      'antigravity-acp',
      'brain',
      ACP,
      '.system_generated/logs/transcript.jsonl',
    );
    const line =
      '{"step_index":999,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","content":"appended"}\n';
    fs.appendFileSync(t, line);
    // A file changed in place (not grown): sent whole, in the same run.
    const BA5E = path.join(
      home,
      'antigravity-ide',
      'brain',
      'ba5e0000-0000-4000-8000-000000000001',
    );
    const notes = path.join(BA5E, 'notes.md');
    expect(fs.readFileSync(notes, 'utf8')).not.toBe('# rewritten\n');
    fs.writeFileSync(notes, '# rewritten\n');
    const others = filesUnder(BA5E).length - 1;
    const run = await push(['--session', ACP, '--session', 'ba5e0000']);
    expect(run.summary).toEqual({
      sessions: 2,
      files: 2,
      bytesSent: Buffer.byteLength(line) + 12,
      skipped: others,
      failed: [],
      recovered: 0,
    });
    expect(
      sha(path.join(serverCopy('antigravity-acp', ACP), '.system_generated/logs/transcript.jsonl')),
    ).toBe(sha(t));
    const there = path.join(
      serverCopy('antigravity-ide', 'ba5e0000-0000-4000-8000-000000000001'),
      'notes.md',
    );
    expect(fs.readFileSync(there, 'utf8')).toBe('# rewritten\n');
  });

  it('a server that lost what it answered holding is asked about every session again', async () => {
    const ids = [ACP, 'ba5e0000-0000-4000-8000-000000000001'];
    const flavors = ['antigravity-acp', 'antigravity-ide'];
    const files = ids.map((id, i) => filesUnder(path.join(home, flavors[i], 'brain', id)).length);
    const bytes = ids.reduce(
      (n, id, i) =>
        filesUnder(path.join(home, flavors[i], 'brain', id)).reduce(
          (m, rel) => m + fs.statSync(path.join(home, flavors[i], 'brain', id, rel)).size,
          n,
        ),
      0,
    );
    const args = ['--session', ACP, '--session', 'ba5e0000'];
    expect((await push(args)).summary).toMatchObject({ files: 0, skipped: files[0] + files[1] });
    for (let i = 0; i < ids.length; i++)
      fs.rmSync(serverCopy(flavors[i], ids[i]), { recursive: true, force: true });
    const requests: string[] = [];
    const count = (req: { method?: string }) => requests.push(req.method!);
    c.server.on('request', count);
    const run = await push(args).finally(() => c.server.off('request', count));
    // The check (the first session's listing) found nothing: both are asked about and sent.
    expect(run.summary).toEqual({
      sessions: 2,
      files: files[0] + files[1],
      bytesSent: bytes,
      skipped: 0,
      failed: [],
      recovered: 0,
    });
    expect(requests.filter((m) => m === 'GET')).toHaveLength(2);
    expect(requests.filter((m) => m === 'PUT')).toHaveLength(files[0] + files[1]);
    for (const [name, local, there] of mirrorPairs().filter(([n]) =>
      ids.some((id) => n.startsWith(id)),
    ))
      expect([name, there]).toEqual([name, local]);
  });

  it('resumes where the server stands after a kill mid-transcript: only the missing bytes go', async () => {
    const sdir = path.join(home, 'antigravity-ide', 'brain', BIG, '.system_generated', 'logs');
    fs.mkdirSync(sdir, { recursive: true });
    const line = (i: number) =>
      `${JSON.stringify({ step_index: i, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', content: 'x'.repeat(1000) })}\n`;
    const fd = fs.openSync(path.join(sdir, 'transcript.jsonl'), 'w');
    for (let i = 0; i < 24_000; i++) fs.writeSync(fd, line(i));
    fs.closeSync(fd);
    const size = fs.statSync(path.join(sdir, 'transcript.jsonl')).size;
    const there = path.join(
      serverCopy('antigravity-ide', BIG),
      '.system_generated/logs/transcript.jsonl',
    );
    const child = spawn(
      process.execPath,
      [BIN, 'push', '--url', c.url, '--session', BIG, '--json'],
      {
        env: { ...process.env, ...env() },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Killed as soon as the server holds some but not all of it (parts are 8 MiB).
    while (!(fs.existsSync(there) && fs.statSync(there).size > 0))
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    await exited;
    const held = fs.statSync(there).size;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(size);
    expect(held % (8 * 1024 * 1024)).toBe(0); // only whole, fsynced parts are ever visible
    const run = await push(['--session', BIG]);
    expect(run.summary).toEqual({
      sessions: 1,
      files: 1,
      bytesSent: size - held,
      skipped: 0,
      failed: [],
      recovered: 0,
    });
    expect(sha(there)).toBe(sha(path.join(sdir, 'transcript.jsonl')));
  }, 120_000);

  it('two pushers of one session end with the right bytes; one recovered from OFFSET_MISMATCH', async () => {
    const id = 'c0c00000-0000-4000-8000-000000000002';
    const logs = path.join(home, 'antigravity-ide', 'brain', id, '.system_generated', 'logs');
    fs.mkdirSync(logs, { recursive: true });
    const t = path.join(logs, 'transcript.jsonl');
    fs.writeFileSync(
      t,
      `${'{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","content":"hi"}\n'.repeat(1)}`,
    );
    await push(['--session', id]);
    // Whether the two runs overlap depends on how fast each process starts: on a loaded machine
    // one may finish before the other asks. Each round must end right; some round must overlap.
    let recovered = 0;
    for (let round = 0; round < 5 && recovered === 0; round++) {
      fs.appendFileSync(t, Buffer.alloc(20 * 1024 * 1024, 'a'));
      fs.appendFileSync(t, '\n');
      const [a, b] = await Promise.all([
        push(['--session', id], { CACHE_DIR: path.join(dir, `cache-a${round}`) }),
        push(['--session', id], { CACHE_DIR: path.join(dir, `cache-b${round}`) }),
      ]);
      expect([a.code, b.code]).toEqual([0, 0]);
      expect(
        sha(
          path.join(serverCopy('antigravity-ide', id), '.system_generated/logs/transcript.jsonl'),
        ),
      ).toBe(sha(t));
      recovered = a.summary!.recovered + b.summary!.recovered;
    }
    expect(recovered).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('never follows or sends a link in the local home', async () => {
    const sdir = path.join(home, 'antigravity-acp', 'brain', ACP);
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the home\n');
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(sdir, 'linked.txt'));
    fs.symlinkSync(dir, path.join(sdir, 'linked-dir'));
    const run = await push(['--session', ACP]);
    expect(run.summary).toMatchObject({ files: 0, bytesSent: 0, failed: [] });
    expect(fs.readdirSync(serverCopy('antigravity-acp', ACP)).sort()).not.toContain('linked.txt');
    expect(fs.readdirSync(serverCopy('antigravity-acp', ACP)).sort()).not.toContain('linked-dir');
  });

  it('--redact masks secrets before they leave; the server never holds them', async () => {
    const id = '5ec00000-0000-4000-8000-000000000003';
    const logs = path.join(home, 'antigravity-ide', 'brain', id, '.system_generated', 'logs');
    fs.mkdirSync(logs, { recursive: true });
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    fs.writeFileSync(
      path.join(logs, 'transcript.jsonl'),
      `${JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', content: `token ${secret}` })}\n`,
    );
    const run = await push(['--session', id, '--redact']);
    expect(run.summary).toMatchObject({ files: 1, failed: [] });
    const there = fs.readFileSync(
      path.join(serverCopy('antigravity-ide', id), '.system_generated/logs/transcript.jsonl'),
      'utf8',
    );
    expect(there).not.toContain(secret);
    expect(there).toContain('token [REDACTED:');
    // Unchanged since: nothing to mask or send again.
    expect((await push(['--session', id, '--redact'])).summary).toMatchObject({
      files: 0,
      bytesSent: 0,
      skipped: 1,
    });
  });

  it('exit codes: 2 without --url, 4 for a read key or no server, 1 when a file is refused', async () => {
    const noUrl = await brainql(['push'], env());
    expect([noUrl.code, noUrl.stderr]).toEqual([
      2,
      'brainql: push needs --url URL (the server to push to)\n',
    ]);
    const readKey = await push([], { BRAINQL_KEY: KEYS.all });
    expect([readKey.code, readKey.stderr]).toEqual([
      4,
      'brainql: the ingest routes need a push key (keygen --push) (FORBIDDEN)\n',
    ]);
    const away = await brainql(['push', '--url', 'http://127.0.0.1:9', '--json'], env());
    expect(away.code).toBe(4);
    expect(away.stderr).toMatch(
      /^brainql: cannot reach the server: http:\/\/127\.0\.0\.1:9: connect ECONNREFUSED/,
    );
    // A file the server refuses (a conflicting folder on the server side) fails alone.
    const id = 'f0f00000-0000-4000-8000-000000000004';
    const sdir = path.join(home, 'antigravity-ide', 'brain', id);
    fs.mkdirSync(path.join(sdir, '.system_generated', 'logs'), { recursive: true });
    fs.writeFileSync(path.join(sdir, '.system_generated', 'logs', 'transcript.jsonl'), '{}\n');
    fs.writeFileSync(path.join(sdir, 'notes.md'), 'n\n');
    fs.mkdirSync(path.join(serverCopy('antigravity-ide', id), 'notes.md'), { recursive: true });
    const refused = await push(['--session', id]);
    expect(refused.code).toBe(1);
    expect(refused.summary!.failed).toEqual([
      {
        session: id,
        path: 'notes.md',
        code: 'BAD_USER_INPUT',
        message: '"notes.md" exists and is not a regular file',
      },
    ]);
    expect(refused.stderr).toBe('brainql: 1 files could not be pushed\n');
  });
});
