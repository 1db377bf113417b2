import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIN, ensureBuilt, ROOT } from '../test/cli/bin';
import type { Size } from './generate';
import { ensureIndexHome } from './generate-index-home';
import { mb, ms, row, type Row } from './report';
import { median } from './stats';

/**
 * Figure 16: `brainql list -n 20` over the index bench's home (2,000 sessions; 1 GB at
 * --size large), each run a fresh process of the compiled bin: cold (no index file: the
 * store scans the roots and reads the 20 newest transcripts) and with the index file the
 * build left (heads and summaries read from it), beside `node -e 0`, the process start alone,
 * `npx brainql` as users run it (npx's own start included) and `ls -f | wc -l` of the root.
 */

const RUNS = 5;

function wall(args: string[], env: NodeJS.ProcessEnv, command = process.execPath): number {
  const t0 = performance.now();
  const out = spawnSync(command, args, { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const took = performance.now() - t0;
  if (out.status !== 0)
    throw new Error(`${args.join(' ')} exited ${out.status}: ${String(out.stderr)}`);
  return took;
}

export function benchCliList(home: string, cacheDir: string, sessions: string, rows: Row[]): void {
  ensureBuilt();
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: os.homedir(),
    TZ: 'UTC',
    GEMINI_HOME: home,
  };
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-bench-cli-'));
  const list = [BIN, 'list', '-n', '20'];
  try {
    wall(list, { ...base, CACHE_DIR: empty }); // page cache warm, like the other figures
    const start = median(Array.from({ length: RUNS }, () => wall(['-e', '0'], base)));
    const cold = median(
      Array.from({ length: RUNS }, () => wall(list, { ...base, CACHE_DIR: empty })),
    );
    // As users run it (npx finds the package's bin), and the cheapest look at the same folder.
    const npx = median(
      Array.from({ length: RUNS }, () =>
        wall(['brainql', 'list', '-n', '20'], { ...base, CACHE_DIR: empty }, 'npx'),
      ),
    );
    const brain = path.join(home, 'antigravity-ide', 'brain');
    const ls = median(
      Array.from({ length: RUNS }, () => wall(['-c', `ls -f '${brain}' | wc -l`], base, 'sh')),
    );
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const cached = median(
      Array.from({ length: RUNS }, () => wall(list, { ...base, CACHE_DIR: cacheDir })),
    );
    rows.push(
      row(
        `16. brainql list -n 20, ${sessions}: cold (no cache), median of ${RUNS}`,
        ms(cold),
        '< 1000 ms',
        cold < 1000,
      ),
    );
    rows.push(
      row(`16. same, with the index file, median of ${RUNS}`, ms(cached), '< 300 ms', cached < 300),
    );
    rows.push(row(`16.   node -e 0 (process start), median of ${RUNS}`, ms(start)));
    rows.push(
      row(
        `16.   npx brainql list -n 20, cold, as users run it (load average ${load}), median of ${RUNS}`,
        ms(npx),
      ),
    );
    rows.push(row(`16.   ls -f <brain root> | wc -l (baseline), median of ${RUNS}`, ms(ls)));
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * `--only cli`: figure 16 on the index bench's home, without the index figures' build. The
 * index file comes from `brainql stats` (which waits for a complete index) into the data's
 * `cache-cli/`, built once and reused while the home is.
 */
export function benchCliOnly(size: Size, rows: Row[]): string[] {
  const data = ensureIndexHome(size);
  const sessions = `${data.sessions.toLocaleString('en')} sessions`;
  console.log(`index home (${size}): ${data.home}, ${sessions}, ${mb(data.transcriptBytes)}`);
  ensureBuilt();
  const cacheDir = path.join(data.root, 'cache-cli');
  if (data.reused === false) fs.rmSync(cacheDir, { recursive: true, force: true });
  if (!fs.existsSync(path.join(cacheDir, 'index.sqlite'))) {
    fs.mkdirSync(cacheDir, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: os.homedir(), TZ: 'UTC', GEMINI_HOME: data.home };
    console.log(`building the index file with brainql stats into ${cacheDir}`);
    wall([BIN, 'stats'], { ...env, CACHE_DIR: cacheDir });
  }
  benchCliList(data.home, cacheDir, sessions, rows);
  return [`figure 16 alone (--only cli): the index file was built by brainql stats (${cacheDir})`];
}
