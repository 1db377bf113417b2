import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { untilLearned } from '../fixtures/learned';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { InFlightBytes, type Holder } from '../../src/ops/in-flight-bytes';
import { makeTempDir } from '../fixtures/brain-home';
import { filler, pairFiles, planner, userInput } from '../fixtures/records';

/**
 * Every path that reads a large value whole waits for room among the large values in flight
 * (LARGE_VALUES_MB), not only full-tier transcript fields: a step output's text and its
 * `duplicatesContent`, an artifact's content and a version's, and a file download masked in
 * memory (REDACT=on, up to 8 MiB), a step's raw line and a transcript line (read whole and masked
 * in memory). With the budget taken by another answer, each waits 2 s and
 * is refused with RATE_LIMITED (429, Retry-After: 2); once it is given back, each is served.
 */

const ID = '2b2b2b2b-0000-4000-8000-000000000002';
const BIG = 200_000;
const FULL = '.system_generated/logs/transcript_full.jsonl';
const LIMIT = 1024 * 1024;
const MESSAGE =
  `The server is sending other large values (up to ${LIMIT} bytes at once, LARGE_VALUES_MB); ` +
  "this answer's did not fit in time. Retry in 2 s.";

let dir: string;
let app: INestApplication;
let server: http.Server;
let budget: InFlightBytes;

const output = filler(BIG, 'out');
const artifact = filler(BIG, 'plan');
const notes = filler(BIG, 'notes');

beforeAll(async () => {
  dir = makeTempDir('brainql-large-paths-');
  const session = path.join(dir, 'antigravity/brain', ID);
  const logs = path.join(session, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  const records = [
    userInput(0, '2026-06-01T10:00:00Z', {
      request: 'Read the big files',
      localTime: '2026-06-01T12:00:00+02:00',
    }),
    // The step's content holds its output: duplicatesContent reads the whole output.
    planner(1, '2026-06-01T10:00:01Z', { content: output + 'done' }),
  ];
  const { compact, full } = pairFiles(records);
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), compact);
  fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), full);
  fs.mkdirSync(path.join(session, '.system_generated/steps/1'), { recursive: true });
  fs.writeFileSync(path.join(session, '.system_generated/steps/1/output.txt'), output);
  fs.writeFileSync(path.join(session, 'plan.md'), artifact);
  fs.writeFileSync(path.join(session, 'notes.txt'), notes);
  app = await createApp(
    loadConfig({
      GEMINI_HOME: dir,
      CACHE_DIR: path.join(dir, 'cache'),
      RESCAN_MS: '3600000',
      REDACT: 'on',
      LARGE_VALUES_MB: '1',
      RATE_LIMIT_POINTS: '100000000',
    }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  // The index's first pass reads the same large values and takes room for them: the spec takes
  // the budget alone only once that pass has ended (nothing changes after it, so no later pass
  // takes any). Without this wait the spec raced the indexer, and lost when its walk was quick.
  await app.get<HomeIndex>(HOME_INDEX).caughtUp();
  server = app.getHttpServer() as http.Server;
  budget = app.get(InFlightBytes);
  // The session's secret values are learned before its files and records are served (its first
  // ask starts the redaction worker, seconds under ts-jest): asked as a client does, again while
  // RATE_LIMITED, so the refusals below are the budget's (rehearsal 24, a loaded machine: the
  // download's was "still learning", Retry-After 10).
  await untilLearned(
    () => request(server).get(`/api/sessions/${ID}/files/notes.txt`),
    (res) =>
      res.status === 200 ? undefined : (res.body as { error: { code: string } }).error.code,
  );
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const gql = (field: string) =>
  request(server)
    .post('/graphql')
    .send({ query: `{ session(id: "${ID}") { ${field} } }` });

const PATHS: {
  name: string;
  ask: () => request.Test;
  value: (res: request.Response) => unknown;
}[] = [
  {
    name: 'StepOutput.text',
    ask: () => gql('step(index: 1) { output { text } }'),
    value: (res) => res.body.data?.session.step.output.text,
  },
  {
    name: 'StepOutput.duplicatesContent',
    ask: () => gql('step(index: 1) { output { duplicatesContent } }'),
    value: (res) => res.body.data?.session.step.output.duplicatesContent,
  },
  {
    name: 'Artifact.content',
    ask: () => gql('artifact(name: "plan.md") { content }'),
    value: (res) => res.body.data?.session.artifact.content,
  },
  {
    name: 'a masked download',
    ask: () => request(server).get(`/api/sessions/${ID}/files/notes.txt`),
    value: (res) => res.text,
  },
  {
    name: "a step's raw line",
    ask: () => request(server).get(`/api/sessions/${ID}/steps/1/raw`),
    value: (res) =>
      res.text.length > BIG && res.text.includes('"step_index":1')
        ? 'the line'
        : res.text.slice(0, 80),
  },
  {
    name: 'a transcript line',
    ask: () => request(server).get(`/api/sessions/${ID}/lines/2?file=${encodeURIComponent(FULL)}`),
    value: (res) =>
      res.text.length > BIG && res.text.includes('"step_index":1')
        ? 'the line'
        : res.text.slice(0, 80),
  },
];

const EXPECTED = [output, true, artifact, notes, 'the line', 'the line'];

it('each waits for room and is refused with RATE_LIMITED while another answer holds the budget', async () => {
  const other: Holder = { held: 0 };
  expect(await budget.take(other, 1_000_000, 0)).toBe(true); // alone: runs past the capacity
  try {
    const answers = await Promise.all(PATHS.map((p) => p.ask()));
    expect(
      answers.map((res, i) => [PATHS[i].name, res.status, res.headers['retry-after']]),
    ).toEqual(PATHS.map((p) => [p.name, 429, '2']));
    expect(answers[0].body).toEqual({
      data: null,
      errors: [
        {
          message: MESSAGE,
          extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 2, limit: LIMIT },
        },
      ],
    });
    expect(answers[3].body).toEqual({ error: { code: 'RATE_LIMITED', message: MESSAGE } });
  } finally {
    budget.release(other);
  }
  // Given back: each is served, and gives its own back once sent.
  for (const [i, p] of PATHS.entries()) {
    const res = await p.ask();
    expect([p.name, res.status, p.value(res)]).toEqual([p.name, 200, EXPECTED[i]]);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(budget.inFlight).toBe(0);
}, 60_000);
