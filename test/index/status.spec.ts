import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactLine, fullLine, jsonl, planner, userInput } from '../fixtures/records';
import { writeChunks } from '../fixtures/fs-util';
import {
  COMPACT,
  FULL,
  LOGS,
  makeIndexHome,
  openIndex,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * indexStatus per the contract: sessionsTotal the sessions asked about, sessionsIndexed those
 * fully indexed, bytesIndexed the transcript bytes read into the index (complete lines of the
 * view the steps come from), updatedAt the last change written (kept across restarts).
 */

const sid = (n: number) => `b8000000-0000-4000-8000-00000000000${n}`;
const T = '2026-05-01T10:00:00Z';
const records = (term: string) => [
  userInput(0, T, { request: term, localTime: 'x' }),
  planner(1, T, { content: `${term} again` }),
];

let h: IndexHome;
const dirs: string[] = [];
const sizes: number[] = [];
let ix: ReturnType<typeof openIndex> | null = null;

beforeAll(() => {
  h = makeIndexHome();
  // A compact + full pair: the compact file counts.
  dirs.push(writeSession(h.root, sid(1), records('one')));
  sizes.push(fs.statSync(path.join(dirs[0], COMPACT)).size);
  // Only a full transcript: it is the view.
  const only = path.join(h.root, sid(2));
  fs.mkdirSync(path.join(only, LOGS), { recursive: true });
  fs.writeFileSync(path.join(only, FULL), jsonl(records('two').map(fullLine)));
  dirs.push(fs.realpathSync(only));
  sizes.push(fs.statSync(path.join(only, FULL)).size);
  // Compact chunks, a line cut across two of them, and an unfinished last line.
  const chunked = path.join(h.root, sid(3));
  const body = jsonl(records('three').map(compactLine));
  const tail = compactLine(planner(2, T, { content: 'three tail' }));
  const bytes = Buffer.from(body + tail);
  writeChunks(path.join(chunked, LOGS, 'chunks/transcript'), [
    bytes.subarray(0, 100),
    bytes.subarray(100),
  ]);
  dirs.push(fs.realpathSync(chunked));
  sizes.push(Buffer.byteLength(body));
});

afterAll(async () => {
  await ix?.close();
  h.remove();
});

it('counts what is indexed, for the sessions asked about', async () => {
  ix = openIndex(h.home, h.cacheDir, { start: false });
  const all = (await ix.dirs()).sort();
  expect(all).toEqual([...dirs].sort());
  expect(ix.index.status(all)).toEqual({
    state: 'BUILDING',
    sessionsIndexed: 0,
    sessionsTotal: 3,
    bytesIndexed: 0,
    updatedAt: null,
  });
  const before = Date.now();
  ix.index.start();
  await ix.index.caughtUp();
  const status = ix.index.status(all);
  expect(status).toMatchObject({
    state: 'READY',
    sessionsIndexed: 3,
    sessionsTotal: 3,
    bytesIndexed: sizes[0] + sizes[1] + sizes[2],
  });
  expect(status.updatedAt!.getTime()).toBeGreaterThanOrEqual(before);
  expect(status.updatedAt!.getTime()).toBeLessThanOrEqual(Date.now());
  // The unfinished line is searchable, its bytes not yet counted.
  expect((await ix.search(['three tail'])).totalCount).toBe(1);

  // A scope: only its sessions count.
  expect(ix.index.status([dirs[1]])).toMatchObject({
    state: 'READY',
    sessionsIndexed: 1,
    sessionsTotal: 1,
    bytesIndexed: sizes[1],
  });
  // A session the index has not seen yet.
  expect(ix.index.status([dirs[0], path.join(h.root, 'unseen')])).toMatchObject({
    state: 'BUILDING',
    sessionsIndexed: 1,
    sessionsTotal: 2,
    bytesIndexed: sizes[0],
  });
  expect(ix.index.status([])).toMatchObject({ state: 'READY', sessionsTotal: 0, bytesIndexed: 0 });

  // Nothing changed: updatedAt stays; a restart keeps it.
  await ix.index.caughtUp();
  expect(ix.index.status(all)).toEqual(status);
  await ix.close();
  ix = openIndex(h.home, h.cacheDir, { start: false });
  expect(ix.index.status(all)).toEqual(status);
  ix.index.start();
  await ix.index.caughtUp();
  expect(ix.index.status(all)).toEqual(status);

  // Growth: counted once indexed, and updatedAt moves.
  fs.appendFileSync(path.join(dirs[0], COMPACT), jsonl([compactLine(planner(2, T))]));
  await ix.index.caughtUp();
  const grown = ix.index.status(all);
  expect(grown.bytesIndexed).toBe(
    fs.statSync(path.join(dirs[0], COMPACT)).size + sizes[1] + sizes[2],
  );
  expect(grown.updatedAt!.getTime()).toBeGreaterThan(status.updatedAt!.getTime());
  // updatedAt is the last change to a session the caller may see: growth elsewhere is not news.
  const others = ix.index.status([dirs[1], dirs[2]]);
  expect(others.updatedAt!.getTime()).toBeLessThanOrEqual(status.updatedAt!.getTime());
  expect(ix.index.status([dirs[0]]).updatedAt).toEqual(grown.updatedAt);
});
