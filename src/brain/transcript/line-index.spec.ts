import { HEAD_BYTES } from './scanner';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildFixtureHome,
  FIXTURE_IDS as I,
  type FixtureHome,
  makeTempDir,
  PAIR_FACTS,
} from '../../../test/fixtures/brain-home';
import { at, fullLine, jsonl, planner } from '../../../test/fixtures/records';
import { chunksOnlyFiles } from '../../../test/fixtures/session-lines';
import { copySession, FULL_FILE, COMPACT_FILE, measure } from '../../../test/store-helpers';
import { LineIndex, SNIFF_EMPTY, SNIFF_UNKNOWN, sniffStepIndex } from './line-index';
import { Transcripts } from './transcript';
import { locateViews, type ViewSource } from './view';

/**
 * The byte-offset index of a view: offsets of complete lines, sniffed step_index per line,
 * one read per line, and growth that scans only appended bytes.
 */

let fx: FixtureHome;
let work: string;
const ide = (id: string): string => fs.realpathSync(path.join(fx.roots.ide, id));

beforeAll(() => {
  fx = buildFixtureHome(makeTempDir('brainql-index-'));
  work = fs.realpathSync(makeTempDir('brainql-index-work-'));
});
afterAll(() => {
  fs.rmSync(fx.dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

/** [start, end) of every newline-terminated line of `bytes`. */
function lineRanges(bytes: Buffer): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
    out.push([start, nl]);
    start = nl + 1;
  }
  return out;
}

async function view(dir: string, which: 'compact' | 'full'): Promise<ViewSource> {
  const v = (await locateViews(dir))[which];
  if (!v) throw new Error(`no ${which} view in ${dir}`);
  return v;
}

describe('sniffStepIndex', () => {
  it.each([
    ['{"step_index":12,"source":"MODEL"}', 12],
    ['{"step_index":0}', 0],
    ['{"step_index":123456789,', 123456789],
    ['', SNIFF_EMPTY],
    ['{"step_index":3.0,"x":1}', SNIFF_UNKNOWN],
    ['{"step_index":"3","x":1}', SNIFF_UNKNOWN],
    ['{"step_index":-1,"x":1}', SNIFF_UNKNOWN],
    ['{"step_index":1e2,"x":1}', SNIFF_UNKNOWN],
    ['{"step_index":1234567890,"x":1}', SNIFF_UNKNOWN],
    ['{"step_index": 1,"x":1}', SNIFF_UNKNOWN],
    ['{"step_index":5', SNIFF_UNKNOWN],
    ['{"source":"MODEL","step_index":1}', SNIFF_UNKNOWN],
    [' {"step_index":1,', SNIFF_UNKNOWN],
    ['   ', SNIFF_UNKNOWN],
    ['[1,2]', SNIFF_UNKNOWN],
  ])('%j -> %d', (head, want) => expect(sniffStepIndex(Buffer.from(head))).toBe(want));
});

describe('LineIndex.build', () => {
  it('indexes every line of a full transcript with its offsets and step_index', async () => {
    const dir = ide(I.pair);
    const bytes = fs.readFileSync(path.join(dir, FULL_FILE));
    const m = await measure(async () => LineIndex.build(dir, await view(dir, 'full')));
    const index = m.value;
    // Building scans the file once, in blocks, opening it once.
    expect([m.bytes, m.opens]).toEqual([bytes.length, [FULL_FILE]]);
    const ranges = lineRanges(bytes);
    expect([index.count, index.committedEnd]).toEqual([16, bytes.length]);
    expect(Array.from({ length: index.count }, (_, i) => index.range(i))).toEqual(ranges);
    expect(Array.from({ length: index.count }, (_, i) => index.sniff(i))).toEqual(
      PAIR_FACTS.stepIndices,
    );
    expect(index.candidates(4)).toEqual([4]);
    expect(index.candidates(6)).toEqual([5]);
    expect(index.candidates(5)).toEqual([]);
    expect(await index.readTail()).toBeNull();
  });

  it('reads one line with one read of exactly its bytes', async () => {
    const dir = ide(I.pair);
    const bytes = fs.readFileSync(path.join(dir, FULL_FILE));
    const index = await LineIndex.build(dir, await view(dir, 'full'));
    const ranges = lineRanges(bytes);
    for (const i of [0, 4, 15]) {
      const m = await measure(() => index.readLine(i));
      const [s, e] = ranges[i];
      expect(m.value.equals(bytes.subarray(s, e))).toBe(true);
      expect([m.bytes, m.opens]).toEqual([e - s, [FULL_FILE]]);
    }
  });

  it('sniffs odd lines as unknown (parsed on demand) and blank lines as empty', async () => {
    const dir = ide(I.malformed);
    const index = await LineIndex.build(dir, await view(dir, 'compact'));
    const sniffs = Array.from({ length: index.count }, (_, i) => index.sniff(i));
    const U = SNIFF_UNKNOWN;
    // lines: rec0, rec1, broken "step_index":2, '', whitespace, [1,2], {"foo":1}, "3", 3.0, rec4, 4.5, rec5
    expect(sniffs).toEqual([0, 1, 2, SNIFF_EMPTY, U, U, U, U, U, 4, U, 5]);
    expect(index.candidates(3)).toEqual([4, 5, 6, 7, 8, 10]);
    expect(index.candidates(4)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(index.candidates(0)).toEqual([0, 4, 5, 6, 7, 8, 10]);
  });

  it('indexes a chunked view across chunk boundaries (lines cut mid-line)', async () => {
    const dir = ide(I.chunksOnly);
    const v = await view(dir, 'full');
    expect(v.segments).toHaveLength(3);
    const { full, fullOffsets } = chunksOnlyFiles();
    const index = await LineIndex.build(dir, v);
    const ranges = lineRanges(full);
    expect(Array.from({ length: index.count }, (_, i) => index.range(i))).toEqual(ranges);
    // Line 0 spans chunks 0 and 1 (cut at byte 3000); line 2 spans chunks 1 and 2.
    expect(ranges[0][0] < fullOffsets[0] && ranges[0][1] > fullOffsets[0]).toBe(true);
    for (let i = 0; i < index.count; i++) {
      const [s, e] = ranges[i];
      expect((await index.readLine(i)).equals(full.subarray(s, e))).toBe(true);
    }
  });

  it('keeps an unfinished last line out of the index and returns it as the tail', async () => {
    const dir = ide(I.partialLast);
    const bytes = fs.readFileSync(path.join(dir, COMPACT_FILE));
    const index = await LineIndex.build(dir, await view(dir, 'compact'));
    expect([index.count, index.committedEnd]).toEqual([8, bytes.lastIndexOf(10) + 1]);
    expect((await index.readTail())?.toString()).toBe('{"step_index":8,"sou');
  });

  it('indexes an empty file as no lines', async () => {
    const dir = ide(I.empty);
    const index = await LineIndex.build(dir, await view(dir, 'compact'));
    expect([index.count, index.committedEnd, await index.readTail()]).toEqual([0, 0, null]);
    expect(index.candidates(0)).toEqual([]);
  });
});

describe('a growing full transcript (through the Transcripts cache)', () => {
  let n = 0;
  const copy = (id: string): string =>
    copySession(path.join(fx.roots.ide, id), path.join(work, `g${n++}`));

  it('extends the same index by scanning only the appended bytes', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, FULL_FILE);
    const t = new Transcripts();
    const first = await t.index(dir, await view(dir, 'full'));
    const oldSize = fs.statSync(file).size;
    const added = jsonl([
      fullLine(planner(17, at('2026-05-28T09:02:00Z'), { content: 'x'.repeat(50_000) })),
      fullLine(planner(18, at('2026-05-28T09:03:00Z'), { content: 'eighteen' })),
    ]);
    fs.appendFileSync(file, added);
    const m = await measure(async () => t.index(dir, await view(dir, 'full')));
    expect(m.value).toBe(first);
    // Besides the new bytes, the head of the last line (48 bytes, what a head scan keeps):
    // still there, so the file grew and was not rewritten in place.
    expect(m.bytes).toBe(Buffer.byteLength(added) + HEAD_BYTES);
    expect([first.count, first.committedEnd]).toEqual([18, oldSize + Buffer.byteLength(added)]);
    expect([first.sniff(16), first.sniff(17)]).toEqual([17, 18]);
    expect(JSON.parse((await first.readLine(17)).toString()).content).toBe('eighteen');
    // No change: no bytes read.
    const again = await measure(async () => t.index(dir, await view(dir, 'full')));
    expect([again.value, again.bytes]).toEqual([first, 0]);
  });

  it('indexes a file rewritten in place with more bytes afresh, not as an append', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, FULL_FILE);
    const t = new Transcripts();
    const first = await t.index(dir, await view(dir, 'full'));
    const size = fs.statSync(file).size;
    const lines = Array.from({ length: 3 }, (_, i) =>
      fullLine(planner(i + 40, at('2026-06-01T00:00:00Z'), { content: 'y'.repeat(size) })),
    );
    fs.writeFileSync(file, jsonl(lines)); // the same inode, more bytes
    const again = await t.index(dir, await view(dir, 'full'));
    expect(again).not.toBe(first);
    expect(again.count).toBe(3);
    expect(JSON.parse((await again.readLine(0)).toString()).step_index).toBe(40);
  });

  it('re-reads an unfinished last line once the file grows, and indexes it when complete', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, FULL_FILE);
    const head = '{"step_index":17,"source":"MODEL","type":"PLANNER_RESP';
    fs.appendFileSync(file, head);
    const t = new Transcripts();
    const index = await t.index(dir, await view(dir, 'full'));
    expect(index.count).toBe(16);
    expect((await index.readTail())?.toString()).toBe(head);
    const rest = 'ONSE","status":"DONE","content":"now complete"}\n';
    fs.appendFileSync(file, rest);
    const m = await measure(async () => t.index(dir, await view(dir, 'full')));
    expect(m.value).toBe(index);
    expect(m.bytes).toBe(head.length + rest.length + HEAD_BYTES);
    expect(index.count).toBe(17);
    expect(index.sniff(16)).toBe(17);
    expect((await index.readLine(16)).toString()).toBe(head + rest.trimEnd());
    expect(await index.readTail()).toBeNull();
  });

  it('serves a snapshot restored in another Transcripts, extending it by the appended bytes', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, FULL_FILE);
    const first = await new Transcripts().index(dir, await view(dir, 'full'));
    const snap = first.snapshot()!;
    // As a database hands them back: copies at odd offsets (not aligned for typed arrays).
    const odd = (b: Buffer) => Buffer.concat([Buffer.alloc(1), b]).subarray(1);
    const t = new Transcripts();
    t.seedIndex(dir, { ...snap, starts: odd(snap.starts), sniffed: odd(snap.sniffed) });
    expect(t.hasIndex(dir, snap.view)).toBe(true);
    const added = jsonl([fullLine(planner(18, at('2026-05-28T09:03:00Z'), { content: 'new' }))]);
    fs.appendFileSync(file, added);
    const m = await measure(async () => t.index(dir, await view(dir, 'full')));
    expect(m.bytes).toBe(Buffer.byteLength(added));
    const index = m.value;
    expect(index.count).toBe(first.count + 1);
    for (let i = 0; i < first.count; i++) {
      expect([i, index.range(i), index.sniff(i)]).toEqual([i, first.range(i), first.sniff(i)]);
    }
    expect(index.sniff(first.count)).toBe(18);
    expect(JSON.parse((await index.readLine(first.count)).toString()).content).toBe('new');
    expect((await t.indexSnapshot(dir, await view(dir, 'full')))!.committedEnd).toBe(
      fs.statSync(file).size,
    );
  });

  it('rebuilds when the file is replaced (new inode) or shrinks in place', async () => {
    const dir = copy(I.pair);
    const file = path.join(dir, FULL_FILE);
    const t = new Transcripts();
    const first = await t.index(dir, await view(dir, 'full'));
    const replacement = jsonl([
      fullLine(planner(40, at('2026-05-28T10:00:00Z'), { content: 'r' })),
    ]);
    fs.writeFileSync(`${file}.new`, replacement);
    fs.renameSync(`${file}.new`, file);
    const m = await measure(async () => t.index(dir, await view(dir, 'full')));
    expect(m.value).not.toBe(first);
    expect(m.bytes).toBe(Buffer.byteLength(replacement));
    expect([m.value.count, m.value.sniff(0)]).toEqual([1, 40]);
    fs.truncateSync(file, 10);
    const shrunk = await t.index(dir, await view(dir, 'full'));
    expect(shrunk).not.toBe(m.value);
    expect([shrunk.count, (await shrunk.readTail())?.toString()]).toEqual([
      0,
      replacement.slice(0, 10),
    ]);
  });
});
