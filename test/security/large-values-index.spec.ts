import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { InFlightBytes, type Holder } from '../../src/ops/in-flight-bytes';
import { makeTempDir } from '../fixtures/brain-home';
import { filler, pairFiles, planner, userInput } from '../fixtures/records';

/**
 * The home index reads full-tier values whole too (a fresh index of one 32 MB value raised a
 * compiled server from 145 to 385 MiB): it waits its turn in LARGE_VALUES_MB like an answer,
 * never refused. While another answer holds the budget, a session with a 200 KB full-tier value
 * is not indexed; once it is given back, it is, and the index gives its share back.
 */

const ID = '3c3c3c3c-0000-4000-8000-000000000003';

let dir: string;
let app: INestApplication;

beforeAll(() => {
  dir = makeTempDir('brainql-large-index-');
  const logs = path.join(dir, 'antigravity/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const records = [
    userInput(0, '2026-06-01T10:00:00Z', {
      request: 'Index the big step',
      localTime: '2026-06-01T12:00:00+02:00',
    }),
    planner(1, '2026-06-01T10:00:01Z', { content: filler(200_000, 'big') }),
  ];
  const { compact, full } = pairFiles(records);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
});

afterAll(async () => {
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function indexed(): Promise<number> {
  const res = await request(app.getHttpServer() as http.Server)
    .post('/graphql')
    .send({ query: '{ indexStatus { sessionsIndexed } }' });
  return (res.body as { data: { indexStatus: { sessionsIndexed: number } } }).data.indexStatus
    .sessionsIndexed;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('waits for room among the large values in flight before reading a full-tier value', async () => {
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
  for (let i = 0; (await indexed()) < 1; i++) {
    if (i > 100) throw new Error('not indexed in 10 s once the budget was given back');
    await sleep(100);
  }
  expect(budget.inFlight).toBe(0);
}, 60_000);
