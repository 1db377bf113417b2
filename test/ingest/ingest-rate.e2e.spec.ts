import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, send, startCollector, type Collector } from './ingest-server';

/** A push costs rate points like a download: 1 a request, plus 1 per started 64 KiB. */

const ID = '7a7e0000-0000-4000-8000-000000000001';
let dir: string;
let c: Collector;

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-rate-');
  fs.mkdirSync(path.join(dir, 'home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'home'), { RATE_LIMIT_POINTS: '20' });
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('charges by bytes received; past the limit 429 with Retry-After and nothing written', async () => {
  const url = (f: string) => `/api/ingest/sessions/antigravity-ide/${ID}/files/${f}?offset=0`;
  // 1 + 10 points (640 KiB): within the minute's 20.
  const ok = await send(c.server, 'PUT', url('a.bin'), KEYS.ci, Buffer.alloc(10 * 65536, 1));
  expect(ok.status).toBe(200);
  // 1 + 16 more passes what is left (9): refused part-way, rolled back.
  const over = await send(c.server, 'PUT', url('b.bin'), KEYS.ci, Buffer.alloc(16 * 65536, 2));
  expect(over.status).toBe(429);
  expect((over.json as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  const sdir = path.join(c.ingestDir, 'ci-runner', 'antigravity-ide', 'brain', ID);
  expect(fs.readdirSync(sdir)).toEqual(['a.bin']);
  expect(fs.readdirSync(path.join(c.ingestDir, 'ci-runner', '.tmp'))).toEqual([]);
  // Another key's bucket is its own.
  const other = await send(c.server, 'PUT', url('c.bin'), KEYS.laptop, 'x');
  expect(other.status).toBe(200);
});
