import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import * as ingestFs from './ingest-fs';
import { IngestWriter } from './ingest-writer';

/**
 * What a PUT has made durable by the time it answers. Folders are fsynced into their parents
 * in one batch after the rename, not as each is made: every folder made for a file, the file's
 * own folder, and any folder of its path this process has not yet seen fsynced, all before the
 * answer; a write that makes no folder fsyncs only its own folder (and an append none).
 */

const ID = '0e425d02-1202-4100-bc5d-00ca330e6acf';
const LOGS = '.system_generated/logs';

let dir: string;
let synced: string[][];
let order: string[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-writer-'));
  synced = [];
  order = [];
  const real = ingestFs.syncDirs;
  jest.spyOn(ingestFs, 'syncDirs').mockImplementation(async (dirs) => {
    const list = [...dirs];
    await real(list);
    synced.push(list.map((d) => path.relative(dir, d) || '.').sort());
    order.push('synced');
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const writer = () => new IngestWriter(dir, 1 << 30, 1 << 30);

async function put(w: IngestWriter, rel: string, offset: number, body: string) {
  const entry = await w.put({
    source: 'ci',
    flavor: 'antigravity-ide',
    id: ID,
    rel,
    offset,
    body: Readable.from([Buffer.from(body)]),
    charge: () => undefined,
  });
  order.push('answered');
  return entry;
}

const session = `ci/antigravity-ide/brain/${ID}`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** Every folder fsynced for a transcript of a new session: each one's parent, and the file's. */
const EVERY_FOLDER = [
  '.',
  'ci',
  'ci/antigravity-ide',
  'ci/antigravity-ide/brain',
  session,
  `${session}/.system_generated`,
  `${session}/${LOGS}`,
];

it('fsyncs every folder made for a new file, and the file folder, once, before answering', async () => {
  const w = writer();
  const body = '{"step_index":0}\n'.repeat(100);
  const entry = await put(w, `${LOGS}/transcript.jsonl`, 0, body);
  // One batch: the parent of each folder of the path (all new here) and the file's folder.
  expect(synced).toEqual([EVERY_FOLDER]);
  expect(order).toEqual(['synced', 'answered']);
  // Complete and visible the moment it answers, nothing left in the staging folder.
  const file = path.join(dir, session, LOGS, 'transcript.jsonl');
  expect(fs.readFileSync(file, 'utf8')).toBe(body);
  expect(entry).toEqual({ path: `${LOGS}/transcript.jsonl`, size: body.length, sha256: sha(body) });
  expect(await w.list('ci', 'antigravity-ide', ID)).toEqual([entry]);
  expect(fs.readdirSync(path.join(dir, 'ci', '.tmp'))).toEqual([]);
});

it('a second file in a known folder fsyncs that folder only; an append fsyncs no folder', async () => {
  const w = writer();
  await put(w, `${LOGS}/transcript.jsonl`, 0, 'a\n');
  synced = [];
  await put(w, `${LOGS}/transcript_full.jsonl`, 0, 'b\n');
  expect(synced).toEqual([[`${session}/${LOGS}`]]);
  synced = [];
  const entry = await put(w, `${LOGS}/transcript.jsonl`, 2, 'c\n');
  expect(synced).toEqual([[]]);
  expect(entry).toEqual({ path: `${LOGS}/transcript.jsonl`, size: 4, sha256: sha('a\nc\n') });
  // A new sub-folder of the session: it and its parent's entry for it.
  synced = [];
  await put(w, 'task.md', 0, 'x');
  await put(w, 'artifacts/plan.md', 0, 'y');
  expect(synced).toEqual([[session], [session, `${session}/artifacts`]]);
});

it('after a restart, the first write fsyncs every folder of its path again', async () => {
  await put(writer(), `${LOGS}/transcript.jsonl`, 0, 'a\n');
  synced = [];
  // A crash may have come before folders found on disk were fsynced: a new process does not
  // take them as durable.
  const entry = await put(writer(), `${LOGS}/transcript.jsonl`, 2, 'b\n');
  // Every folder's parent, but not the file's own folder: an append adds no entry to it.
  expect(synced).toEqual([EVERY_FOLDER.slice(0, -1)]);
  expect(entry.size).toBe(4);
});

it('a refused write fsyncs nothing and makes no folder', async () => {
  const w = writer();
  await expect(put(w, `${LOGS}/transcript.jsonl`, 5, 'a\n')).rejects.toMatchObject({
    code: 'OFFSET_MISMATCH',
  });
  expect(synced).toEqual([]);
  expect(fs.existsSync(path.join(dir, 'ci', 'antigravity-ide'))).toBe(false);
});

it('a known folder removed by hand is made again (and fsynced) by the next write', async () => {
  const w = writer();
  await put(w, `${LOGS}/transcript.jsonl`, 0, 'a\n');
  fs.rmSync(path.join(dir, session), { recursive: true });
  synced = [];
  const entry = await put(w, `${LOGS}/transcript.jsonl`, 0, 'b\n');
  expect(entry).toEqual({ path: `${LOGS}/transcript.jsonl`, size: 2, sha256: sha('b\n') });
  expect(fs.readFileSync(path.join(dir, session, LOGS, 'transcript.jsonl'), 'utf8')).toBe('b\n');
  expect(synced).toEqual([EVERY_FOLDER]);
});
