import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, put } from '../fixtures/fs-util';
import { pairFiles, planner, userInput } from '../fixtures/records';
import { BIN, brainql, ensureBuilt } from './bin';

/**
 * `export` without -o and `raw` to a terminal: brain text must not drive it (titles, clears,
 * clipboard) nor reorder what it shows (bidi overrides).
 */

const ID = 'e5c00000-0000-4000-8000-000000000001';
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';
const CLIPBOARD = '\u001b]52;c;ZXZpbA==\u0007';
const C1_CSI = '\u009b31m';
const RLO = '\u202e';
/** What a terminal would obey: ESC, BEL, the C1 CSI, the right-to-left override. */
const OBEYED = ['\u001b', '\u0007', '\u009b', RLO];
const HOSTILE = `title ${TITLE} clear ${CLEAR} clip ${CLIPBOARD} csi ${C1_CSI} end ${RLO}txt.exe`;

let home: string;
const env = () => ({ GEMINI_HOME: home, CACHE_DIR: makeTempDir('brainql-cli-tty-cache-') });

/** Runs the bin with stdout on a pseudo-terminal (`script`), standard error dropped. */
function underTty(args: string[]): Promise<Buffer> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve, reject) => {
    execFile(
      'script',
      ['-qc', `${command} 2>/dev/null`, '/dev/null'],
      { env: { ...process.env, TZ: 'UTC', ...env() }, encoding: 'buffer' },
      (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout)),
    );
  });
}

beforeAll(() => {
  ensureBuilt();
  home = makeTempDir('brainql-cli-tty-home-');
  const { compact, full } = pairFiles([
    userInput(0, '2026-06-04T10:00:00Z', {
      request: HOSTILE,
      localTime: '2026-06-04T12:00:00+02:00',
    }),
    planner(1, '2026-06-04T10:00:02Z', { content: `answer ${HOSTILE}` }),
  ]);
  const logs = path.join(home, 'antigravity-ide', 'brain', ID, '.system_generated/logs');
  put(path.join(logs, 'transcript.jsonl'), compact);
  put(path.join(logs, 'transcript_full.jsonl'), full);
}, 180_000);

it('shows control characters as U+FFFD on a terminal; a pipe keeps the exact bytes', async () => {
  const tty = await underTty(['export', ID, '--format', 'markdown']);
  const shown = tty.toString('utf8');
  expect(shown).toContain('title \uFFFD]0;pwned\uFFFD clear \uFFFD[2J');
  expect(shown).toContain('clip \uFFFD]52;c;ZXZpbA==\uFFFD csi \uFFFD31m end \uFFFDtxt.exe');
  expect(shown).toContain(`answer title \uFFFD]0;pwned\uFFFD`);
  expect(tty.includes(0x1b)).toBe(false);
  expect(tty.includes(0x07)).toBe(false);
  expect(tty.includes(0x9b)).toBe(false);
  expect(shown).not.toContain(RLO);

  // Markdown is for people, piped or not (pagers, renderers); the JSON export keeps the exact
  // text, with the characters a viewer would obey as escapes.
  const piped = await brainql(['export', ID, '--format', 'markdown'], env());
  expect(piped.code).toBe(0);
  expect(piped.stdout).toContain('answer title \uFFFD]0;pwned\uFFFD clear \uFFFD[2J');
  for (const c of OBEYED) expect(piped.stdout).not.toContain(c);
  const json = await brainql(['export', ID, '--format', 'json'], env());
  for (const c of OBEYED) expect(json.stdout).not.toContain(c);
  const parsed = JSON.parse(json.stdout) as { session: { userRequest: string } };
  expect(parsed.session.userRequest).toBe(HOSTILE);
});

it('raw: a terminal gets the line cleaned, a pipe its exact bytes', async () => {
  const tty = (await underTty(['raw', ID, '0'])).toString('utf8');
  // The JSON line escapes the C0/C1 controls itself (\u001b stays six characters of text); the
  // override is a raw character of a valid JSON string.
  expect(tty).toContain('end \uFFFDtxt.exe');
  expect(tty).not.toContain(RLO);
  const piped = await brainql(['raw', ID, '0'], env());
  expect(piped.code).toBe(0);
  expect(piped.stdout).toContain(`end ${RLO}txt.exe`);
});

it("export -o - writes to standard output, not to a file named '-'", async () => {
  const [dash, plain] = await Promise.all([
    brainql(['export', ID, '--format', 'json', '-o', '-'], env()),
    brainql(['export', ID, '--format', 'json'], env()),
  ]);
  expect([dash.code, dash.stderr]).toEqual([0, '']);
  expect(dash.stdout).toBe(plain.stdout);
  expect(fs.existsSync(path.join(process.cwd(), '-'))).toBe(false);
});
