import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { InFlightBytes, type Holder } from '../../src/ops/in-flight-bytes';
import { makeTempDir } from '../fixtures/brain-home';
import { filler, pairFiles, planner, userInput, type FullRecord } from '../fixtures/records';

/**
 * The home index reads full-tier values whole too (a fresh index of one 32 MB value raised a
 * compiled server from 145 to 385 MiB): it waits its turn in LARGE_VALUES_MB like an answer,
 * never refused, and gives its share back as it writes.
 */

const dirs: string[] = [];
let app: INestApplication | undefined;

/** A home holding one session of a USER_INPUT and `steps` (compact and full tiers). */
function homeWith(id: string, steps: FullRecord[]): string {
  const dir = makeTempDir('brainql-large-index-');
  dirs.push(dir);
  const logs = path.join(dir, 'antigravity/brain', id, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const input = userInput(0, '2026-06-01T10:00:00Z', {
    request: 'Index the big step',
    localTime: '2026-06-01T12:00:00+02:00',
  });
  const { compact, full } = pairFiles([input, ...steps]);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
  return dir;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function indexed(): Promise<number> {
  const res = await request(app!.getHttpServer() as http.Server)
    .post('/graphql')
    .send({ query: '{ indexStatus { sessionsIndexed } }' });
  return (res.body as { data: { indexStatus: { sessionsIndexed: number } } }).data.indexStatus
    .sessionsIndexed;
}

/** Waits until the one session is indexed (fails after `seconds`). */
async function untilIndexed(seconds: number): Promise<void> {
  for (let i = 0; (await indexed()) < 1; i++) {
    if (i > seconds * 10) throw new Error(`not indexed in ${seconds} s`);
    await sleep(100);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('waits for room among the large values in flight before reading a full-tier value', async () => {
  // While another answer holds the budget, a session with a 200 KB full-tier value is not
  // indexed; once it is given back, it is, and the index gives its share back.
  const dir = homeWith('3c3c3c3c-0000-4000-8000-000000000003', [
    planner(1, '2026-06-01T10:00:01Z', { content: filler(200_000, 'big') }),
  ]);
  app = await createApp(
    loadConfig({
      GEMINI_HOME: dir,
      CACHE_DIR: path.join(dir, 'cache'),
      RESCAN_MS: '3600000',
      LARGE_VALUES_MB: '1',
    }),
  );
  const budget = app.get(InFlightBytes);
  const other: Holder = { held: 0 };
  expect(await budget.take(other, 1_000_000, 0)).toBe(true);
  await app.init();
  await sleep(1500);
  expect(await indexed()).toBe(0);
  budget.release(other);
  await untilIndexed(10);
  expect(budget.inFlight).toBe(0);
}, 60_000);

it('holds at most one part of a batch’s twins in LARGE_VALUES_MB while indexing', async () => {
  // Review 21 M1: the index read a batch's twins (8 MiB of cut compact records had 200 MB of
  // them) and held them, in memory and in the budget, until the whole batch was written: 1.4
  // GB of RSS, and every large answer refused for minutes. Now a batch is read and written in
  // parts of 16 MiB of twins, each giving its share back once written.
  const dir = homeWith(
    '3c3c3c3c-0000-4000-8000-000000000004',
    Array.from({ length: 40 }, (_, i) =>
      planner(i + 1, '2026-06-01T10:00:01Z', { content: filler(1024 * 1024, `big${i}`) }),
    ),
  );
  app = await createApp(
    loadConfig({ GEMINI_HOME: dir, CACHE_DIR: path.join(dir, 'cache'), RESCAN_MS: '3600000' }),
  );
  const budget = app.get(InFlightBytes);
  let most = 0;
  const take = budget.take.bind(budget);
  jest.spyOn(budget, 'take').mockImplementation(async (holder, bytes, waitMs) => {
    const ok = await take(holder, bytes, waitMs);
    most = Math.max(most, budget.inFlight);
    return ok;
  });
  await app.init();
  await untilIndexed(60);
  // Charged 4 times a value's size (LARGE_VALUE_COST): a part of 16 MiB and the twin that
  // crossed it is 17 MiB read, 68 MiB charged; the whole batch was 160 MiB.
  expect([most > 0, most <= 17 * 4 * 1024 * 1024 + 4 * 65536]).toEqual([true, true]);
  expect(budget.inFlight).toBe(0);
}, 90_000);
