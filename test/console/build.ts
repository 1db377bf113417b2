import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withBuildLock } from '../fixtures/build-lock';

/**
 * The built console (dist/console) for the tests that serve it. A fresh clone has no dist/:
 * the first spec that needs it builds it (`npm run build:console`: codegen, tsc, vite; a few
 * seconds) and the others find it current. The build lock keeps it from running beside any
 * other build a spec starts; the one that waits then finds the build done.
 */

export const ROOT = path.resolve(__dirname, '../..');
const INDEX = path.join(ROOT, 'dist/console/index.html');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'gql') t = Math.max(t, newest(p));
    } else t = Math.max(t, fs.statSync(p).mtimeMs);
  }
  return t;
}

function current(): boolean {
  const built = fs.statSync(INDEX, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  // The console's sources, the schema its documents are typed from, and the server files it
  // imports (one rule in one place: visible text, the README's example queries, search terms,
  // hours of the week).
  const shared = [
    'schema.gql',
    'src/export/visible-text.ts',
    'src/web/example-queries.ts',
    'src/index/query.ts',
    'src/sessions/hour-names.ts',
  ];
  const sources = Math.max(
    newest(path.join(ROOT, 'console')),
    ...shared.map((f) => fs.statSync(path.join(ROOT, f)).mtimeMs),
  );
  return built >= sources;
}

export function ensureConsoleBuilt(): void {
  withBuildLock(
    () => !current(),
    () => {
      // Jest sets NODE_ENV=test, which Vite would take for a development build of React.
      const env = { ...process.env, NODE_ENV: 'production' };
      execFileSync('npm', ['run', 'build:console', '--silent'], {
        cwd: ROOT,
        stdio: 'inherit',
        env,
      });
    },
  );
}
