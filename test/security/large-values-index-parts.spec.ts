import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config';
import { InFlightBytes } from '../../src/ops/in-flight-bytes';
import { makeTempDir } from '../fixtures/brain-home';
import { filler, pairFiles, planner, userInput } from '../fixtures/records';

/**
 * Review 21 M1: the index read a batch's full-tier twins (8 MiB of cut compact records had
 * 200 MB of them) and held them, in memory and in LARGE_VALUES_MB, until the whole batch was
 * written: 1.4 GB of RSS, and every large answer refused for minutes. Now a batch is read and
 * written in parts of 16 MiB of twins, each giving its share back once written: indexing 40
 * twins of 1 MiB (40 MiB) never holds more than one part's.
 */

const ID = '3c3c3c3c-0000-4000-8000-000000000004';
const TWINS = 40;

let dir: string;
let app: INestApplication;

beforeAll(() => {
  dir = makeTempDir('brainql-large-index-parts-');
  const logs = path.join(dir, 'antigravity/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const records = [
    userInput(0, '2026-06-01T10:00:00Z', {
      request: 'Index the big steps',
      localTime: '2026-06-01T12:00:00+02:00',
    }),
    ...Array.from({ length: TWINS }, (_, i) =>
      planner(i + 1, '2026-06-01T10:00:01Z', { content: filler(1024 * 1024, `big${i}`) }),
    ),
  ];
  const { compact, full } = pairFiles(records);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
});

afterAll(async () => {
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('holds at most one part of a batch’s twins in LARGE_VALUES_MB while indexing', async () => {
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
  const indexed = async () =>
    (
      (
        await request(app.getHttpServer() as http.Server)
          .post('/graphql')
          .send({ query: '{ indexStatus { sessionsIndexed } }' })
      ).body as { data: { indexStatus: { sessionsIndexed: number } } }
    ).data.indexStatus.sessionsIndexed;
  for (let i = 0; (await indexed()) < 1; i++) {
    if (i > 600) throw new Error('not indexed in 60 s');
    await sleep(100);
  }
  // Charged 4 times a value's size (LARGE_VALUE_COST): a part of 16 MiB and the twin that
  // crossed it is 17 MiB read, 68 MiB charged; the whole batch was 160 MiB.
  expect([most > 0, most <= 17 * 4 * 1024 * 1024 + 4 * 65536]).toEqual([true, true]);
  expect(budget.inFlight).toBe(0);
}, 90_000);
