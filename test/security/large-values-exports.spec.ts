import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { InFlightBytes } from '../../src/ops/in-flight-bytes';
import { makeTempDir } from '../fixtures/brain-home';
import { filler, pairFiles, planner, userInput } from '../fixtures/records';

/**
 * The outside review's finding: on a freshly started server (defaults: LARGE_VALUES_MB 128,
 * REDACT=on), four concurrent JSON exports of a session whose one step holds 8.6 MB at the full
 * tier deadlocked (three stalled mid-body for good, one 429), and the budget stayed charged
 * afterwards, so every later large read was refused until a restart. Every export must end:
 * complete and valid, or refused with 429 and Retry-After (or cut off), and the budget goes
 * back to 0 once the requests are over, whether they ended, failed or were dropped by the client.
 */

const ID = '3c3c3c3c-0000-4000-8000-000000000003';
const CONTENT_BYTES = 8_600_000;
const DEADLINE_MS = 60_000;

let dir: string;
let app: INestApplication;
let port: number;
let budget: InFlightBytes;
const content = filler(CONTENT_BYTES, 'big');
const thinking = filler(20_000, 'think');

beforeAll(() => {
  dir = makeTempDir('brainql-large-exports-');
  const logs = path.join(dir, 'antigravity/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const { compact, full } = pairFiles([
    userInput(0, '2026-06-01T10:00:00Z', {
      request: 'Export the big step',
      localTime: '2026-06-01T12:00:00+02:00',
    }),
    // Its thinking is truncated in the compact record too: one step, two full-tier fields read
    // from the same 8.6 MB line (each counted on its own).
    planner(1, '2026-06-01T10:00:01Z', { content, thinking }),
    planner(2, '2026-06-01T10:00:02Z', { content: 'Done.' }),
  ]);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
  // A 9 MiB artifact: the export's header carries it. The focused re-review's case: each export
  // kept the header's share while its first page waited for room, three of them held the
  // budget between them, and all three stalled right after the header, for good.
  fs.writeFileSync(
    path.join(dir, 'antigravity/brain', ID, 'plan.md'),
    filler(9 * 1024 * 1024, 'plan'),
  );
}, 60_000);

afterEach(async () => {
  await app?.close();
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh application each time (nothing read yet, as after a restart), on 127.0.0.1. */
async function start(): Promise<void> {
  app = await createApp(
    loadConfig({
      GEMINI_HOME: dir,
      CACHE_DIR: makeTempDir('brainql-large-exports-cache-'),
      RESCAN_MS: '3600000',
      REDACT: 'on',
      RATE_LIMIT_POINTS: '100000000',
    }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  await app.listen(0, '127.0.0.1');
  port = ((app.getHttpServer() as http.Server).address() as AddressInfo).port;
  budget = app.get(InFlightBytes);
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
  /** The response ended (false: the connection closed before its end, a cut-off answer). */
  complete: boolean;
}

function exportJson(): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/api/sessions/${ID}/export?format=json`, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let complete = false;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (complete = true));
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(chunks).toString('utf8'),
            complete: complete && res.complete,
          }),
        );
        res.on('error', () => {}); // 'close' reports a cut-off answer
      },
    );
    req.on('error', reject);
  });
}

/** Fails when `work` has not settled within `ms` (a stalled answer) instead of hanging. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not over after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Waits (a little) for the budget to be given back: a release follows the response's 'close'. */
async function drained(): Promise<number> {
  for (let i = 0; i < 100 && budget.inFlight > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return budget.inFlight;
}

function expectWhole(a: Answer): void {
  expect([a.status, a.complete]).toEqual([200, true]);
  const json = JSON.parse(a.body) as { steps: { content: string }[] };
  expect(json.steps).toHaveLength(3);
  expect(json.steps[1].content === content).toBe(true);
}

/**
 * A 429 is one of two refusals: the budget had no room within LARGE_VALUE_WAIT_MS (Retry-After
 * 2), or, on a busy machine (CI beside other suites), the 8.6 MB line's secret values were not
 * learned within the wait (Retry-After: what is left at the pace the wait saw, at least 1).
 */
function expectRefused(a: Answer): 'busy' | 'learning' {
  const { error } = JSON.parse(a.body) as { error: { code: string; message: string } };
  expect(error.code).toBe('RATE_LIMITED');
  if (error.message.startsWith('The server is sending other large values')) {
    expect(a.retryAfter).toBe('2');
    return 'busy';
  }
  expect(error.message).toMatch(/^This session's transcript \(\d+ bytes\) is still being read/);
  expect(error.message).toContain(`Retry in ${a.retryAfter} s.`);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  return 'learning';
}

/** An export asked again, as a client does, while the answer is "still learning" (≤ 60 s). */
async function exportWhenLearned(): Promise<Answer> {
  for (let waited = 0; ;) {
    const a = await within(exportJson(), DEADLINE_MS, 'the export after');
    if (a.status !== 429 || expectRefused(a) !== 'learning' || waited >= 60) return a;
    const seconds = Math.min(Number(a.retryAfter), 5);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    waited += seconds;
  }
}

it('4 concurrent exports of an 8.6 MB step each end (whole, or 429 with Retry-After); the budget goes back to 0', async () => {
  await start();
  const answers = await within(
    Promise.all(Array.from({ length: 4 }, () => exportJson())),
    DEADLINE_MS,
    '4 concurrent exports',
  );
  const summary = answers.map((a) => [a.status, a.complete, a.body.length]);
  const refusals = answers.map((a) => (a.status === 429 ? expectRefused(a) : expectWhole(a)));
  console.log({ summary, refusals });
  // One of them fits the budget, unless none got past the learning (then all four say so).
  if (!refusals.every((r) => r === 'learning')) {
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
  }
  expect(await drained()).toBe(0);
  // Nothing stays charged: one export alone is served whole.
  expectWhole(await exportWhenLearned());
  expect(await drained()).toBe(0);
}, 180_000);

it('a client that leaves mid-export gives the budget back', async () => {
  await start();
  await within(
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: `/api/sessions/${ID}/export?format=json`, agent: false },
        (res) => {
          expect(res.statusCode).toBe(200);
          // The first bytes are out: the step's page is being read or written. Leave.
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
    }),
    DEADLINE_MS,
    'the first bytes',
  );
  expect(await drained()).toBe(0);
  expectWhole(await within(exportJson(), DEADLINE_MS, 'the export after'));
  expect(await drained()).toBe(0);
}, 180_000);
