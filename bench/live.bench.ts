import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ms, row, type Row } from './report';

/**
 * Live figures: the latency from appending a line to a transcript to the `steps` event for it
 * reaching a graphql-ws client, over 100 appends, with WATCH=auto (file system events) and
 * with WATCH=poll (POLL_MS=250). The server runs in its own process, as in production.
 */

const ID = '11ve0000-0000-4000-8000-000000000001';
const APPENDS = 100;
const POLL_MS = 250;
const MAIN = path.join(__dirname, '..', 'src', 'main.ts');

const record = (i: number) =>
  JSON.stringify({
    step_index: i,
    source: 'MODEL',
    type: 'PLANNER_RESPONSE',
    status: 'DONE',
    created_at: '2026-06-01T10:00:00Z',
    content: `line ${i}`,
  }) + '\n';

function startServer(home: string, env: Record<string, string>): Promise<[ChildProcess, number]> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', MAIN], {
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), GEMINI_HOME: home, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /GraphQL API at http:\/\/127\.0\.0\.1:(\d+)\/graphql/.exec(out);
      if (m && out.includes(': ready')) resolve([child, Number(m[1])]);
    });
    child.on('exit', () => reject(new Error(`the bench server stopped:\n${out}`)));
  });
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Latencies (ms) of APPENDS appends, each awaited before the next. */
async function latencies(env: Record<string, string>): Promise<number[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-live-bench-'));
  const file = path.join(
    root,
    'antigravity-ide/brain',
    ID,
    '.system_generated/logs/transcript.jsonl',
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, record(0));
  const [child, port] = await startServer(root, {
    CACHE_DIR: path.join(root, 'cache'),
    LOG_LEVEL: 'info',
    ...env,
  });
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const arrived = new Map<number, number>();
  let wake: (() => void) | null = null;
  const stop = client.subscribe(
    { query: `subscription { steps(sessionId: "${ID}") { position } }` },
    {
      next: (v) => {
        arrived.set((v.data as { steps: { position: number } }).steps.position, performance.now());
        wake?.();
      },
      error: (e) => console.error('live bench subscription failed', e),
      complete: () => undefined,
    },
  );
  const until = async (pos: number) => {
    const deadline = performance.now() + 10_000;
    while (!arrived.has(pos)) {
      if (performance.now() > deadline) throw new Error(`no event for position ${pos}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
  };
  try {
    await until(0);
    const out: number[] = [];
    for (let i = 1; i <= APPENDS; i++) {
      const t = performance.now();
      fs.appendFileSync(file, record(i));
      await until(i);
      out.push(arrived.get(i)! - t);
      // Appends a little apart, like an agent's steps (not one burst).
      await new Promise((r) => setTimeout(r, 20 + (i % 7) * 5));
    }
    return out;
  } finally {
    stop();
    await client.dispose();
    child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchLive(): Promise<Row[]> {
  const auto = await latencies({ WATCH: 'auto' });
  const poll = await latencies({ WATCH: 'poll', POLL_MS: String(POLL_MS) });
  const describe = (xs: number[]) =>
    `median ${ms(quantile(xs, 0.5))}, p95 ${ms(quantile(xs, 0.95))}, max ${ms(Math.max(...xs))}`;
  return [
    row(
      `14 live: append -> steps event, WATCH=auto, ${APPENDS} appends`,
      describe(auto),
      'median < 200 ms, max < 1 s',
      quantile(auto, 0.5) < 200 && Math.max(...auto) < 1000,
    ),
    row(
      `15 live: append -> steps event, WATCH=poll (POLL_MS=${POLL_MS})`,
      describe(poll),
      `max < POLL_MS + 100 ms`,
      Math.max(...poll) < POLL_MS + 100,
    ),
  ];
}

if (require.main === module) {
  benchLive().then(
    (rows) => {
      for (const r of rows)
        console.log(`${r.figure}: ${r.value} (target ${r.target}) ${r.verdict}`);
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
