import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hashKey } from '../src/auth/api-keys';
import { Corpus, rng, writeHome } from './generate';
import { mb, ms, row, type Row } from './report';
import { freePort, startServer, waitReady } from './server';

/**
 * Figure 17, collecting: the first push of a generated home to a server over loopback, beside
 * the floor of this disk (the same files written and fsynced by a plain loop), the client's
 * and the server's RSS growth, and a second push with nothing changed (time, bytes sent).
 */

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const KEY = 'bql_bench-push-key';

function filesOf(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) filesOf(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** MB/s of writing every file of `home` under `to` with a plain write + fsync each. */
function floorMBps(home: string, to: string): { seconds: number; bytes: number } {
  const t0 = performance.now();
  let bytes = 0;
  for (const file of filesOf(home)) {
    const target = path.join(to, path.relative(home, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const data = fs.readFileSync(file);
    const fd = fs.openSync(target, 'w');
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    bytes += data.length;
  }
  return { seconds: (performance.now() - t0) / 1000, bytes };
}

function vm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return m ? Number(m[1]) * 1024 : NaN;
}

function push(url: string, home: string, cache: string, rssFile: string) {
  const t0 = performance.now();
  const out = execFileSync(
    process.execPath,
    ['-r', path.join(__dirname, 'push-rss.js'), BIN, 'push', '--url', url, '--json'],
    {
      env: {
        ...process.env,
        GEMINI_HOME: home,
        CACHE_DIR: cache,
        BRAINQL_KEY: KEY,
        BENCH_RSS_FILE: rssFile,
      },
      maxBuffer: 16 << 20,
    },
  ).toString();
  const seconds = (performance.now() - t0) / 1000;
  const rss = JSON.parse(fs.readFileSync(rssFile, 'utf8')) as { start: number; peak: number };
  return { seconds, summary: JSON.parse(out) as { bytesSent: number; files: number }, rss };
}

export async function benchPush(sessions: number, rows: Row[]): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-bench-push-'));
  try {
    const home = path.join(dir, 'home');
    const r = rng(17);
    writeHome(home, sessions, new Corpus(4 << 20, r), r);
    const floor = floorMBps(home, path.join(dir, 'floor'));
    const keys = path.join(dir, 'keys.json');
    const sha256 = hashKey(KEY).toString('hex');
    fs.writeFileSync(keys, JSON.stringify([{ name: 'bench', sha256, push: true }]));
    fs.mkdirSync(path.join(dir, 'server-home', 'antigravity-ide', 'brain'), { recursive: true });
    const port = await freePort();
    const server = startServer(port, {
      GEMINI_HOME: path.join(dir, 'server-home'),
      API_KEYS_FILE: keys,
      INGEST_DIR: path.join(dir, 'ingest'),
      CACHE_DIR: path.join(dir, 'server-cache'),
    });
    try {
      await waitReady(port);
      const serverBefore = vm(server.pid!, 'VmRSS');
      const url = `http://127.0.0.1:${port}`;
      const first = push(url, home, path.join(dir, 'client-cache'), path.join(dir, 'rss1'));
      const serverGrowth = vm(server.pid!, 'VmHWM') - serverBefore;
      const second = push(url, home, path.join(dir, 'client-cache'), path.join(dir, 'rss2'));
      const mbps = (bytes: number, s: number) => bytes / 1e6 / s;
      const floorRate = mbps(floor.bytes, floor.seconds);
      const rate = mbps(first.summary.bytesSent, first.seconds);
      const clientGrowth = first.rss.peak - first.rss.start;
      rows.push(
        row(
          `20a first push, ${sessions} sessions (${mb(first.summary.bytesSent)}, ${first.summary.files} files)`,
          `${rate.toFixed(1)} MB/s`,
          `>= 100 MB/s or >= 80% of floor (${(0.8 * floorRate).toFixed(1)})`,
          rate >= 100 || rate >= 0.8 * floorRate,
        ),
        row('20b floor: same files, plain write + fsync each', `${floorRate.toFixed(1)} MB/s`),
        row(
          '20c client RSS growth (peak - start)',
          mb(clientGrowth),
          '< 150 MiB',
          clientGrowth < 150 << 20,
        ),
        row(
          '20d server RSS growth (peak - before)',
          mb(serverGrowth),
          '< 150 MiB',
          serverGrowth < 150 << 20,
        ),
        row(
          '20e second push, nothing changed',
          ms(second.seconds * 1000),
          '< 2 s',
          second.seconds < 2,
        ),
        row(
          '20f second push, bytes sent',
          String(second.summary.bytesSent),
          '0',
          second.summary.bytesSent === 0,
        ),
      );
      return [
        `figure 20: ${sessions} generated sessions; the client is the built bin (dist), timed whole (start included).`,
      ];
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
