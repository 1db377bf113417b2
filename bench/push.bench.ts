import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { hashKey } from '../src/auth/api-keys';
import { Corpus, rng, writeHome } from './generate';
import { mb, ms, row, type Row } from './report';
import { freePort, startServer, waitReady } from './server';

/**
 * Figure 20, collecting: the first push of a generated home to a server over loopback, beside
 * the floor of this disk (the same files, each written and fsynced once by a plain loop), the
 * client's and the server's RSS growth, a second push with nothing changed (time, bytes sent),
 * and `push --watch`: appended lines until a `steps` subscriber of the server has them.
 *
 * The first push and the floor alternate ROUNDS times (each push a first one: a fresh client
 * cache and its own push key, so its own source folder), and each keeps its best, as the other
 * throughput figures do: a shared machine only ever adds time. Before each measurement the
 * server is let go idle (the home index catches up on what the last push brought).
 */

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const ROUNDS = 3;
const pushKey = (round: number) => `bql_bench-push-key-${round}`;
const READ_KEY = 'bql_bench-read-key';
const APPENDS = 20;
const UUID_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function filesOf(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) filesOf(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The files a push sends: every plain file of every session folder (not the root's own). */
function sessionFiles(home: string): string[] {
  const out: string[] = [];
  for (const flavor of fs.readdirSync(home)) {
    const brain = path.join(home, flavor, 'brain');
    for (const id of fs.readdirSync(brain))
      if (UUID_DIR.test(id)) filesOf(path.join(brain, id), out);
  }
  return out;
}

/** CPU time (ms) this process has used. */
function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The disk's floor: each of `files` (under `home`) read, then written under `to` and fsynced
 * once, one after the other. Folders are made without an fsync, and a file's entry in its
 * folder is not fsynced either: what a push's answer promises costs more (see the note).
 */
function floor(files: string[], home: string, to: string): Floor {
  const cpu0 = ownCpuMs();
  const t0 = performance.now();
  let bytes = 0;
  for (const file of files) {
    const target = path.join(to, path.relative(home, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const data = fs.readFileSync(file);
    const fd = fs.openSync(target, 'w');
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    bytes += data.length;
  }
  return { seconds: (performance.now() - t0) / 1000, bytes, cpuMs: ownCpuMs() - cpu0 };
}

interface Floor {
  seconds: number;
  bytes: number;
  cpuMs: number;
}

function vm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return m ? Number(m[1]) * 1024 : NaN;
}

/** CPU time (ms) `pid` has used. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the name).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Waits until `pid` uses under 5 % of a core for a second (at most `limitS`); the seconds that took. */
async function idle(pid: number, limitS = 15): Promise<number> {
  const t0 = performance.now();
  let quiet = 0;
  let last = cpuMs(pid);
  while (quiet < 4 && performance.now() - t0 < limitS * 1000) {
    await new Promise((r) => setTimeout(r, 250));
    const now = cpuMs(pid);
    quiet = now - last < 12.5 ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - t0) / 1000 - 1;
}

interface PushRun {
  seconds: number;
  summary: { bytesSent: number; files: number };
  rss: { start: number; peak: number; cpuMs: number };
  /** CPU time the server used meanwhile (ms). */
  serverCpuMs: number;
}

function push(
  url: string,
  home: string,
  cache: string,
  key: string,
  rssFile: string,
  serverPid: number,
): PushRun {
  const cpu0 = cpuMs(serverPid);
  const t0 = performance.now();
  const out = execFileSync(
    process.execPath,
    ['-r', path.join(__dirname, 'push-rss.js'), BIN, 'push', '--url', url, '--json'],
    {
      env: {
        ...process.env,
        GEMINI_HOME: home,
        CACHE_DIR: cache,
        BRAINQL_KEY: key,
        BENCH_RSS_FILE: rssFile,
      },
      maxBuffer: 16 << 20,
    },
  ).toString();
  const seconds = (performance.now() - t0) / 1000;
  const serverCpuMs = cpuMs(serverPid) - cpu0;
  const rss = JSON.parse(fs.readFileSync(rssFile, 'utf8')) as PushRun['rss'];
  return { seconds, summary: JSON.parse(out) as PushRun['summary'], rss, serverCpuMs };
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

const record = (i: number) =>
  JSON.stringify({
    step_index: 10_000 + i,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    created_at: new Date().toISOString(),
    content: `watched line ${i}`,
  }) + '\n';

/**
 * `brainql push --watch` following `home` (already pushed with `key` and `cache`), and a
 * graphql-ws subscriber of `steps` on the server: APPENDS lines appended to one session's
 * transcript, each after the last arrived plus 200-500 ms; the milliseconds from each write to
 * its event.
 */
async function watchLatencies(
  port: number,
  home: string,
  cache: string,
  key: string,
): Promise<number[]> {
  const brain = path.join(home, 'antigravity-ide', 'brain');
  const id = fs.readdirSync(brain).filter((d) => UUID_DIR.test(d))[0];
  const transcript = path.join(brain, id, '.system_generated', 'logs', 'transcript.jsonl');
  const lines = fs.readFileSync(transcript, 'utf8').split('\n').length - 1;
  const child = spawn(
    process.execPath,
    [BIN, 'push', '--url', `http://127.0.0.1:${port}`, '--watch', '--json'],
    {
      env: { ...process.env, GEMINI_HOME: home, CACHE_DIR: cache, BRAINQL_KEY: key },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${READ_KEY}` },
    retryAttempts: 0,
  });
  const arrived = new Map<number, number>();
  let wake: (() => void) | null = null;
  let stop = () => undefined as void;
  const until = async (what: () => boolean, label: string, limitMs = 10_000) => {
    const deadline = performance.now() + limitMs;
    while (!what()) {
      if (performance.now() > deadline) throw new Error(`push --watch bench: no ${label}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
  };
  try {
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    // Its first push (nothing to send: the home is there already) is reported, then it watches.
    await until(() => out.includes('"sessions"'), 'first summary of push --watch', 60_000);
    // From the last record already there: its event says the subscription is in place.
    stop = client.subscribe(
      {
        query: `subscription { steps(sessionId: "${id}", fromPosition: ${lines - 1}) { position } }`,
      },
      {
        next: (v) => {
          arrived.set(
            (v.data as { steps: { position: number } }).steps.position,
            performance.now(),
          );
          wake?.();
        },
        error: (e) => console.error('push --watch bench: the subscription failed', e),
        complete: () => undefined,
      },
    );
    await until(() => arrived.has(lines - 1), 'event for the last record held');
    const out2: number[] = [];
    for (let i = 0; i < APPENDS; i++) {
      await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 300)));
      const t = performance.now();
      fs.appendFileSync(transcript, record(i));
      await until(() => arrived.has(lines + i), `event for appended line ${i}`);
      out2.push(arrived.get(lines + i)! - t);
    }
    return out2;
  } finally {
    stop();
    await client.dispose();
    child.kill('SIGTERM');
  }
}

export async function benchPush(sessions: number, rows: Row[]): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-bench-push-'));
  try {
    const home = path.join(dir, 'home');
    const r = rng(17);
    writeHome(home, sessions, new Corpus(4 << 20, r), r);
    const files = sessionFiles(home);
    const keys = path.join(dir, 'keys.json');
    const entries = Array.from({ length: ROUNDS }, (_, i) => ({
      name: `bench-${i + 1}`,
      sha256: hashKey(pushKey(i + 1)).toString('hex'),
      push: true,
    }));
    entries.push({ name: 'bench-read', sha256: hashKey(READ_KEY).toString('hex'), push: false });
    fs.writeFileSync(keys, JSON.stringify(entries));
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
      const pid = server.pid!;
      await idle(pid);
      const serverBefore = vm(pid, 'VmRSS');
      const url = `http://127.0.0.1:${port}`;
      const floors: Floor[] = [];
      const pushes: PushRun[] = [];
      let catchUp = 0;
      let serverGrowth = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        floors.push(floor(files, home, path.join(dir, `floor-${round}`)));
        const cache = path.join(dir, `client-cache-${round}`);
        pushes.push(push(url, home, cache, pushKey(round), path.join(dir, `rss-${round}`), pid));
        const waited = await idle(pid);
        if (round === 1) {
          // The server's growth from one push, and from indexing what it brought.
          catchUp = waited;
          serverGrowth = vm(pid, 'VmHWM') - serverBefore;
        }
      }
      const cache1 = path.join(dir, 'client-cache-1');
      const second = push(url, home, cache1, pushKey(1), path.join(dir, 'rss-second'), pid);
      const watch = await watchLatencies(port, home, cache1, pushKey(1));
      const mbps = (bytes: number, s: number) => bytes / 1e6 / s;
      const floorRates = floors.map((f) => mbps(f.bytes, f.seconds));
      const rates = pushes.map((p) => mbps(p.summary.bytesSent, p.seconds));
      const floorRate = Math.max(...floorRates);
      const rate = Math.max(...rates);
      const clientGrowth = Math.max(...pushes.map((p) => p.rss.peak - p.rss.start));
      const first = pushes[0].summary;
      const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
      rows.push(
        row(
          `20a first push, ${sessions} sessions (${mb(first.bytesSent)}, ${first.files} files), best of ${ROUNDS}`,
          `${rate.toFixed(1)} MB/s (${((100 * rate) / floorRate).toFixed(0)} %)`,
          `>= 100 MB/s or >= 80% of floor (${(0.8 * floorRate).toFixed(1)})`,
          rate >= 100 || rate >= 0.8 * floorRate,
        ),
        row(`20a   each push (MB/s)`, list(rates)),
        row(
          `20b floor: same ${files.length} files, write + fsync each, best of ${ROUNDS}`,
          `${floorRate.toFixed(1)} MB/s`,
        ),
        row(`20b   each floor (MB/s)`, list(floorRates)),
        row(
          '20b   CPU time of a push (client + server) / of a floor',
          `${list(pushes.map((p) => (p.rss.cpuMs + p.serverCpuMs) / 1000))} s / ${list(floors.map((f) => f.cpuMs / 1000))} s`,
        ),
        row(
          '20c client RSS growth (peak - start)',
          mb(clientGrowth),
          '< 150 MiB',
          clientGrowth < 150 << 20,
        ),
        row(
          '20d server RSS growth (peak - before, its index caught up)',
          mb(serverGrowth),
          '< 150 MiB',
          serverGrowth < 150 << 20,
        ),
        row(
          '20d   server idle again (home index caught up) after the first push',
          catchUp >= 14 ? 'over 15 s (not waited for)' : `${catchUp.toFixed(1)} s`,
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
        row(
          `20g push --watch: append -> steps event, ${APPENDS} appends`,
          `median ${ms(quantile(watch, 0.5))}, max ${ms(Math.max(...watch))}`,
          'median < 2 s',
          quantile(watch, 0.5) < 2000,
        ),
      );
      return [
        `figure 20: ${sessions} generated sessions; the client is the built bin (dist), timed whole (process start included).`,
        'figure 20: a push answers each file after fsync, rename and an fsync of its folder (and of each folder made for it); ' +
          'the floor fsyncs each file once and no folder, so it promises less than the push does.',
      ];
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
