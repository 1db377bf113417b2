import * as fs from 'node:fs';
import * as path from 'node:path';
import { brainql, ensureBuilt } from '../cli/bin';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, startCollector, type Collector } from './ingest-server';

/**
 * brainql push --redact: an unfinished transcript line is held back until it ends, the
 * client's own REDACT_PATTERNS apply, binary files are told apart as the server's downloads
 * tell them (signature, not name), and a dry run leaves no masked copy behind.
 */

const REL = '.system_generated/logs/transcript.jsonl';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const line = (i: number, content: string) =>
  `${JSON.stringify({ step_index: i, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', content })}\n`;

let dir: string;
let home: string;
let c: Collector;
const cache = () => path.join(dir, 'cache');
const push = (args: string[], more: Record<string, string> = {}) =>
  brainql(['push', '--url', c.url, '--json', '--redact', ...args], {
    GEMINI_HOME: home,
    CACHE_DIR: cache(),
    BRAINQL_KEY: KEYS.ci,
    ...more,
  });
function session(id: string): string {
  const sdir = path.join(home, 'antigravity-ide', 'brain', id);
  fs.mkdirSync(path.join(sdir, '.system_generated', 'logs'), { recursive: true });
  return sdir;
}
const there = (id: string, rel: string) =>
  path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain', id, rel);

beforeAll(async () => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-redact-');
  home = path.join(dir, 'home');
  fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'server-home'));
}, 180_000);
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('holds back an unfinished last line (half a token) until its newline is written', async () => {
  const id = '4ed00000-0000-4000-8000-000000000001';
  const t = path.join(session(id), REL);
  const first = line(0, 'hello');
  const second = line(1, `token ${TOKEN}`);
  const cut = second.indexOf(TOKEN) + 20;
  fs.writeFileSync(t, first + second.slice(0, cut));
  const run1 = await push(['--session', id]);
  expect(run1.code).toBe(0);
  expect(JSON.parse(run1.stdout)).toMatchObject({ files: 1, bytesSent: first.length });
  expect(fs.readFileSync(there(id, REL), 'utf8')).toBe(first);
  fs.appendFileSync(t, second.slice(cut));
  const run2 = await push(['--session', id]);
  expect(run2.code).toBe(0);
  const held = fs.readFileSync(there(id, REL), 'utf8');
  expect(held.startsWith(first)).toBe(true);
  expect(held).not.toContain(TOKEN.slice(0, 20));
  expect(held).toContain('"content":"token [REDACTED:');
  expect(JSON.parse(run2.stdout)).toMatchObject({
    files: 1,
    bytesSent: held.length - first.length,
  });
});

it("masks the client's own REDACT_PATTERNS", async () => {
  const id = '4ed00000-0000-4000-8000-000000000002';
  fs.writeFileSync(path.join(session(id), REL), line(0, 'order ACME-123456 shipped'));
  const run = await push(['--session', id], { REDACT_PATTERNS: 'ACME-[0-9]{6}' });
  expect(run.code).toBe(0);
  const held = fs.readFileSync(there(id, REL), 'utf8');
  expect(held).not.toContain('ACME-123456');
  expect(held).toContain('order [REDACTED');
});

it('binary by signature goes as it is; a NUL byte under a binary name is text, masked', async () => {
  const id = '4ed00000-0000-4000-8000-000000000003';
  const sdir = session(id);
  fs.writeFileSync(path.join(sdir, REL), line(0, 'pictures'));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]),
    Buffer.from(`tEXt ${TOKEN}\n`),
  ]);
  fs.writeFileSync(path.join(sdir, 'media__0.png'), png);
  fs.writeFileSync(path.join(sdir, 'media__1.png'), `\0 not an image: ${TOKEN}\n`);
  const run = await push(['--session', id]);
  expect(run.code).toBe(0);
  expect(fs.readFileSync(there(id, 'media__0.png')).equals(png)).toBe(true);
  const masked = fs.readFileSync(there(id, 'media__1.png'), 'utf8');
  expect(masked).not.toContain(TOKEN);
  expect(masked.startsWith('\0 not an image: [REDACTED:')).toBe(true);
  // The server's own download of each: the same rule, so the same bytes.
  const dl = await fetch(`${c.url}/api/sessions/${id}/files/media__0.png`, {
    headers: { authorization: `Bearer ${KEYS.all}` },
  });
  expect(Buffer.from(await dl.arrayBuffer()).equals(png)).toBe(true);
});

it('--dry-run --redact leaves no masked copy in CACHE_DIR/push-masked', async () => {
  const id = '4ed00000-0000-4000-8000-000000000004';
  fs.writeFileSync(path.join(session(id), REL), line(0, `token ${TOKEN}`));
  const before = fs.existsSync(path.join(cache(), 'push-masked'))
    ? fs.readdirSync(path.join(cache(), 'push-masked')).sort()
    : [];
  const run = await push(['--session', id, '--dry-run']);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ files: 1, bytesSent: 0 });
  expect(fs.readdirSync(path.join(cache(), 'push-masked')).sort()).toEqual(before);
  expect(fs.existsSync(there(id, REL))).toBe(false);
});
