import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../../test/fixtures/brain-home';
import { put } from '../../../test/fixtures/fs-util';
import { chunkEdges, chunkPlaceOf, type ChunkPlace } from './chunk-edges';

/** Which chunk of which view a file is, and the lines it shares with its neighbours. */

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(makeTempDir('brainql-edges-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const FULL = '.system_generated/logs/chunks/transcript_full';
const COMPACT = '.system_generated/logs/chunks/transcript';
function chunks(folder: string, texts: string[]): void {
  texts.forEach((t, i) => put(path.join(dir, folder, `00${i}.jsonl`), t));
}
function placeOf(rel: string): ChunkPlace | null {
  const { dev, ino } = fs.statSync(path.join(dir, rel));
  return chunkPlaceOf(dir, { dev, ino });
}
async function edges(rel: string, max?: number) {
  const place = placeOf(rel) as ChunkPlace;
  const size = fs.statSync(path.join(dir, rel)).size;
  const e = await chunkEdges(dir, place, size, max);
  const show = (x: typeof e.head) => x && { ...x, line: x.line?.toString('utf8') ?? null };
  return { head: show(e.head), tail: show(e.tail), continues: e.continues };
}

describe('chunkPlaceOf', () => {
  it('finds a chunk by identity, under another name too, and its view offset', () => {
    chunks(FULL, ['ab\n', 'cd', 'e\n']);
    fs.linkSync(path.join(dir, FULL, '001.jsonl'), path.join(dir, 'copy.jsonl'));
    const p = placeOf('copy.jsonl');
    expect(p && [p.view.label, p.index, p.base]).toEqual([FULL, 1, 3]);
    put(path.join(dir, 'other.jsonl'), 'cd');
    expect(placeOf('other.jsonl')).toBeNull();
  });

  it('finds chunks shadowed by a transcript file of their kind', () => {
    put(path.join(dir, '.system_generated/logs/transcript.jsonl'), '{}\n');
    chunks(COMPACT, ['a', 'b\n']);
    expect(placeOf(`${COMPACT}/001.jsonl`)?.view.kind).toBe('compact');
  });
});

describe('chunkEdges', () => {
  it('reads the lines crossing each edge whole', async () => {
    chunks(FULL, ['L1\nab', 'cd\nef', 'gh\nij']);
    expect(await edges(`${FULL}/000.jsonl`)).toEqual({
      head: null,
      tail: { from: 3, to: 5, line: 'abcd\n', at: 0, open: false },
      continues: true,
    });
    expect(await edges(`${FULL}/001.jsonl`)).toEqual({
      head: { from: 0, to: 3, line: 'abcd\n', at: 2, open: false },
      tail: { from: 3, to: 5, line: 'efgh\n', at: 0, open: false },
      continues: true,
    });
    // The last chunk's unfinished line is not said to continue.
    expect((await edges(`${FULL}/002.jsonl`)).continues).toBe(false);
  });

  it('takes a chunk without a newline as all head, its line read on both sides', async () => {
    chunks(FULL, ['x\nab', 'cd', 'ef\n']);
    expect(await edges(`${FULL}/001.jsonl`)).toEqual({
      head: { from: 0, to: 2, line: 'abcdef\n', at: 2, open: false },
      tail: null,
      continues: true,
    });
  });

  it("does not call a line that runs to the view's end complete", async () => {
    chunks(FULL, ['x\nab', 'cd', '']);
    const e = await edges(`${FULL}/001.jsonl`);
    expect([e.head?.open, e.continues]).toEqual([true, false]);
  });

  it('leaves a line longer than the bound unread (unchecked)', async () => {
    chunks(FULL, [`x\n${'a'.repeat(20)}`, 'bb\n']);
    expect((await edges(`${FULL}/001.jsonl`, 10)).head).toEqual({
      from: 0,
      to: 3,
      line: null,
      at: 0,
      open: false,
    });
    expect((await edges(`${FULL}/001.jsonl`, 30)).head?.line).toBe(`${'a'.repeat(20)}bb\n`);
  });
});
