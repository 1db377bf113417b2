import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/fs-util';
import { BIN, ensureBuilt, ROOT } from './bin';
import { ACP_ID, makeCliHome, SECRET_ID } from './cli-home';

/**
 * The README's CI recipe, run as written with bash: `agy` is a stand-in that writes a session
 * into the ACP root, `brainql` the compiled bin; the printed reasons are the README's.
 */

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const recipe =
  /<!-- ci-recipe -->\n+```sh\n([\s\S]*?)```\n+<!-- \/ci-recipe -->/.exec(readme)?.[1] ?? '';
const printed =
  /The recipe prints, for a run whose tests failed and that saw a token \(and exits 1\):\n\n```\n([\s\S]*?)```/.exec(
    readme,
  )?.[1] ?? '';

let fixtures: string;
let bin: string;

beforeAll(() => {
  ensureBuilt();
  fixtures = makeCliHome();
  bin = makeTempDir('brainql-cli-bin-');
  fs.writeFileSync(
    path.join(bin, 'brainql'),
    `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`,
    { mode: 0o755 },
  );
  // `agy` copies the session named by $RUN_TEMPLATE into the home, as a headless run would write it.
  fs.writeFileSync(
    path.join(bin, 'agy'),
    '#!/bin/sh\nmkdir -p "$GEMINI_HOME/antigravity-acp/brain" && cp -R "$RUN_TEMPLATE" "$GEMINI_HOME/antigravity-acp/brain/"\n',
    { mode: 0o755 },
  );
}, 180_000);

function runRecipe(template: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = makeTempDir('brainql-cli-ci-home-');
  const env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME,
    GEMINI_HOME: home,
    CACHE_DIR: path.join(home, '..', `${path.basename(home)}-cache`),
    RUN_TEMPLATE: template,
    PROMPT: 'fix the failing tests',
    TZ: 'UTC',
  };
  return new Promise((resolve) => {
    execFile('bash', ['-eo', 'pipefail', '-c', recipe], { env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    );
  });
}

it('the README has the recipe and its output', () => {
  expect(recipe).toContain('brainql check "$RUN" --fail-on failed-commands,secrets');
  expect(printed).not.toBe('');
});

// Each runs the recipe's CLI processes one after another: about 7 s alone, several times that
// on a busy machine; the tests read what the recipe prints, not how fast.
it('fails a run with a failed command and a secret, printing what the README shows', async () => {
  const r = await runRecipe(path.join(fixtures, 'antigravity-ide/brain', SECRET_ID));
  expect(r.code).toBe(1);
  expect(r.stdout).toBe(printed);
  expect(r.stderr).toContain(`${SECRET_ID}: check failed (failed-commands, secrets)`);
}, 300_000);

it('passes a clean run', async () => {
  const r = await runRecipe(path.join(fixtures, 'antigravity-acp/brain', ACP_ID));
  expect([r.code, r.stdout]).toEqual([
    0,
    `${ACP_ID}: idle (1 records, last line 2026-06-01 08:00)\n${ACP_ID}: ok (failed-commands, secrets)\n`,
  ]);
}, 300_000);
