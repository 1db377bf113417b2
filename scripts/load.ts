import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureData } from '../bench/generate';

// autocannon ships no types; the part used here is small.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<Result>;
interface Result {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * `npm run load [-- --duration 30 --connections 50 --url http://127.0.0.1:3000]`: a
 * dashboard-like query mix against a server on loopback, bounded in time. Without --url it
 * builds and starts the server itself over the small bench home (2,000 sessions) and stops it
 * at the end. Fails when any request fails or answers a GraphQL error.
 */

const MIX = [
  {
    weight: 4,
    query:
      '{ sessions(first: 20) { totalCount edges { node { id createdAt userRequest model stepCount errorCount } } } }',
  },
  {
    weight: 2,
    query:
      '{ sessions(first: 20, filter: { environment: [IDE] }, order: OLDEST_FIRST) { edges { cursor node { id updatedAt toolCallCount } } } }',
  },
  {
    weight: 2,
    query:
      'query($id: String!) { session(id: $id) { id userRequest steps(first: 50) { edges { node { index type status toolCalls { name toolSummary } } } } } }',
  },
  {
    weight: 1,
    query:
      'query($id: String!) { session(id: $id) { steps(first: 5) { edges { node { content(full: true) thinking } } } } }',
  },
  {
    weight: 1,
    query:
      'query($id: String!) { session(id: $id) { artifacts { name kind size } files { path kind size } problems { code line } } }',
  },
  { weight: 1, query: '{ roots { path flavor environment sessionCount } }' },
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitReady(base: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server at ${base} not ready after ${ms} ms`);
}

async function rssMiB(base: string, auth: Record<string, string>): Promise<number> {
  const text = await fetch(`${base}/metrics`, { headers: auth }).then((r) => r.text());
  const m = /^brainql_process_resident_memory_bytes (\S+)$/m.exec(text);
  return m ? Number(m[1]) / 2 ** 20 : NaN;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '30' },
      connections: { type: 'string', default: '50' },
      url: { type: 'string' },
      key: { type: 'string' },
    },
  });
  const duration = Math.min(300, Math.max(1, Number(values.duration)));
  const connections = Math.min(500, Math.max(1, Number(values.connections)));
  let base = values.url;
  let server: ChildProcess | null = null;
  if (!base) {
    const data = ensureData('small');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'main.js')], {
      env: {
        ...process.env,
        GEMINI_HOME: data.home,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        // One client address sends everything: the per-caller rate limit is not under test.
        RATE_LIMIT_POINTS: '100000000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(base)) {
    console.error(`refusing ${base}: the load test only targets loopback addresses`);
    return 2;
  }
  const auth: Record<string, string> = values.key ? { authorization: `Bearer ${values.key}` } : {};
  try {
    await waitReady(base, 60_000);
    const newest = (await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: '{ sessions(first: 20) { edges { node { id } } } }' }),
    }).then((r) => r.json())) as { data: { sessions: { edges: { node: { id: string } }[] } } };
    const ids = newest.data.sessions.edges.map((e) => e.node.id);
    const requests: Record<string, unknown>[] = [];
    for (const { weight, query } of MIX) {
      for (let w = 0; w < weight; w++) {
        const id = ids[requests.length % ids.length];
        requests.push({
          method: 'POST',
          path: '/graphql',
          body: JSON.stringify({ query, variables: { id } }),
        });
      }
    }
    let graphqlErrors = 0;
    for (const r of requests) {
      r.onResponse = (_status: number, body: string) => {
        if (body.includes('"errors"')) graphqlErrors++;
      };
    }
    const rssBefore = await rssMiB(base, auth);
    const samples: number[] = [];
    const sampler = setInterval(() => {
      rssMiB(base, auth).then(
        (v) => samples.push(v),
        () => undefined,
      );
    }, 2000);
    const result = await autocannon({
      url: base,
      connections,
      duration,
      headers: { 'content-type': 'application/json', ...auth },
      requests,
    });
    clearInterval(sampler);
    const rssAfter = await rssMiB(base, auth);
    const failures = result.non2xx + result.errors + result.timeouts + graphqlErrors;
    const lines = [
      `load: ${connections} connections for ${duration} s against ${base} (${MIX.length} query shapes)`,
      `requests        ${result.requests.total} (${result.requests.average.toFixed(0)}/s)`,
      `latency         p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
      `failures        ${failures} (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, GraphQL errors ${graphqlErrors})`,
      `server RSS      ${rssBefore.toFixed(0)} MiB before, ${Math.max(...samples, rssAfter).toFixed(0)} MiB peak, ${rssAfter.toFixed(0)} MiB after`,
    ];
    console.log(lines.join('\n'));
    return failures === 0 ? 0 : 1;
  } finally {
    server?.kill('SIGTERM');
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
