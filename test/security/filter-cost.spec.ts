import { startAppOver } from '../e2e/harness';
import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { BrainStore } from '../../src/brain/store';
import type { GqlBody } from '../e2e/harness';
import { makeTempDir } from '../fixtures/brain-home';

/**
 * `sessions(filter: {query})` reads the summary of every session the caller can see before it
 * pages, so its cost grows with the home: 1 point per visible session on top of the usual
 * points (it cost 2 points in any home before). The exact costs are read from the
 * QUERY_TOO_COMPLEX error of a MAX_QUERY_COST of 10.
 */

let dir: string;
const KEY = 'ide-only-key-0123456789';
const running: INestApplication[] = [];

/** `count` sessions of one USER_INPUT each under `<home>/<flavor>/brain`. */
function sessions(home: string, flavor: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const logs = path.join(home, flavor, 'brain', `${flavor}-${i}`, '.system_generated/logs');
    fs.mkdirSync(logs, { recursive: true });
    const record = { step_index: 0, type: 'USER_INPUT', content: `request ${i}` };
    fs.writeFileSync(path.join(logs, 'transcript.jsonl'), JSON.stringify(record) + '\n');
  }
}

beforeAll(() => {
  dir = makeTempDir('brainql-filter-cost-');
  sessions(path.join(dir, 'ten'), 'antigravity-ide', 10);
  sessions(path.join(dir, 'two-hundred'), 'antigravity-ide', 10);
  sessions(path.join(dir, 'two-hundred'), 'antigravity-cli', 190);
  const sha256 = createHash('sha256').update(KEY).digest('hex');
  fs.writeFileSync(
    path.join(dir, 'keys.json'),
    JSON.stringify([{ name: 'ide', sha256, flavors: ['antigravity-ide'] }]),
  );
});

afterAll(async () => {
  while (running.length) await running.pop()!.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function costs(home: string, env: Record<string, string> = {}, key?: string) {
  const app = await startAppOver(path.join(dir, home), { MAX_QUERY_COST: '10', ...env });
  running.push(app);
  await app.get(BrainStore).refresh();
  const server = app.getHttpServer() as http.Server;
  /** The cost of `query`: 0 when it ran (under 10), else the measured cost it was refused for. */
  return async (query: string, variables?: Record<string, unknown>): Promise<number> => {
    let req = request(server).post('/graphql').set('Content-Type', 'application/json');
    if (key) req = req.set('Authorization', `Bearer ${key}`);
    const body = (await req.send(JSON.stringify({ query, variables }))).body as GqlBody;
    if (!body.errors) return 0;
    expect(body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', kind: 'cost' });
    return body.errors[0].extensions!.measured as number;
  };
}

const FILTERED = '{ sessions(first: 1, filter: {query: "zzz"}) { totalCount } }';
const PLAIN = '{ sessions(first: 1) { totalCount } }';

it('costs 1 point per session of the home for filter.query: 12 for 10 sessions, 202 for 200', async () => {
  const ten = await costs('ten');
  expect(await ten(FILTERED)).toBe(12);
  const twoHundred = await costs('two-hundred');
  expect(await twoHundred(FILTERED)).toBe(202);
  // Without the text filter nothing is read beyond the page: 2 points, under the limit.
  expect(await twoHundred(PLAIN)).toBe(0);
  // Other filters compare listing facts only.
  expect(await twoHundred('{ sessions(first: 1, filter: {flavor: ["x"]}) { totalCount } }')).toBe(
    0,
  );
  // Given through a variable, the same; a variable left out is no text filter.
  const byVariable = 'query($q: String) { sessions(first: 1, filter: {query: $q}) { totalCount } }';
  expect(await twoHundred(byVariable, { q: 'zzz' })).toBe(202);
  expect(await twoHundred(byVariable)).toBe(0);
});

it('costs the same scan for every filter on summaries: hasErrors, model, updatedAfter', async () => {
  const twoHundred = await costs('two-hundred');
  const cost = (filter: string) =>
    twoHundred(`{ sessions(first: 1, filter: ${filter}) { totalCount } }`);
  expect(await cost('{hasErrors: false}')).toBe(202);
  expect(await cost('{hasErrors: true}')).toBe(202);
  expect(await cost('{model: ["x"]}')).toBe(202);
  expect(await cost('{updatedAfter: "2026-01-01T00:00:00Z"}')).toBe(202);
  // Counted once however many of them are given.
  expect(await cost('{query: "zzz", hasErrors: true, model: ["x"]}')).toBe(202);
  // No condition, no scan: an empty model list, explicit nulls.
  expect(await cost('{model: []}')).toBe(0);
  expect(await cost('{hasErrors: null, updatedAfter: null, query: null}')).toBe(0);
});

it('costs search, secretExposures and indexStatus a point per visible session', async () => {
  const twoHundred = await costs('two-hundred');
  expect(await twoHundred('{ search(query: "zzz", first: 1) { totalCount } }')).toBe(202);
  expect(await twoHundred('{ secretExposures(first: 1) { totalCount } }')).toBe(202);
  expect(await twoHundred('{ indexStatus { state } }')).toBe(202);
  // Their session filters read summaries on top.
  expect(
    await twoHundred(
      '{ search(query: "zzz", first: 1, filter: {sessions: {hasErrors: true}}) { totalCount } }',
    ),
  ).toBe(402);
  expect(
    await twoHundred('{ secretExposures(first: 1, filter: {model: ["m"]}) { totalCount } }'),
  ).toBe(402);
  const ten = await costs('ten');
  expect(await ten('{ search(query: "zzz", first: 1) { totalCount } }')).toBe(12);
});

it('counts only the sessions the caller may see (a key limited to one flavor)', async () => {
  const post = await costs(
    'two-hundred',
    { API_KEYS_FILE: path.join(dir, 'keys.json'), MAX_QUERY_COST: '11' },
    KEY,
  );
  expect(await post(FILTERED)).toBe(12); // the 10 IDE sessions, not the 190 CLI ones
  expect(await post('{ search(query: "zzz", first: 1) { totalCount } }')).toBe(12);
  expect(await post('{ secretExposures(first: 1) { totalCount } }')).toBe(12);
});
