import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/fs-util';
import { EXAMPLE_HOME, ensureBuilt, ROOT } from './bin';
import { KEYS, startCollector, type Collector } from '../ingest/ingest-server';

/**
 * The README's push recipes: they never fetch `brainql` from the npm registry (the package is
 * private: `npx brainql` outside a checkout runs whatever someone publishes under the name),
 * the unit keeps the key out of its own (world-readable) file, and the CI recipe's push line,
 * run as written from this checkout, pushes.
 */

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const block = (name: string) =>
  new RegExp(`<!-- ${name} -->\\n+\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n+<!-- /${name} -->`).exec(
    readme,
  )?.[1] ?? '';
const ci = block('push-ci-recipe');
const unit = block('push-unit');
const collect = readme.slice(
  readme.indexOf('## Collect from many machines'),
  readme.indexOf('## Security'),
);
/** The section's code blocks: what a reader copies and runs. */
const code = [...collect.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');

let dir: string;
let c: Collector;

beforeAll(async () => {
  ensureBuilt();
  dir = makeTempDir('brainql-push-recipe-');
  fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'server-home'));
}, 180_000);
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('no recipe installs brainql from the npm registry', () => {
  expect(ci).not.toBe('');
  expect(unit).not.toBe('');
  expect(code).not.toMatch(/npx (--yes )?brainql/);
  expect(ci).toContain('(cd "$BRAINQL" && npm ci)');
  expect(unit).toContain(
    'ExecStart=/usr/bin/node %h/src/brainql/dist/cli/main.js push --watch --url https://brainql.example.com',
  );
});

it('the unit reads the key from a 0600 file, not from the unit; no network-online.target', () => {
  expect(unit).toContain('EnvironmentFile=%h/.config/brainql/push.env');
  expect(unit).not.toMatch(/^Environment=/m);
  expect(unit).not.toMatch(/^After=network-online\.target/m);
  expect(code).toContain(
    "(umask 077 && printf 'BRAINQL_KEY=%s\\n' 'bql_...your-push-key...' > ~/.config/brainql/push.env)",
  );
});

it("the CI recipe's push line, run from the checkout, pushes the ACP run", async () => {
  const line = ci
    .split('\n')
    .find((l) => l.includes('push --url'))!
    .trim();
  const home = makeTempDir('brainql-push-recipe-home-');
  fs.cpSync(EXAMPLE_HOME, home, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GEMINI_HOME: home,
    CACHE_DIR: path.join(dir, 'cache'),
    BRAINQL: ROOT,
    BRAINQL_KEY: KEYS.ci,
  };
  const cmd = line.replace('https://brainql.example.com', c.url);
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile('bash', ['-eo', 'pipefail', '-c', cmd], { env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    ),
  );
  expect([run.code, run.stderr]).toEqual([0, '']);
  const acp = fs.readdirSync(path.join(home, 'antigravity-acp', 'brain')).length;
  expect(JSON.parse(run.stdout)).toMatchObject({ sessions: acp, failed: [] });
  expect(fs.readdirSync(path.join(c.ingestDir, 'ci-runner')).filter((f) => f !== '.tmp')).toEqual([
    'antigravity-acp',
  ]);
}, 120_000);
