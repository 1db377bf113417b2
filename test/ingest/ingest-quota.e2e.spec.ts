import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENTRY_BYTES } from '../../src/ingest/ingest-fs';
import { IngestWriter } from '../../src/ingest/ingest-writer';
import { SourceQuota } from '../../src/ingest/quota';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, send, startCollector, type Collector } from './ingest-server';

/**
 * MAX_INGEST_MB counts folders and files, not only bytes: every file and folder costs
 * ENTRY_BYTES (4 KiB), so empty files in deep folders cannot fill a disk.
 */

const ID = 'a0000000-2222-4333-8444-555555555555';
const MB = 1024 * 1024;

let dir: string;
let c: Collector;

/** Every folder under `root`, recursively. */
function folders(root: string): number {
  let n = 0;
  for (const e of fs.readdirSync(root, { withFileTypes: true }))
    if (e.isDirectory()) n += 1 + folders(path.join(root, e.name));
  return n;
}

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-quota-');
  fs.mkdirSync(path.join(dir, 'home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'home'), { MAX_INGEST_MB: '1' });
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('charges 4 KiB per file and folder: empty files 16 deep stop at MAX_INGEST_MB', async () => {
  expect(ENTRY_BYTES).toBe(4096);
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    // 16 segments: 15 new folders and an empty file (plus flavor/brain/id the first time).
    const deep = [`e${i}`, ...Array.from({ length: 14 }, (_, j) => `d${j}`), 'f'].join('/');
    const a = await send(
      c.server,
      'PUT',
      `/api/ingest/sessions/antigravity-acp/${ID}/files/${deep}?offset=0`,
      KEYS.ci,
      '',
    );
    statuses.push(a.status);
    if (a.status !== 200)
      expect(a.json).toEqual({
        error: {
          code: 'INSUFFICIENT_STORAGE',
          message:
            'The source "ci-runner" would hold more than MAX_INGEST_MB (1048576 bytes): nothing was written.',
        },
      });
  }
  // 1 MiB is 256 entries: the first PUT takes 3 + 15 + 1 = 19, each next one 16, so 15 fit.
  expect(statuses).toEqual([...Array<number>(15).fill(200), ...Array<number>(25).fill(507)]);
  const source = path.join(c.ingestDir, 'ci-runner');
  // The refused PUTs made no folder: brain, the session and 15 * 15 below it.
  expect(folders(path.join(source, 'antigravity-acp'))).toBe(2 + 15 * 15);
  // A restart measures what the writes kept: 19 + 14 * 16 entries, no bytes.
  expect(await new SourceQuota(c.ingestDir, MB).used('ci-runner')).toBe(243 * ENTRY_BYTES);
  expect(await c.app.get(IngestWriter).quota.used('ci-runner')).toBe(243 * ENTRY_BYTES);
});
