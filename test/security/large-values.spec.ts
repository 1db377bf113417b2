import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/ops/node-flags';
import { Redactor } from '../../src/redaction/redactor';
import { ensureBuilt, ROOT } from '../cli/bin';
import { makeTempDir } from '../fixtures/brain-home';
import { pairFiles, planner, userInput } from '../fixtures/records';

/**
 * Issue 19 item 3: whatever the concurrency, large answers keep the server's RSS under
 * CACHE_MAX_MB + 300 MB. The compiled server (`node <SERVER_NODE_FLAGS> dist/main.js`, as users
 * run it: a ts-node child starts fat and hides the figure) serves one 32 MB step with REDACT=on,
 * a secret on every line (the worst for memory: masked whole, one such answer added 400 MiB to
 * the peak, against 135 MiB for plain text of the same size);
 * 20 concurrent reads of it in full (10 GraphQL `content(full: true)`, 10 REST
 * `steps/1?full=true`) must keep its peak RSS (VmHWM, the kernel's figure) under the bound.
 * Each answer is the exact full content or RATE_LIMITED 429 with Retry-After; at least one is
 * served (which ones is up to the machine's speed).
 *
 * The home index is built by a first start (its first read of a 32 MB value is not an answer's:
 * see README "Memory bounds"), so the second start measures the answers alone, as a server
 * restarted on its kept index does.
 */

const ID = '1a1a1a1a-0000-4000-8000-000000000001';
const CONTENT_BYTES = 32_000_000;
const CACHE_MB = 128;
const BOUND_MIB = CACHE_MB + 300;
const EACH = 10;
const QUERY = `{ session(id: "${ID}") { step(index: 1) { content(full: true) } } }`;

let dir: string;
let cacheDir: string;
let content: string;
/** sha256 of the content as served: masked. */
let servedHash = '';

beforeAll(() => {
  ensureBuilt();
  dir = makeTempDir('brainql-large-values-');
  cacheDir = path.join(dir, 'cache');
  const logs = path.join(dir, 'home/antigravity/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  content = secretLines(CONTENT_BYTES);
  servedHash = createHash('sha256')
    .update(new Redactor({ enabled: true, extraPatterns: [] }).redactText(content))
    .digest('hex');
  const records = [
    userInput(0, '2026-06-01T10:00:00Z', {
      request: 'Read the big step',
      localTime: '2026-06-01T12:00:00+02:00',
    }),
    planner(1, '2026-06-01T10:00:01Z', { content }),
  ];
  const { compact, full } = pairFiles(records);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** `bytes` of lines that each hold a secret, in four shapes. */
function secretLines(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = [
      `export DB_PASSWORD=Xk9Vq7Hunter2x${i}`,
      `password: "Tr0ub4dor${i}Secret"`,
      `curl -H 'Authorization: Bearer ghp_${String(i).padStart(36, 'a')}' https://x`,
      `mysql -u root -pS3cretPass${i} app`,
    ][i % 4];
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

interface Answer {
  route: 'graphql' | 'rest' | 'export';
  status: number;
  retryAfter: string | undefined;
  /** sha256 of the served content (parsed out of the answer) or of the whole body (an error). */
  hash: string;
  /** The body, when it is short (an error). */
  text: string;
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/**
 * One request on a connection of its own: Node's agents keep sockets alive, and one reused just
 * as the server's keep-alive timeout (5 s) closes it fails ("socket hang up", ECONNRESET). Seen
 * under load between the reads and the exports, and while the first start's index build held
 * the server's main thread past 5 s between two polls.
 */
function request(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  json?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (json === undefined) return void req.end();
    req.setHeader('Content-Type', 'application/json');
    req.end(JSON.stringify(json));
  });
}

/** One read of the large value; a 200's body is parsed for its content, hashed, and dropped. */
async function ask(port: number, route: Answer['route']): Promise<Answer> {
  const paths = {
    graphql: '/graphql',
    rest: `/api/sessions/${ID}/steps/1?full=true`,
    export: `/api/sessions/${ID}/export?format=json`,
  };
  const res =
    route === 'graphql'
      ? await request(port, 'POST', paths.graphql, { query: QUERY })
      : await request(port, 'GET', paths[route]);
  let hash = sha(res.body);
  if (res.status === 200) {
    const json = JSON.parse(res.body) as {
      data?: { session: { step: { content: string } } };
      content?: string;
      steps?: { content: string }[];
    };
    hash = sha(json.data?.session.step.content ?? json.content ?? json.steps?.[1].content ?? '');
  }
  return {
    route,
    status: res.status,
    retryAfter: res.headers['retry-after'],
    hash,
    text: res.body.length < 4096 ? res.body : '',
  };
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
}

/** `node <SERVER_NODE_FLAGS> dist/main.js`; resolves once it has scanned the home. */
function start(): Promise<Server> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      GEMINI_HOME: path.join(dir, 'home'),
      CACHE_DIR: cacheDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      RESCAN_MS: '3600000',
      CACHE_MAX_MB: String(CACHE_MB),
      RATE_LIMIT_POINTS: '100000000',
      REDACT: 'on',
      // The bound under test is memory and the budget's refusal: on a loaded CI machine (a
      // rehearsal beside redact-offload's 10 MB stream) one of the 20 reads passed the default
      // 15 s and answered 400 QUERY_TOO_COMPLEX instead.
      QUERY_TIMEOUT_MS: '120000',
    },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${err}${out}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /http:\/\/127\.0\.0\.1:(\d+)\/graphql/.exec(out)?.[1];
      if (port && /sessions in \d+ roots in \d+ ms: ready/.test(out)) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ child, port: Number(port) });
      }
    });
  });
}

async function stop(server: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill(signal);
  await exited;
}

function status(pid: number): { rssMiB: number; hwmMiB: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)![1]);
  return { rssMiB: kib('VmRSS') / 1024, hwmMiB: kib('VmHWM') / 1024 };
}

/** POSTs a query and returns its data (on a connection of its own: see `request`). */
async function graphql<T>(port: number, query: string): Promise<T> {
  return (JSON.parse((await request(port, 'POST', '/graphql', { query })).body) as { data: T })
    .data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks a small field of the session until its secret values are learned (its first asks are
 * RATE_LIMITED while its transcript is read for them: src/steps/session-values), so the
 * answers measured are the large values' alone.
 */
async function learned(port: number): Promise<void> {
  const small = `{ session(id: "${ID}") { step(index: 0) { type } } }`;
  for (let i = 0; ; i++) {
    const res = await request(port, 'POST', '/graphql', { query: small });
    if (res.status === 200) return;
    if (i > 60) throw new Error(`the session's values were not learned: ${res.body}`);
    await sleep(1000);
  }
}

it('20 concurrent 32 MB answers keep the peak RSS under CACHE_MAX_MB + 300 MB; each is exact or RATE_LIMITED', async () => {
  // First start: the home index is built and kept in CACHE_DIR.
  const first = await start();
  try {
    for (let i = 0; ; i++) {
      const { indexStatus } = await graphql<{ indexStatus: { sessionsIndexed: number } }>(
        first.port,
        '{ indexStatus { sessionsIndexed } }',
      );
      if (indexStatus.sessionsIndexed === 1) break;
      if (i > 600) throw new Error('the index was not built in 60 s');
      await sleep(100);
    }
  } finally {
    await stop(first);
  }

  const server = await start();
  try {
    await learned(server.port);
    const before = status(server.child.pid!);
    const answers = await Promise.all(
      Array.from({ length: 2 * EACH }, (_, i) => ask(server.port, i % 2 ? 'rest' : 'graphql')),
    );
    const after = status(server.child.pid!);
    const expected = servedHash;
    expect(servedHash).not.toBe(sha(content));
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    for (const a of served) expect(a.hash).toBe(expected);
    const message =
      'The server is sending other large values (up to 134217728 bytes at once, ' +
      "LARGE_VALUES_MB); this answer's did not fit in time. Retry in 2 s.";
    for (const a of refused) {
      // The body too when it is not the budget's refusal: what else stopped it.
      expect([a.status, a.retryAfter, a.status === 429 ? '' : a.text]).toEqual([429, '2', '']);
      expect(JSON.parse(a.text)).toEqual(
        a.route === 'graphql'
          ? {
              data: null,
              errors: [
                {
                  message,
                  extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 2, limit: 134217728 },
                },
              ],
            }
          : { error: { code: 'RATE_LIMITED', message } },
      );
    }
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(served.length + refused.length).toBe(2 * EACH);
    console.log({
      startMiB: Math.round(before.rssMiB),
      peakMiB: Math.round(after.hwmMiB),
      served: served.length,
      refused: refused.length,
    });
    // One 32 MB answer raises the peak by about 200 MiB (README "Memory bounds"); served one
    // after the other, each after the last one's copies were collected.
    expect(after.hwmMiB).toBeLessThan(BOUND_MIB);

    // Exports write page by page: a page's values stay in the budget until it is written, and
    // an export waits out RATE_LIMITED pages, so every one of them ends complete. Their header
    // asks for the session's problems, which once read every truncated record's twin again
    // (10 exports peaked at 740-1,050 MiB): now counted by the full view's check.
    const exports = await Promise.all(
      Array.from({ length: EACH }, () => ask(server.port, 'export')),
    );
    const afterExports = status(server.child.pid!);
    expect(exports.map((a) => [a.status, a.hash])).toEqual(exports.map(() => [200, expected]));
    console.log({ exportsPeakMiB: Math.round(afterExports.hwmMiB) });
    expect(afterExports.hwmMiB).toBeLessThan(BOUND_MIB);
  } finally {
    await stop(server, 'SIGKILL');
  }

  // A restarted server has checked nothing yet: the first `problems` parses the full view (its
  // 32 MB line counts among the large values, as an answer's would), and the compact records'
  // twins are matched by count, not read again by every request that asks for problems.
  const cold = await start();
  try {
    const problems = `{ session(id: "${ID}") { problems { code file line } } }`;
    const answers = await Promise.all(
      Array.from({ length: 2 * EACH }, (_, i) =>
        i % 2
          ? graphql<{ session: { problems: unknown[] } }>(cold.port, problems)
          : ask(cold.port, 'graphql'),
      ),
    );
    const peak = status(cold.child.pid!).hwmMiB;
    for (const [i, a] of answers.entries()) {
      if (i % 2) expect(a).toEqual({ session: { problems: [] } });
      else expect([200, 429]).toContain((a as Answer).status);
    }
    console.log({ problemsPeakMiB: Math.round(peak) });
    expect(peak).toBeLessThan(BOUND_MIB);
  } finally {
    await stop(cold, 'SIGKILL');
  }
}, 400_000);
