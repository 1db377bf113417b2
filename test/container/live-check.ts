/**
 * The live half of the container test (run.sh starts the container): a graphql-ws client
 * subscribes through the published port, a line is appended to a transcript on the host (the
 * container reads the bind mount), and the event must arrive. The file is then put back as it
 * was (bytes and mtime), so the mounted tree is unchanged for run.sh's final comparison.
 *
 *   BASE_URL=http://127.0.0.1:3000 HOME_DIR=<the mounted brain home> \
 *     node -r ts-node/register/transpile-only test/container/live-check.ts
 */
import { strictEqual } from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const BASE_URL = process.env.BASE_URL ?? '';
const HOME_DIR = process.env.HOME_DIR ?? '';
// A session with a compact transcript.jsonl (the newest has only the full one).
const SESSION = 'a704176f-0000-4000-8000-000000000000';

async function main(): Promise<void> {
  const file = path.join(
    HOME_DIR,
    'antigravity-ide/brain',
    SESSION,
    '.system_generated/logs/transcript.jsonl',
  );
  const before = fs.statSync(file, { bigint: true });
  const count = await fetch(`${BASE_URL}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: `{ session(id: "${SESSION}") { stepCount } }` }),
  }).then(async (r) => ((await r.json()) as { data: { session: { stepCount: number } } }).data);
  const position = count.session.stepCount;
  const client = createClient({
    url: `${BASE_URL.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const record = {
    step_index: 999999,
    source: 'SYSTEM',
    type: 'CONTAINER_LIVE_CHECK',
    status: 'DONE',
    created_at: '2026-06-30T00:00:00Z',
    content: 'appended on the host',
  };
  try {
    const event = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event within 10 s')), 10_000);
      client.subscribe(
        {
          query: `subscription { steps(sessionId: "${SESSION}", fromPosition: ${position}) { position index content } }`,
        },
        {
          next: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    // Give the subscription a moment to be set up in the container before appending.
    await new Promise((r) => setTimeout(r, 1000));
    fs.appendFileSync(file, JSON.stringify(record) + '\n');
    const got = await event;
    strictEqual(
      JSON.stringify(got),
      JSON.stringify({
        data: { steps: { position, index: 999999, content: 'appended on the host' } },
      }),
    );
    console.log(`  ok      the append made on the host arrived (position ${position})`);
  } finally {
    await client.dispose();
    fs.truncateSync(file, Number(before.size));
    // touch keeps the nanoseconds (utimes from JavaScript rounds them).
    const ns = before.mtimeNs;
    const stamp = `@${ns / 1_000_000_000n}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
    execFileSync('touch', ['-m', '-d', stamp, file]);
  }
}

main().catch((err: unknown) => {
  console.log(`  FAILED  live: ${String(err instanceof Error ? err.message : err)}`);
  process.exitCode = 1;
});
