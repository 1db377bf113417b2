import * as fs from 'node:fs';
import * as path from 'node:path';
import { ioStats } from '../../src/brain/safe-path';
import { BrainStore } from '../../src/brain/store';
import {
  buildFixtureHome,
  copyRealSessions,
  makeTempDir,
  type FixtureHome,
} from '../fixtures/brain-home';
import { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import type { SearchRequest } from '../../src/index/home-index';
import { compactLine, filler, fullLine, planner, userInput } from '../fixtures/records';
import { appendRecords, makeIndexHome, openIndex, where, writeSession } from './index-home';

const T = '2026-05-01T10:00:00Z';
/** 6 KB around `term`: truncated in the compact file, whole in its full twin. */
const long = (term: string) => `${filler(3000, 'a')} ${term} ${filler(3000, 'b')}`;

/**
 * A restart over an unchanged home reads no transcript byte: the first scan takes each
 * session's createdAt from the persisted heads, the first page of sessions is served from
 * the persisted summaries, and the index finds nothing to do. Over the fixture home (every
 * failure mode of real brain folders) plus the real sessions.
 */

let fx: FixtureHome;
let cacheDir: string;

beforeAll(() => {
  fx = buildFixtureHome(makeTempDir('brainql-restart-'));
  copyRealSessions(fx.home);
  cacheDir = path.join(fx.dir, 'cache');
});

const opened: { index: SqliteHomeIndex }[] = [];

afterAll(async () => {
  // Closing twice is harmless; a failed test must not leave a pass running.
  for (const o of opened) await o.index.close().catch(() => undefined);
  fs.rmSync(fx.dir, { recursive: true, force: true });
});

function open() {
  const store = new BrainStore({
    geminiHome: fx.home,
    brainRoots: [fx.extraRoot],
    rescanMs: 3_600_000,
  });
  const warnings: string[] = [];
  const index = new SqliteHomeIndex(store, {
    cacheDir,
    redact: false,
    redactPatterns: [],
    maxRecordBytes: store.transcripts.maxRecordBytes,
    log: { log: () => undefined, warn: (m) => warnings.push(m) },
  });
  opened.push({ index });
  return { store, index, warnings };
}

const TERMS = [['user_request'], ['the'], ['run_command'], ['task'], ['error'], ['file', 'the']];

async function answers(o: ReturnType<typeof open>) {
  const catalog = await o.store.catalog();
  const dirs = [...catalog.newestFirst, ...catalog.shadowed].map((l) => l.entry.realDir);
  const request = (terms: string[]): SearchRequest => ({
    terms,
    dirs,
    fields: null,
    order: 'RELEVANCE',
    first: 50,
    after: null,
  });
  return {
    search: TERMS.map((t) => o.index.search(request(t))),
    secrets: o.index.secrets(dirs),
    status: o.index.status(dirs),
  };
}

it('reads no transcript byte after a restart, and answers the same', async () => {
  const first = open();
  first.index.start();
  await first.index.caughtUp();
  const before = await answers(first);
  expect(before.status).toMatchObject({ state: 'READY', sessionsIndexed: 31, sessionsTotal: 31 });
  expect(before.search.map((p) => p.totalCount).every((n) => n > 0)).toBe(true);
  await first.index.close();

  // The summaries a store without an index computes from the files.
  const plain = new BrainStore({
    geminiHome: fx.home,
    brainRoots: [fx.extraRoot],
    rescanMs: 3_600_000,
  });
  // The whole listing (29 sessions): more than a first page, every failure mode of the home.
  const plainPage = (await plain.catalog()).newestFirst;
  const expected = await plain.summaries(plainPage);

  const read = ioStats.bytesRead;
  const second = open();
  const catalog = await second.store.catalog();
  const page = catalog.newestFirst;
  const summaries = await second.store.summaries(page);
  second.index.start();
  await second.index.caughtUp();
  expect(ioStats.bytesRead - read).toBe(0);
  expect(second.warnings).toEqual([]);
  expect(second.index.progress.sessionsChanged).toBe(0);

  expect(page.map((l) => l.entry.realDir)).toEqual(plainPage.map((l) => l.entry.realDir));
  // Served from the index, marked as stored masked with each session's values (no learning).
  expect(summaries.map((s) => s.echoMasked)).toEqual(expected.map(() => true));
  expect(summaries.map(({ echoMasked: _stored, ...s }) => s)).toEqual(expected);
  const after = await answers(second);
  expect(after).toEqual(before);
  await second.index.close();
});

it('after a restart, a record appended with a truncated field reads only the new bytes', async () => {
  const h = makeIndexHome();
  try {
    const recs = [userInput(0, T, { request: 'kept', localTime: 'x' })];
    for (let i = 1; i < 100; i++) recs.push(planner(i, T, { content: long(`mid${i}`) }));
    const dir = writeSession(h.root, 'e9000000-0000-4000-8000-000000000001', recs);
    const first = openIndex(h.home, h.cacheDir);
    await first.index.caughtUp();
    await first.close();

    const second = openIndex(h.home, h.cacheDir);
    await second.index.caughtUp();
    const added = planner(100, T, { content: long('mid100') });
    const read = ioStats.bytesRead;
    appendRecords(dir, [added]);
    await second.index.caughtUp();
    // The appended compact and full lines, then the twin's line once more.
    const appended = Buffer.byteLength(compactLine(added) + '\n' + fullLine(added) + '\n');
    // Plus 256 bytes before the old and the new compact end: the check that the file was not
    // rewritten in place (see incremental.spec.ts).
    expect(ioStats.bytesRead - read).toBe(appended + Buffer.byteLength(fullLine(added)) + 512);
    expect((await second.search(['mid100'])).hits.map(where)).toEqual([
      'e9000000-0000-4000-8000-000000000001 CONTENT step 100',
    ]);
    await second.close();
  } finally {
    h.remove();
  }
});
