import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Corpus, rng, writeHome } from './generate';

/**
 * The console bench's 10,000-session home (issue 20: "the sessions page of a 10,000-session
 * home"), at every size: the store bench's sessions (10-40 records each, one in five with a full
 * transcript), built once under os.tmpdir() and reused while the manifest matches.
 */
export const CONSOLE_HOME_SESSIONS = 10_000;
const GENERATOR_VERSION = 1;

export function ensureConsoleHome(): { home: string; reused: boolean; ms: number } {
  const root = path.join(os.tmpdir(), 'brainql-bench-console-home');
  const home = path.join(root, 'home');
  const manifest = path.join(root, 'manifest.json');
  const wanted = JSON.stringify({ version: GENERATOR_VERSION, sessions: CONSOLE_HOME_SESSIONS });
  const t0 = performance.now();
  if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8') === wanted) {
    return { home, reused: true, ms: 0 };
  }
  fs.rmSync(root, { recursive: true, force: true });
  const r = rng(20261205);
  writeHome(home, CONSOLE_HOME_SESSIONS, new Corpus(4 << 20, r), r);
  fs.writeFileSync(manifest, wanted);
  return { home, reused: false, ms: performance.now() - t0 };
}
