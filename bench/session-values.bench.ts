import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compactLine, filler, fullLine, planner, type FullRecord } from '../test/fixtures/records';
import { freePort, startServer, waitReady } from './server';

/**
 * The first ask for a record of a large session with REDACT=on (src/steps/session-values):
 * the session's secret values are learned from its whole transcript first, RATE_LIMITED with
 * Retry-After meanwhile. Generates one session of each size (full tier of ~`MiB`, its compact
 * twin beside), asks `steps(first: 5)` until it is answered, and prints the time beside
 * `wc -l` of the same file. `node -r ts-node/register/transpile-only bench/session-values.bench.ts [MiB...]`
 */

const STEPS = `query S($id: String!) { session(id: $id) { steps(first: 5) { edges { node { index content } } } } }`;
const ID = (n: number) => `5e550000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Records of ~9 KiB: prose and a log (cut in the compact tier), a secret every 500th. */
function record(i: number): FullRecord {
  const secret = i % 500 === 0 ? `\nexport DB_PASSWORD=Pw${i}xQ7mZ2kL9 && echo ok\n` : '';
  return planner(i, `2026-07-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:00Z`, {
    thinking: `Thinking about step ${i}: the migration, the tests, the config files.`,
    content: `${filler(4500, `s${i}`)}${secret}${filler(4500, `t${i}`)}`,
    tool_calls: [{ name: 'run_command', args: { CommandLine: `npm test -- --shard ${i}` } }],
  });
}

function generate(dir: string, mib: number): string {
  const logs = path.join(dir, '.system_generated', 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const full = fs.openSync(path.join(logs, 'transcript_full.jsonl'), 'w');
  const compact = fs.openSync(path.join(logs, 'transcript.jsonl'), 'w');
  let bytes = 0;
  for (let i = 0; bytes < mib * 2 ** 20; i++) {
    const rec = record(i);
    const line = fullLine(rec) + '\n';
    bytes += Buffer.byteLength(line);
    fs.writeSync(full, line);
    fs.writeSync(compact, compactLine(rec) + '\n');
  }
  fs.closeSync(full);
  fs.closeSync(compact);
  return path.join(logs, 'transcript_full.jsonl');
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

async function ask(url: string, id: string): Promise<{ status: number; retry: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: STEPS, variables: { id } }),
  });
  const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
  if (body.errors && body.errors[0]?.extensions?.code !== 'RATE_LIMITED')
    throw new Error(JSON.stringify(body.errors));
  return { status: body.errors ? 429 : 200, retry: res.headers.get('retry-after') };
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-session-values-'));
  const brain = path.join(root, 'home', 'antigravity-ide', 'brain');
  const files = (sizes.length ? sizes : [64, 256]).map((mib, n) => ({
    mib,
    id: ID(n),
    file: generate(path.join(brain, ID(n)), mib),
  }));
  const port = await freePort();
  const server = startServer(port, {
    GEMINI_HOME: path.join(root, 'home'),
    CACHE_DIR: path.join(root, 'cache'),
    // BENCH_REDACT=off: the same asks without redaction, to compare.
    REDACT: process.env.BENCH_REDACT ?? 'on',
  });
  try {
    await waitReady(port);
    const url = `http://127.0.0.1:${port}/graphql`;
    for (const { mib, id, file } of files) {
      const size = fs.statSync(file).size + fs.statSync(file.replace('_full', '')).size;
      let started = now();
      execFileSync('wc', ['-l', file]);
      const wc = now() - started;
      started = now();
      let first = await ask(url, id);
      const firstMs = now() - started;
      const firstAnswer = first;
      let asks = 1;
      while (first.status !== 200) {
        await new Promise((r) => setTimeout(r, 500));
        first = await ask(url, id);
        asks++;
      }
      const learned = now() - started;
      started = now();
      await ask(url, id);
      const again = now() - started;
      console.log(
        `${mib} MiB full tier (${(size / 2 ** 20).toFixed(0)} MiB both tiers): first ask ` +
          `${firstAnswer.status} in ${firstMs.toFixed(0)} ms (Retry-After ${firstAnswer.retry}), ` +
          `answered after ${learned.toFixed(0)} ms (${asks} asks, ` +
          `${(size / 2 ** 20 / (learned / 1000)).toFixed(1)} MiB/s), then ${again.toFixed(0)} ms; ` +
          `wc -l ${wc.toFixed(0)} ms`,
      );
    }
  } finally {
    server.kill('SIGTERM');
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
