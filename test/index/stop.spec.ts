import * as fs from 'node:fs';
import * as path from 'node:path';
import { ioStats } from '../../src/brain/safe-path';
import { compactLine, planner, userInput } from '../fixtures/records';
import { COMPACT, makeIndexHome, openIndex, where, type IndexHome } from './index-home';

/**
 * Closing the index in the middle of a big transcript stops the scan at its next block
 * (a shutdown never waits for a whole file), and the next start resumes from the progress
 * saved, reading only the rest. Lines that are no records count toward the batches too.
 */

const ID = 'ab000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
/** 24 MiB of blank lines between the first and the last record: six batches. */
const BLANK = (' '.repeat(1023) + '\n').repeat(24 * 1024);

let h: IndexHome;

beforeAll(() => {
  h = makeIndexHome();
});

afterAll(() => h.remove());

it('stops mid-transcript on close, and resumes there', async () => {
  const file = path.join(h.root, ID, COMPACT);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const head = compactLine(userInput(0, T, { request: 'firstrecord', localTime: 'x' })) + '\n';
  const tail = compactLine(planner(1, T, { content: 'lastrecord' })) + '\n';
  fs.writeFileSync(file, head + BLANK + tail);
  const size = fs.statSync(file).size;

  const first = openIndex(h.home, h.cacheDir);
  // Let the first batch be written, then close at once.
  const dirs = await first.dirs();
  for (let i = 0; i < 400 && first.index.status(dirs).bytesIndexed === 0; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  await first.close();
  const idle = openIndex(h.home, h.cacheDir, { start: false });
  const saved = idle.index.status(dirs);
  await idle.close();
  expect(saved.state).toBe('BUILDING');
  expect(saved.bytesIndexed).toBeGreaterThan(0);
  expect(saved.bytesIndexed).toBeLessThan(size / 2);

  const read = ioStats.bytesRead;
  const second = openIndex(h.home, h.cacheDir);
  await second.index.caughtUp();
  // The rest, plus at most the block the last batch ended in (read again from its last line).
  const again = ioStats.bytesRead - read;
  expect(again).toBeGreaterThanOrEqual(size - saved.bytesIndexed);
  expect(again).toBeLessThanOrEqual(size - saved.bytesIndexed + 6 * (1 << 20));
  expect(second.index.status(dirs)).toMatchObject({ state: 'READY', bytesIndexed: size });
  expect((await second.search(['firstrecord'])).hits.map(where)).toEqual([
    `${ID} USER_REQUEST step 0`,
    `${ID} CONTENT step 0`,
  ]);
  expect((await second.search(['lastrecord'])).hits.map(where)).toEqual([`${ID} CONTENT step 1`]);
  await second.close();
});

it('indexes 4 million lines that are no records in a CPU time that a few bytes per line explain', async () => {
  const dir = path.join(h.root, 'ab000000-0000-4000-8000-000000000002');
  const file = path.join(dir, COMPACT);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const head = compactLine(userInput(0, T, { request: 'beforethex', localTime: 'x' })) + '\n';
  fs.writeFileSync(file, head + 'x\n'.repeat(4_000_000));
  const o = openIndex(h.home, h.cacheDir);
  const cpu = process.cpuUsage();
  await o.index.caughtUp();
  const { user, system } = process.cpuUsage(cpu);
  // Parsing each line (a SyntaxError apiece) took 10-20 s; looking at its first and last byte,
  // about 1 s at rest. The bound tells the two apart with room for a busy machine (the whole
  // process's CPU time is counted: 3.4 s was measured at load 8); the figure is the bench's.
  expect((user + system) / 1000).toBeLessThan(7000);
  expect(o.index.status([fs.realpathSync(dir)])).toMatchObject({
    state: 'READY',
    bytesIndexed: fs.statSync(file).size,
  });
  expect((await o.search(['beforethex'])).totalCount).toBe(2);
  await o.close();
});
