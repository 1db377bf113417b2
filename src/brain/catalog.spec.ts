import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildFixtureHome,
  CTIME_SESSIONS,
  expectedNewestFirst,
  FIXTURE_FACTS,
  FIXTURE_IDS as I,
  FIXTURE_MTIME_MS,
  type FixtureHome,
  makeTempDir,
} from '../../test/fixtures/brain-home';
import { put } from '../../test/fixtures/fs-util';
import {
  at,
  compactLine,
  filler,
  fullLine,
  jsonl,
  planner,
  userInput,
} from '../../test/fixtures/records';
import { COMPACT_FILE, copySession, FULL_FILE, measure } from '../../test/store-helpers';
import { buildCatalog, compareNewestFirst, HeadCache, type ListedSession } from './catalog';
import { ioStats } from './safe-path';
import { BrainStore } from './store';

/**
 * The listing: createdAt from the head of each transcript only, newest-first order, and
 * rescans that re-read only what was replaced.
 */

let fx: FixtureHome;
let work: string;

beforeAll(() => {
  fx = buildFixtureHome(makeTempDir('brainql-catalog-'));
  work = fs.realpathSync(makeTempDir('brainql-catalog-work-'));
});
afterAll(() => {
  fs.rmSync(fx.dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const ids = (list: readonly ListedSession[]): string[] => list.map((s) => s.entry.id);
const withoutCtime = (list: readonly ListedSession[]): string[] =>
  ids(list).filter((id) => !CTIME_SESSIONS.includes(id));

describe('compareNewestFirst', () => {
  const at = (id: string, iso: string) =>
    ({ createdAt: new Date(iso), key: id.toLowerCase(), entry: { id } }) as ListedSession;
  it('sorts by createdAt descending, ties by id ascending (code units)', () => {
    const list = [
      at('b', '2026-01-01T00:00:00Z'),
      at('a', '2026-01-01T00:00:00Z'),
      at('Z', '2026-01-01T00:00:00Z'),
      at('c', '2026-02-01T00:00:00Z'),
      at('d', '2025-12-31T23:59:59.999Z'),
    ];
    expect(ids(list.sort(compareNewestFirst))).toEqual(['c', 'Z', 'a', 'b', 'd']);
  });
});

describe('buildCatalog', () => {
  it('lists the fixture home newest first with createdAt from the facts', async () => {
    const catalog = await buildCatalog(fx.home, [fx.extraRoot], new HeadCache());
    expect(withoutCtime(catalog.newestFirst)).toEqual(expectedNewestFirst({ extraRoot: true }));
    for (const s of catalog.newestFirst) {
      const want = FIXTURE_FACTS[s.entry.id].createdAt;
      if (want) expect([s.entry.id, s.createdAt.toISOString()]).toEqual([s.entry.id, want]);
    }
    expect([...catalog.byKey.keys()].sort()).toEqual(
      ids(catalog.newestFirst)
        .map((i) => i.toLowerCase())
        .sort(),
    );
    expect(catalog.byKey.get(I.upperId.toLowerCase())?.entry.id).toBe(I.upperId);
  });

  it('dates the two undated sessions at their oldest file time, never at the folder ctime', async () => {
    const catalog = await buildCatalog(fx.home, [], new HeadCache());
    const undated = catalog.newestFirst.filter((s) => CTIME_SESSIONS.includes(s.entry.id));
    expect(undated.map((s) => [s.entry.id, s.createdAt.getTime()])).toEqual(
      [...CTIME_SESSIONS].sort().map((id) => [id, FIXTURE_MTIME_MS]),
    );
    expect(withoutCtime(catalog.newestFirst)).toEqual(expectedNewestFirst());
  });

  it('keeps a restored old undated run old: its files keep their times, its folder is new', async () => {
    const root = path.join(makeTempDir('brainql-restored-'), 'antigravity-acp', 'brain');
    const restored = path.join(root, 'restored');
    const fresh = path.join(root, 'fresh');
    for (const [dir, line] of [
      [restored, '{"step_index":0,"type":"USER_INPUT","content":"old run"}\n'],
      [
        fresh,
        '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-02T10:00:00Z","content":"x"}\n',
      ],
    ]) {
      fs.mkdirSync(path.join(dir, '.system_generated/logs'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.system_generated/logs/transcript.jsonl'), line);
    }
    // As `cp -a` or tar leave it: the transcript keeps 2025's time, the folder is just made.
    const old = new Date('2025-01-02T03:04:05Z');
    fs.utimesSync(path.join(restored, '.system_generated/logs/transcript.jsonl'), old, old);
    const catalog = await buildCatalog(path.dirname(path.dirname(root)), [], new HeadCache());
    expect(catalog.newestFirst.map((s) => [s.entry.id, s.createdAt.toISOString()])).toEqual([
      ['fresh', '2026-06-02T10:00:00.000Z'],
      ['restored', '2025-01-02T03:04:05.000Z'],
    ]);
  });
});

describe('listing reads heads only', () => {
  let root: string;
  let transcriptBytes: number;
  const T = (s: number) => at('2026-03-01T00:00:00Z', s);

  beforeAll(() => {
    root = path.join(work, 'big/brain');
    const many = (n: number, line: (i: number) => string) =>
      jsonl(Array.from({ length: n }, (_, i) => line(i)));
    // 8 MB compact transcript of 4000 records.
    put(
      path.join(root, 'big-compact', COMPACT_FILE),
      many(4000, (i) => compactLine(planner(i, T(i), { content: filler(2000, `c${i}`) }))),
    );
    // 8 MB full-only transcript (its compact view is the full file).
    put(
      path.join(root, 'big-full-only', FULL_FILE),
      many(4000, (i) => fullLine(planner(i, T(i + 1), { content: filler(2000, `f${i}`) }))),
    );
    // A 3 MB first line, then 5 MB more.
    put(
      path.join(root, 'long-first', COMPACT_FILE),
      jsonl([
        JSON.stringify({
          ...userInput(0, T(2), { request: filler(3_000_000, 'req'), localTime: T(2) }),
        }),
        ...Array.from({ length: 2500 }, (_, i) =>
          compactLine(planner(i + 1, T(3 + i), { content: filler(2000, 'x') })),
        ),
      ]),
    );
    transcriptBytes = ['big-compact', 'big-full-only', 'long-first']
      .flatMap((s) => [COMPACT_FILE, FULL_FILE].map((f) => path.join(root, s, f)))
      .filter((f) => fs.existsSync(f))
      .reduce((sum, f) => sum + fs.statSync(f).size, 0);
  });

  it('reads a few KB per session, not the transcripts', async () => {
    expect(transcriptBytes).toBeGreaterThan(24_000_000);
    const s = new BrainStore({ geminiHome: null, brainRoots: [root], rescanMs: 3_600_000 });
    const m = await measure(() => s.refresh());
    expect(ids(m.value.newestFirst)).toEqual(['long-first', 'big-full-only', 'big-compact']);
    expect(m.value.newestFirst.map((l) => l.createdAt.toISOString())).toEqual(
      [T(2), T(1), T(0)].map((t) => new Date(t).toISOString()),
    );
    // Two small heads (16 KiB each) and the long first line (read in growing slices).
    expect(m.bytes).toBeLessThan(2 * 16_384 + 2 * 3_100_000);
    expect(m.bytes).toBeLessThan(transcriptBytes / 3);
  });

  it('reads no more than the heads again on a rescan when transcripts only grew', async () => {
    const heads = new HeadCache();
    const first = await buildCatalog(null, [root], heads);
    fs.appendFileSync(
      path.join(root, 'big-compact', COMPACT_FILE),
      compactLine(planner(9999, T(9999))) + '\n',
    );
    const m = await measure(() => buildCatalog(null, [root], heads));
    expect(ids(m.value.newestFirst)).toEqual(ids(first.newestFirst));
    expect(m.value.newestFirst.map((l) => l.createdAt)).toEqual(
      first.newestFirst.map((l) => l.createdAt),
    );
    expect(m.bytes).toBeLessThan(2 * 16_384 + 2 * 3_100_000);
  });

  it('dates a session scanned with an empty transcript by its first record once it has one (review 22)', async () => {
    const late = fs.realpathSync(makeTempDir('brainql-catalog-late-'));
    try {
      const file = path.join(late, 'late', COMPACT_FILE);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '');
      const heads = new HeadCache();
      const first = await buildCatalog(null, [late], heads);
      expect(first.newestFirst.map((l) => [l.entry.id, l.undated])).toEqual([['late', true]]);
      fs.appendFileSync(file, compactLine(planner(0, '2026-06-25T17:15:58Z')) + '\n');
      // A quick rescan keeps the entry (its folder did not change), not its undated createdAt.
      const again = await buildCatalog(null, [late], heads, undefined, first);
      expect(again.newestFirst[0].entry).toBe(first.newestFirst[0].entry);
      expect(again.newestFirst.map((l) => [l.createdAt.toISOString(), l.undated])).toEqual([
        ['2026-06-25T17:15:58.000Z', undefined],
      ]);
    } finally {
      fs.rmSync(late, { recursive: true, force: true });
    }
  });

  it('opens no transcript whose head is known and still in place (one lstat tells)', async () => {
    const heads = new HeadCache();
    await buildCatalog(null, [root], heads);
    ioStats.opens.length = 0;
    ioStats.recordOpens = true;
    try {
      const again = await buildCatalog(null, [root], heads);
      expect(ids(again.newestFirst)).toEqual(['long-first', 'big-full-only', 'big-compact']);
      expect(ioStats.opens).toEqual([]);
    } finally {
      ioStats.recordOpens = false;
    }
  });

  it('lists the fixture home and the big sessions reading far less than their transcripts', async () => {
    const s = new BrainStore({
      geminiHome: fx.home,
      brainRoots: [fx.extraRoot, root],
      rescanMs: 3_600_000,
    });
    const m = await measure(() => s.refresh());
    expect(m.value.newestFirst).toHaveLength(26 + 3);
    expect(m.bytes).toBeLessThan(2 * 16_384 + 2 * 3_100_000 + 26 * 16_384);
  });
});

describe('rescans', () => {
  let n = 0;
  const freshRoot = () => {
    const root = path.join(work, `re${n++}/brain`);
    fs.mkdirSync(root, { recursive: true });
    copySession(path.join(fx.roots.ide, I.freshOnly), root);
    copySession(path.join(fx.roots.ide, I.duplicates), root);
    return root;
  };

  it('re-reads the head of a replaced transcript and re-sorts', async () => {
    const root = freshRoot();
    const heads = new HeadCache();
    const first = await buildCatalog(null, [root], heads);
    expect(ids(first.newestFirst)).toEqual([I.duplicates, I.freshOnly]);
    const file = path.join(root, I.freshOnly, COMPACT_FILE);
    fs.writeFileSync(
      `${file}.new`,
      compactLine(planner(0, '2026-05-30T00:00:00Z', { content: 'moved' })) + '\n',
    );
    fs.renameSync(`${file}.new`, file);
    const m = await measure(() => buildCatalog(null, [root], heads));
    expect(ids(m.value.newestFirst)).toEqual([I.freshOnly, I.duplicates]);
    expect(m.value.byKey.get(I.freshOnly)?.createdAt.toISOString()).toBe(
      '2026-05-30T00:00:00.000Z',
    );
    // At most one head slice per session.
    expect(m.bytes).toBeLessThanOrEqual(2 * 16_384);
  });

  it('reads a transcript without a valid time again only when its size changed', async () => {
    const root = path.join(work, `re${n++}/brain`);
    fs.mkdirSync(root, { recursive: true });
    const dir = copySession(path.join(fx.roots.ide, I.noValidCreatedAt), root);
    const heads = new HeadCache();
    const file = path.join(dir, COMPACT_FILE);
    const size = fs.statSync(file).size;
    expect((await measure(() => buildCatalog(null, [root], heads))).bytes).toBe(size);
    expect((await measure(() => buildCatalog(null, [root], heads))).bytes).toBe(0);
    fs.appendFileSync(file, compactLine(planner(99, undefined)) + '\n');
    const grown = await measure(() => buildCatalog(null, [root], heads));
    expect(grown.bytes).toBe(fs.statSync(file).size);
  });

  it('serves the old snapshot while a stale one is rescanned, then the new one', async () => {
    const root = freshRoot();
    const s = new BrainStore({ geminiHome: null, brainRoots: [root], rescanMs: 0 });
    const first = await s.catalog();
    expect(ids(first.newestFirst)).toEqual([I.duplicates, I.freshOnly]);
    copySession(path.join(fx.roots.ide, I.pair), root);
    fs.rmSync(path.join(root, I.freshOnly), { recursive: true });
    await new Promise((r) => setTimeout(r, 2));
    const stale = await s.catalog(); // starts a rescan behind it
    expect(stale).toBe(first);
    const next = await s.refresh();
    expect(ids(next.newestFirst)).toEqual([I.pair, I.duplicates]);
    expect(next.roots.map((r) => r.sessionCount)).toEqual([2]);
    expect(await s.resolve(I.freshOnly)).toEqual({ kind: 'none' });
  });

  it('quick rescans find new and vanished sessions without reading the known ones', async () => {
    const root = freshRoot();
    const s = new BrainStore({ geminiHome: null, brainRoots: [root] });
    const first = await s.refresh();
    copySession(path.join(fx.roots.ide, I.pair), root);
    fs.rmSync(path.join(root, I.freshOnly), { recursive: true });
    const { value: quick, bytes, opens } = await measure(() => s.refresh(true));
    expect(ids(quick.newestFirst)).toEqual([I.pair, I.duplicates]);
    expect(quick.roots.map((r) => r.sessionCount)).toEqual([2]);
    // The known session is taken as it was: same entry object, nothing of it read again.
    const dup = (c: typeof first) => c.newestFirst.find((x) => x.entry.id === I.duplicates)!;
    expect(dup(quick).entry).toBe(dup(first).entry);
    expect(dup(quick).createdAt).toBe(dup(first).createdAt);
    const pairHead = fs.statSync(path.join(root, I.pair, COMPACT_FILE)).size;
    expect(bytes).toBe(Math.min(pairHead, 16 * 1024));
    expect(opens).toEqual([COMPACT_FILE]);
    // The root stays one object: kept and new entries alike hold the catalog's root.
    expect(quick.roots[0].root).toBe(first.roots[0].root);
    expect(quick.newestFirst.map((x) => x.entry.root === quick.roots[0].root)).toEqual([
      true,
      true,
    ]);
  });

  it('reports scan progress', async () => {
    const root = freshRoot();
    const calls: [number, number | null][] = [];
    const s = new BrainStore({
      geminiHome: null,
      brainRoots: [root],
      onScanProgress: (d, t) => calls.push([d, t]),
    });
    await s.refresh();
    expect(calls).toEqual([[2, null]]);
  });
});
