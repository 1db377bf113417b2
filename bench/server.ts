import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../src/ops/node-flags';

/** The bench's server: its own process, as in production, and how to talk to it. */

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts src/main.ts on 127.0.0.1:`port` with `env` over the bench's settings (silent, no
 * background rescans, no rate limit). In its own process: in the bench's, the HTTP client
 * would share the event loop with it and be measured too.
 */
export function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, '-r', 'ts-node/register/transpile-only', MAIN],
    {
      env: {
        ...process.env,
        PORT: String(port),
        LOG_LEVEL: 'silent',
        RESCAN_MS: '3600000',
        RATE_LIMIT_POINTS: '100000000',
        NODE_ENV: 'production',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

export async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the bench server did not become ready');
}

export async function post(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body;
}

export async function measure(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}
