import * as fs from 'node:fs';
import * as path from 'node:path';
import { brainql, ensureBuilt } from '../cli/bin';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, startCollector, type Collector } from './ingest-server';

/**
 * What brainql push selects: a named session or flavor that matches nothing is an error, no
 * brain home at all is a usage error, a linked flavor folder is not followed, and a session
 * folder without a transcript is counted as skipped.
 */

const ID = '5e100000-0000-4000-8000-000000000001';
const LINE =
  '{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","content":"hi"}\n';

let dir: string;
let home: string;
let c: Collector;
const push = (args: string[], more: Record<string, string> = {}) =>
  brainql(['push', '--url', c.url, '--json', ...args], {
    GEMINI_HOME: home,
    CACHE_DIR: path.join(dir, 'cache'),
    BRAINQL_KEY: KEYS.ci,
    ...more,
  });

beforeAll(async () => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-select-');
  home = path.join(dir, 'home');
  const logs = path.join(home, 'antigravity-ide', 'brain', ID, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), LINE);
  // A session folder with no transcript yet.
  fs.mkdirSync(path.join(home, 'antigravity-ide', 'brain', '5e100000-0000-4000-8000-000000000002'));
  // A flavor folder that is a link to a brain root elsewhere.
  const elsewhere = path.join(dir, 'elsewhere');
  const other = path.join(elsewhere, 'brain', '5e100000-0000-4000-8000-000000000003');
  fs.mkdirSync(path.join(other, '.system_generated', 'logs'), { recursive: true });
  fs.writeFileSync(path.join(other, '.system_generated', 'logs', 'transcript.jsonl'), LINE);
  fs.symlinkSync(elsewhere, path.join(home, 'antigravity-acp'));
  fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'server-home'));
}, 180_000);
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a linked flavor folder is not followed; a session without a transcript is skipped', async () => {
  const run = await push([]);
  expect([run.code, run.stderr]).toEqual([0, '']);
  expect(JSON.parse(run.stdout)).toEqual({
    sessions: 1,
    files: 1,
    bytesSent: LINE.length,
    skipped: 1,
    failed: [],
    recovered: 0,
  });
  expect(fs.readdirSync(path.join(c.ingestDir, 'ci-runner')).filter((f) => f !== '.tmp')).toEqual([
    'antigravity-ide',
  ]);
});

it('--session that matches nothing: exit 1, named', async () => {
  const run = await push(['--session', 'nope']);
  expect([run.code, run.stdout, run.stderr]).toEqual([1, '', 'brainql: no session matches nope\n']);
});

it('--flavor no root has: exit 1, naming the flavors there are', async () => {
  const run = await push(['--flavor', 'nope']);
  expect([run.code, run.stdout, run.stderr]).toEqual([
    1,
    '',
    'brainql: no brain root of flavor nope (the home has: antigravity-ide)\n',
  ]);
});

it('no brain home at all: exit 2', async () => {
  const empty = makeTempDir('brainql-push-empty-');
  const run = await push([], { GEMINI_HOME: empty });
  expect([run.code, run.stdout, run.stderr]).toEqual([
    2,
    '',
    `brainql: no brain home in ${empty} (set GEMINI_HOME or BRAIN_ROOTS): nothing to push\n`,
  ]);
});
