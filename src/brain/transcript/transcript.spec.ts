import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildFixtureHome,
  copyRealSessions,
  FIXTURE_IDS as I,
  type FixtureHome,
  makeTempDir,
  PROBLEM_FACTS,
} from '../../../test/fixtures/brain-home';
import { put } from '../../../test/fixtures/fs-util';
import {
  at,
  compactLine,
  filler,
  fullLine,
  jsonl,
  planner,
  type FullRecord,
} from '../../../test/fixtures/records';
import { BIG_CONTENT_BYTES, BIG_MARKERS } from '../../../test/fixtures/session-bytes';
import {
  chunksOnlyRecords,
  DUP_2A,
  DUP_2B,
  MALFORMED_STEP4,
} from '../../../test/fixtures/session-lines';
import { PAIR_PLAN, PAIR_STEP3_THINKING, pairRecords } from '../../../test/fixtures/session-pair';
import {
  COMPACT_FILE,
  copySession,
  entryAt,
  entryOf,
  expectedRecord,
  fixtureStore,
  FULL_FILE,
  measure,
} from '../../../test/store-helpers';
import { BrainStore } from '../store';
import type { StepRecord } from '../types';

/**
 * Full twins: the k-th full record with a step_index for the k-th compact one, read through
 * the byte-offset index one line at a time; what is reported when a twin is missing.
 */

let fx: FixtureHome;
let store: BrainStore;
let work: string;

beforeAll(async () => {
  fx = buildFixtureHome(makeTempDir('brainql-twin-'));
  copyRealSessions(fx.home);
  work = makeTempDir('brainql-twin-work-');
  store = fixtureStore(fx);
  await store.refresh();
});
afterAll(() => {
  fs.rmSync(fx.dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

const recordsOf = async (id: string): Promise<StepRecord[]> =>
  store.records(await entryOf(store, id));
const byIndex = (records: StepRecord[], index: number): StepRecord => {
  const r = records.find((x) => x.index === index);
  if (!r) throw new Error(`no step ${index}`);
  return r;
};
/** The byte length of 1-based line `n` of a file (without its newline). */
const lineLength = (file: string, n: number): number =>
  Buffer.byteLength(fs.readFileSync(file, 'utf8').split('\n')[n - 1]);

describe('full values of truncated fields', () => {
  it('returns the full content, thinking and tool calls of the pair', async () => {
    const entry = await entryOf(store, I.pair);
    const records = await recordsOf(I.pair);
    const full = pairRecords();
    expect(await store.fullField(entry, byIndex(records, 3), 'thinking')).toBe(PAIR_STEP3_THINKING);
    expect(await store.fullField(entry, byIndex(records, 4), 'content')).toBe(full[4].content);
    const calls = await store.fullField(entry, byIndex(records, 6), 'tool_calls');
    expect(calls).toEqual(expectedRecord(full[5], 5, { compact: false }).toolCalls);
    expect(calls).toEqual([
      {
        position: 0,
        name: 'write_to_file',
        args: {
          TargetFile: '/x/implementation_plan.md',
          CodeContent: PAIR_PLAN,
          Overwrite: false,
          ArtifactMetadata: { ArtifactType: 'implementation_plan', Summary: 'Plan' },
          toolAction: 'Writing plan',
          toolSummary: 'implementation_plan.md',
        },
        toolAction: 'Writing plan',
        toolSummary: 'implementation_plan.md',
      },
    ]);
  });

  it('matches the full twin (compact and full agree everywhere else)', async () => {
    const entry = await entryOf(store, I.pair);
    const records = await recordsOf(I.pair);
    const full = pairRecords();
    for (const [i, r] of records.entries()) {
      const twin = await store.transcripts.fullTwin(entry.realDir, r);
      expect(twin).toEqual(expectedRecord(full[i], 0, { compact: false, line: i + 1 }));
    }
  });

  it('returns the compact value of a field that is not truncated and reads nothing', async () => {
    const entry = await entryOf(store, I.pair);
    const records = await recordsOf(I.pair);
    for (const [index, field] of [
      [6, 'content'],
      [4, 'thinking'],
      [3, 'content'],
      [3, 'tool_calls'],
      [0, 'content'],
    ] as const) {
      const r = byIndex(records, index);
      const m = await measure(() => store.fullField(entry, r, field));
      const compactValue =
        field === 'content' ? r.content : field === 'thinking' ? r.thinking : r.toolCalls;
      expect([index, field, m.value, m.bytes, m.opens]).toEqual([
        index,
        field,
        compactValue,
        0,
        [],
      ]);
    }
  });

  it('reads only the one line of the full file once the index exists', async () => {
    const fresh = fixtureStore(fx);
    const entry = await entryOf(fresh, I.pair);
    const records = await fresh.records(entry);
    const fullFile = path.join(entry.realDir, FULL_FILE);
    const size = fs.statSync(fullFile).size;
    // Cold: the index is built by one scan, then line 5 (step 4) is read.
    const cold = await measure(() => fresh.fullField(entry, byIndex(records, 4), 'content'));
    expect([cold.bytes, cold.opens]).toEqual([
      size + lineLength(fullFile, 5),
      [FULL_FILE, FULL_FILE],
    ]);
    // Warm: one line each.
    for (const [index, field, line] of [
      [4, 'content', 5],
      [3, 'thinking', 4],
      [6, 'tool_calls', 6],
    ] as const) {
      const m = await measure(() => fresh.fullField(entry, byIndex(records, index), field));
      expect([index, m.bytes, m.opens]).toEqual([index, lineLength(fullFile, line), [FULL_FILE]]);
    }
  });

  it('reads about one line, not the file, in a large full transcript', async () => {
    const dir = copySession(path.join(fx.roots.ide, I.pair), path.join(work, 'large'));
    const filler200: FullRecord[] = Array.from({ length: 200 }, (_, i) =>
      planner(100 + i, at('2026-05-28T10:00:00Z', i), { content: filler(10_000, `l${i}`) }),
    );
    fs.appendFileSync(path.join(dir, FULL_FILE), jsonl(filler200.map(fullLine)));
    const entry = entryAt(dir);
    const s = new BrainStore({ geminiHome: null, brainRoots: [], rescanMs: 3_600_000 });
    const records = await s.records(entry);
    await s.fullField(entry, byIndex(records, 3), 'thinking'); // builds the index
    const size = fs.statSync(path.join(dir, FULL_FILE)).size;
    expect(size).toBeGreaterThan(2_000_000);
    const m = await measure(() => s.fullField(entry, byIndex(records, 4), 'content'));
    expect(m.value).toBe(pairRecords()[4].content);
    expect(m.bytes).toBe(lineLength(path.join(dir, FULL_FILE), 5));
    expect(m.bytes).toBeLessThan(size / 100);
  });

  it('finds the k-th full record for the k-th compact duplicate, wherever it stands', async () => {
    const entry = await entryOf(store, I.duplicates);
    const records = await recordsOf(I.duplicates);
    const [a, b] = records.filter((r) => r.index === 2);
    expect([a.position, a.occurrence, b.position, b.occurrence]).toEqual([2, 0, 3, 1]);
    expect(await store.fullField(entry, a, 'content')).toBe(DUP_2A);
    expect(await store.fullField(entry, b, 'content')).toBe(DUP_2B);
    // In the full file they sit one line later (an extra first record).
    const twinA = await store.transcripts.fullTwin(entry.realDir, a);
    const twinB = await store.transcripts.fullTwin(entry.realDir, b);
    expect([twinA?.line, twinB?.line]).toEqual(PROBLEM_FACTS.duplicates.fullLines);
    expect(await store.problems(entry)).toEqual([
      {
        code: 'DUPLICATE_STEP_INDEX',
        message: 'step_index 2 already appeared on line 3',
        file: COMPACT_FILE,
        line: 4,
      },
    ]);
  });

  it('joins the full chunks to find the twin of a truncated USER_INPUT', async () => {
    const entry = await entryOf(store, I.chunksOnly);
    const records = await recordsOf(I.chunksOnly);
    expect(records[0].truncatedFields).toEqual(['content']);
    const content = await store.fullField(entry, records[0], 'content');
    expect(content).toBe(chunksOnlyRecords()[0].content);
    expect(content).toContain('@[deep/file.ts]');
  });

  it('returns the compact value and reports MISSING_FULL_RECORD when the twin is corrupt', async () => {
    const entry = await entryOf(store, I.malformed);
    const records = await recordsOf(I.malformed);
    const step4 = byIndex(records, PROBLEM_FACTS.malformed.missingFullRecordStep);
    expect(await store.transcripts.fullTwin(entry.realDir, step4)).toBeNull();
    const value = await store.fullField(entry, step4, 'content');
    expect(value).toBe(step4.content);
    expect(value).not.toBe(MALFORMED_STEP4);
    expect(value).toMatch(/\n<truncated \d+ bytes>\n/);
    const missing = (await store.problems(entry)).filter((p) => p.code === 'MISSING_FULL_RECORD');
    expect(missing).toEqual([
      {
        code: 'MISSING_FULL_RECORD',
        message: 'no full record for step_index 4 (occurrence 1)',
        file: COMPACT_FILE,
        line: 10,
      },
    ]);
    // The 3.0 record finds its (integer) twin.
    const twin3 = await store.transcripts.fullTwin(entry.realDir, byIndex(records, 3));
    expect([twin3?.index, twin3?.content, twin3?.line]).toEqual([3, 'index written as 3.0', 3]);
  });

  it('returns the compact value and reports nothing when there is no full view', async () => {
    const id = 'a704176f-0000-4000-8000-000000000000';
    const entry = await entryOf(store, id);
    const records = await recordsOf(id);
    const r17 = byIndex(records, 17);
    expect(r17.truncatedFields).toEqual(['content']);
    expect(await store.transcripts.fullTwin(entry.realDir, r17)).toBeUndefined();
    const m = await measure(() => store.fullField(entry, r17, 'content'));
    expect(m.value).toBe(r17.content);
    expect(m.opens).toEqual([]);
    expect(await store.problems(entry)).toEqual([]);
  });

  it('uses the record itself when the compact view is the full file', async () => {
    const entry = await entryOf(store, I.fullOnly);
    const [r0] = await recordsOf(I.fullOnly);
    expect(await store.transcripts.fullTwin(entry.realDir, r0)).toBe(r0);
  });
});

describe('twins in hand-made sessions', () => {
  let n = 0;
  const T = (s: number) => at('2026-05-01T00:00:00Z', s);
  const big = (tag: string) => `${tag}\n` + filler(6000, tag);
  function session(compact: string, full: string | null): { store: BrainStore; dir: string } {
    const dir = path.join(work, `hand-${n++}`, 'brain', `sess-${n}`);
    put(path.join(dir, COMPACT_FILE), compact);
    if (full !== null) put(path.join(dir, FULL_FILE), full);
    return {
      store: new BrainStore({ geminiHome: null, brainRoots: [], rescanMs: 3_600_000 }),
      dir,
    };
  }

  it('finds a twin on an unterminated last line of the full file', async () => {
    const rec = planner(0, T(0), { content: big('LAST') });
    const { store: s, dir } = session(jsonl([compactLine(rec)]), fullLine(rec));
    const entry = entryAt(dir);
    const [r] = await s.records(entry);
    expect(r.truncatedFields).toEqual(['content']);
    expect(await s.fullField(entry, r, 'content')).toBe(rec.content);
    expect(await s.problems(entry)).toEqual([]);
  });

  it('counts a twin too long to read as present and reports only the twin that is absent', async () => {
    const a = planner(1, T(0), { content: big('A') });
    const b = planner(2, T(1), { content: big('B') });
    const c = planner(3, T(2), { content: big('C') });
    const { dir } = session(jsonl([compactLine(a), compactLine(b), compactLine(c)]), '');
    // Step 1's full line is over the store's cap, step 2 has no full line, step 3 is whole.
    const longA = fullLine(planner(1, T(0), { content: big('A') + filler(20_000, 'x') }));
    put(path.join(dir, FULL_FILE), jsonl([longA, fullLine(c)]));
    const s = new BrainStore({
      geminiHome: null,
      brainRoots: [],
      rescanMs: 3_600_000,
      maxRecordBytes: 16_000,
    });
    const entry = entryAt(dir);
    expect((await s.problems(entry)).map((p) => [p.code, p.file, p.line])).toEqual([
      ['MISSING_FULL_RECORD', COMPACT_FILE, 2],
      ['LINE_TOO_LONG', FULL_FILE, 1],
    ]);
  });

  it('reports the second compact duplicate missing when the full file has it once', async () => {
    const a = planner(2, T(0), { content: big('A') });
    const b = planner(2, T(1), { content: big('B') });
    const { store: s, dir } = session(
      jsonl([compactLine(a), compactLine(b)]),
      jsonl([fullLine(a)]),
    );
    const entry = entryAt(dir);
    const [ra, rb] = await s.records(entry);
    expect(await s.fullField(entry, ra, 'content')).toBe(a.content);
    expect(await s.fullField(entry, rb, 'content')).toBe(rb.content);
    expect((await s.problems(entry)).map((p) => [p.code, p.line])).toEqual([
      ['DUPLICATE_STEP_INDEX', 2],
      ['MISSING_FULL_RECORD', 2],
    ]);
  });

  it('matches by step_index and occurrence, not by position, when the files disagree', async () => {
    const r0 = planner(0, T(0), { content: big('ZERO') });
    const r1 = planner(1, T(1), { content: big('ONE') });
    const r2 = planner(2, T(2), { content: big('TWO') });
    // The full file is in another order and has extra, odd lines.
    const full = jsonl([
      fullLine(r2),
      '{"step_index":1,"broken',
      '',
      `{"type":"X","step_index":1,"content":"sniffed unknown, parsed"}`,
      fullLine(r0),
      fullLine(r1),
    ]);
    const { store: s, dir } = session(jsonl([r0, r1, r2].map(compactLine)), full);
    const entry = entryAt(dir);
    const [c0, c1, c2] = await s.records(entry);
    expect(await s.fullField(entry, c0, 'content')).toBe(r0.content);
    // The first parseable full record with step_index 1 is the key-reordered one on line 4.
    expect(await s.fullField(entry, c1, 'content')).toBe('sniffed unknown, parsed');
    expect(await s.fullField(entry, c2, 'content')).toBe(r2.content);
    expect((await s.problems(entry)).map((p) => [p.code, p.file, p.line])).toEqual([
      ['MALFORMED_LINE', FULL_FILE, 2],
    ]);
  });
});

describe('a 30 MiB line', () => {
  let bigFx: FixtureHome;
  beforeAll(() => {
    bigFx = buildFixtureHome(makeTempDir('brainql-big-'), { big: true });
  });
  afterAll(() => fs.rmSync(bigFx.dir, { recursive: true, force: true }));

  it('lists the session reading heads only, indexes the line and reads its twin whole', async () => {
    const s = fixtureStore(bigFx);
    const listing = await measure(() => s.refresh());
    const dir = fs.realpathSync(path.join(bigFx.roots.ide, I.bigLine));
    const fullFile = path.join(dir, FULL_FILE);
    const fullSize = fs.statSync(fullFile).size;
    expect(fullSize).toBeGreaterThan(BIG_CONTENT_BYTES);
    // Listing every session of the home reads far less than this one transcript.
    expect(listing.bytes).toBeLessThan(1 << 20);

    const entry = await entryOf(s, I.bigLine);
    const records = await s.records(entry);
    expect(records.map((r) => [r.index, r.truncatedFields])).toEqual([
      [0, []],
      [1, ['content']],
      [2, []],
    ]);
    expect(records[1].content).toMatch(
      new RegExp(`\\n<truncated ${BIG_CONTENT_BYTES - 4096} bytes>\\n`),
    );

    const m = await measure(() => s.fullField(entry, records[1], 'content'));
    const content = m.value as string;
    expect(content.length).toBe(BIG_CONTENT_BYTES);
    const [headM, midM, tailM] = BIG_MARKERS;
    expect(content.startsWith(headM)).toBe(true);
    expect(content.endsWith(tailM)).toBe(true);
    const xs = BIG_CONTENT_BYTES - headM.length - midM.length - tailM.length;
    expect(content.indexOf(midM)).toBe(headM.length + Math.floor(xs / 2));
    // One scan for the index, then the one line.
    const index = await s.transcripts.index(dir, (await s.views(entry)).full!);
    expect(index.count).toBe(3);
    const [start, end] = index.range(1);
    expect(m.bytes).toBe(fullSize + (end - start));
    expect(m.opens).toEqual([FULL_FILE, FULL_FILE]);
    expect(await s.problems(entry)).toEqual([]);
  }, 30_000);
});
