import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderSyncs } from './ingest-fs';

/**
 * Folder fsyncs shared between writes: an ask covered only by an fsync that starts after it,
 * so asks made while one runs share the next one, and nothing is shared across that line.
 */

function fakeDisk() {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const fsyncDir = (dir: string) =>
    new Promise<void>((resolve) => {
      started.push(dir);
      finish.push(resolve);
    });
  return { started, finish, syncs: new FolderSyncs(fsyncDir) };
}

const tick = () => new Promise((r) => setImmediate(r));

it('asks made while an fsync of the folder runs share one next fsync', async () => {
  const { started, finish, syncs } = fakeDisk();
  const first = syncs.sync('/a');
  expect(started).toEqual(['/a']);
  // Five writes ask while it runs: none is covered by it, all by the one after it.
  const waiting = Array.from({ length: 5 }, () => syncs.sync('/a'));
  // Another folder is not held up by /a.
  const other = syncs.sync('/b');
  expect(started).toEqual(['/a', '/b']);
  finish[0]();
  await first;
  await tick();
  expect(started).toEqual(['/a', '/b', '/a']);
  let done = 0;
  for (const w of waiting) void w.then(() => done++);
  await tick();
  expect(done).toBe(0);
  finish[2]();
  await Promise.all(waiting);
  expect(done).toBe(5);
  finish[1]();
  await other;
  // Idle again: the next ask starts its own fsync at once.
  void syncs.sync('/a');
  expect(started).toEqual(['/a', '/b', '/a', '/a']);
  finish[3]();
});

it('an ask made after the shared fsync started waits for one more', async () => {
  const { started, finish, syncs } = fakeDisk();
  void syncs.sync('/a');
  const second = syncs.sync('/a');
  finish[0]();
  await tick();
  expect(started).toEqual(['/a', '/a']);
  const third = syncs.sync('/a');
  finish[1]();
  await second;
  await tick();
  expect(started).toEqual(['/a', '/a', '/a']);
  finish[2]();
  await third;
});

it('a failed fsync fails every ask it covers, and the next ask tries again', async () => {
  const err = Object.assign(new Error('EIO'), { code: 'EIO' });
  let fail = true;
  const syncs = new FolderSyncs(() => (fail ? Promise.reject(err) : Promise.resolve()));
  await expect(syncs.sync('/a')).rejects.toBe(err);
  fail = false;
  await expect(syncs.sync('/a')).resolves.toBeUndefined();
});

it('fsyncs a real folder, and refuses a link to one (never followed)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-folder-syncs-'));
  try {
    fs.mkdirSync(path.join(dir, 'real'));
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    const syncs = new FolderSyncs();
    await expect(syncs.sync(path.join(dir, 'real'))).resolves.toBeUndefined();
    await expect(syncs.sync(path.join(dir, 'link'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
