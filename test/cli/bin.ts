import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureConsoleBuilt } from '../console/build';
import { withBuildLock } from '../fixtures/build-lock';

/**
 * Runs the compiled `brainql` bin (dist/cli/main.js) as a child process, as a user would.
 * `ensureBuilt` compiles the server when dist is missing or older than a source file, and the
 * console when it is, so a fresh clone's `npm test` builds what it runs (the bin made
 * executable included), as `npm run build` would.
 */

export const ROOT = path.resolve(__dirname, '../..');
export const BIN = path.join(ROOT, 'dist/cli/main.js');
export const EXAMPLE_HOME = path.join(ROOT, 'example-home');

export function newestSource(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
      newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(): void {
  const stale = () =>
    (fs.statSync(BIN, { throwIfNoEntry: false })?.mtimeMs ?? 0) <
    newestSource(path.join(ROOT, 'src'));
  // The server only: the console has its own check (ensureConsoleBuilt), and rebuilding it here
  // would empty dist/console under a browser spec serving it.
  withBuildLock(stale, () => {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    fs.chmodSync(BIN, 0o755);
  });
  ensureConsoleBuilt();
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  bytes: Buffer;
}

/** Variables a test must not inherit (the user's home, colours, keys). */
const DROP = [
  'GEMINI_HOME',
  'BRAIN_ROOTS',
  'BRAINQL_KEY',
  'NO_COLOR',
  'FORCE_COLOR',
  'REDACT',
  'COLUMNS',
];

export function brainql(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, TZ: 'UTC' };
  for (const k of DROP) delete base[k];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...base, ...env }, encoding: 'buffer', maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 99) : 0;
        resolve({
          code: typeof code === 'number' ? code : 99,
          stdout: stdout.toString('utf8'),
          stderr: stderr.toString('utf8'),
          bytes: stdout,
        });
      },
    );
  });
}

/** Parses a run's stdout as JSON, failing with its stderr when it exited non-zero. */
export function json<T = unknown>(run: Run): T {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
