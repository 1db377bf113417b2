import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { Data } from '../e2e/harness';

export type Transport = 'ws' | 'sse';

/** One subscription's results as a client library received them. */
export interface Sub {
  /** Every `next` payload, in order. */
  results: { data?: Data; errors?: Data[] }[];
  /** Resolves when the server completes the subscription (or it fails). */
  ended: Promise<{ error?: unknown }>;
  /** Resolves once `results` holds at least `n` payloads (fails after `ms`). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** A server of this process, or the port of one on loopback (a child process). */
export type Target = http.Server | number;

export function urlOf(target: Target, scheme: 'http' | 'ws'): string {
  const port = typeof target === 'number' ? target : (target.address() as AddressInfo).port;
  return `${scheme}://127.0.0.1:${port}`;
}

/**
 * Subscribes with the transport's own client library (graphql-ws over `ws`, graphql-sse over
 * Node's fetch), so the suites prove what a real client sees. `key` goes where each client
 * sends it: graphql-ws in connectionParams.authorization, SSE in the Authorization header.
 */
export function subscribe(
  transport: Transport,
  server: Target,
  query: string,
  variables: Record<string, unknown> = {},
  key?: string,
): Sub {
  const results: Sub['results'] = [];
  let wake: (() => void) | null = null;
  let ended!: (r: { error?: unknown }) => void;
  const endedP = new Promise<{ error?: unknown }>((r) => (ended = r));
  let dispose: () => void;
  let ws: WsClient | null = null;
  const sink = {
    next: (v: Sub['results'][number]) => {
      results.push(v);
      wake?.();
    },
    error: (error: unknown) => {
      ended({ error });
      wake?.();
    },
    complete: () => {
      ended({});
      wake?.();
    },
  };
  if (transport === 'ws') {
    ws = createWsClient({
      url: `${urlOf(server, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    });
    dispose = ws.subscribe({ query, variables }, sink);
  } else {
    const client = createSseClient({
      url: `${urlOf(server, 'http')}/graphql/stream`,
      retryAttempts: 0,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    dispose = client.subscribe({ query, variables }, sink);
  }
  return {
    results,
    ended: endedP,
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (results.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`waited ${ms} ms for ${n} results, got ${results.length}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 200));
        });
      }
    },
    async close() {
      dispose();
      await ws?.dispose();
    },
  };
}

/** Waits until `check` holds (polling every 20 ms), failing after `ms`. */
export async function until(
  check: () => boolean,
  ms = 10_000,
  what = 'a condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a refused subscription gets, as each transport says it. */
export interface Refusal {
  /** SSE: the HTTP status, and Retry-After when sent. */
  status?: number;
  retryAfter?: string;
  /** graphql-ws: the close code and reason when the connection itself was refused. */
  close?: { code: number; reason: string };
  errors?: Data[];
}

/**
 * Subscribes and expects a refusal before any event: graphql-ws errors (an `error` message)
 * or a closed connection; SSE a plain HTTP answer (status and JSON body) read with fetch.
 */
export async function refusal(
  transport: Transport,
  server: Target,
  query: string,
  variables: Record<string, unknown> = {},
  key?: string,
): Promise<Refusal> {
  if (transport === 'sse') {
    const res = await fetch(`${urlOf(server, 'http')}/graphql/stream`, {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as Data;
    const retryAfter = res.headers.get('retry-after');
    return {
      status: res.status,
      ...(retryAfter === null ? {} : { retryAfter }),
      errors: body.errors ?? [body.error],
    };
  }
  const sub = subscribe(transport, server, query, variables, key);
  const { error } = await sub.ended;
  await sub.close();
  expect(sub.results).toEqual([]);
  if (Array.isArray(error)) return { errors: error };
  const e = error as { code: number; reason: string };
  return { close: { code: e.code, reason: e.reason } };
}
