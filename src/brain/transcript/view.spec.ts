import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../../../test/fixtures/brain-home';
import { put } from '../../../test/fixtures/fs-util';
import { COMPACT_FILE, FULL_FILE } from '../../../test/store-helpers';
import { isAppendOnly, locateViews, sameView, type ViewSource } from './view';

/** Which files make up the compact and full views, and when a view only grew. */

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(makeTempDir('brainql-view-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const CHUNKS = '.system_generated/logs/chunks';
const write = (rel: string, text = '{}\n'): void => put(path.join(dir, rel), text);
const shape = (v: ViewSource | null) =>
  v && {
    kind: v.kind,
    label: v.label,
    files: v.segments.map((s) => [s.relPath, s.version.size]),
    size: v.size,
  };

describe('locateViews', () => {
  it('uses the two transcript files', async () => {
    write(COMPACT_FILE, 'ab\n');
    write(FULL_FILE, 'abcd\n');
    const v = await locateViews(dir);
    expect([shape(v.compact), shape(v.full), v.problems]).toEqual([
      { kind: 'compact', label: COMPACT_FILE, files: [[COMPACT_FILE, 3]], size: 3 },
      { kind: 'full', label: FULL_FILE, files: [[FULL_FILE, 5]], size: 5 },
      [],
    ]);
  });

  it('joins chunks in name order, ignoring names that are not chunks', async () => {
    write(`${CHUNKS}/transcript/00000010.jsonl`, 'c');
    write(`${CHUNKS}/transcript/00000002.jsonl`, 'bb');
    write(`${CHUNKS}/transcript/00000001.jsonl`, 'aaa');
    write(`${CHUNKS}/transcript/README.md`, 'no');
    write(`${CHUNKS}/transcript/1.jsonl.tmp`, 'no');
    write(`${CHUNKS}/transcript_full/00000000.jsonl`, 'full');
    const v = await locateViews(dir);
    expect(shape(v.compact)).toEqual({
      kind: 'compact',
      label: `${CHUNKS}/transcript`,
      files: [
        [`${CHUNKS}/transcript/00000001.jsonl`, 3],
        [`${CHUNKS}/transcript/00000002.jsonl`, 2],
        [`${CHUNKS}/transcript/00000010.jsonl`, 1],
      ],
      size: 6,
    });
    expect(shape(v.full)).toEqual({
      kind: 'full',
      label: `${CHUNKS}/transcript_full`,
      files: [[`${CHUNKS}/transcript_full/00000000.jsonl`, 4]],
      size: 4,
    });
  });

  it('orders chunk names by their number, so names without padding join as written', async () => {
    for (const n of [0, 1, 2, 9, 10, 11])
      write(`${CHUNKS}/transcript/${n}.jsonl`, 'x'.repeat(n + 1));
    const v = await locateViews(dir);
    expect(shape(v.compact)?.files).toEqual(
      [0, 1, 2, 9, 10, 11].map((n) => [`${CHUNKS}/transcript/${n}.jsonl`, n + 1]),
    );
  });

  it('lets a file win over chunks of the same kind', async () => {
    write(COMPACT_FILE, 'file\n');
    write(`${CHUNKS}/transcript/00000000.jsonl`, 'chunk\n');
    write(`${CHUNKS}/transcript_full/00000000.jsonl`, 'full chunk\n');
    const v = await locateViews(dir);
    expect([v.compact?.label, v.full?.label]).toEqual([COMPACT_FILE, `${CHUNKS}/transcript_full`]);
    write(FULL_FILE, 'full file\n');
    expect((await locateViews(dir)).full?.label).toBe(FULL_FILE);
  });

  it('shows the full view when there is no compact one', async () => {
    write(FULL_FILE, 'x\n');
    const v = await locateViews(dir);
    expect(v.compact).toBe(v.full);
    expect(v.compact?.kind).toBe('full');
  });

  it('finds nothing without transcripts or with an empty chunk folder', async () => {
    expect(await locateViews(dir)).toEqual({ compact: null, full: null, problems: [] });
    fs.mkdirSync(path.join(dir, CHUNKS, 'transcript'), { recursive: true });
    write(`${CHUNKS}/transcript/notes.txt`, 'x');
    expect(await locateViews(dir)).toEqual({ compact: null, full: null, problems: [] });
    expect(await locateViews(path.join(dir, 'missing'))).toEqual({
      compact: null,
      full: null,
      problems: [],
    });
  });

  it('skips a transcript path that is a directory', async () => {
    fs.mkdirSync(path.join(dir, COMPACT_FILE), { recursive: true });
    write(FULL_FILE, 'x\n');
    const v = await locateViews(dir);
    expect([v.compact?.label, v.full?.label, v.problems]).toEqual([FULL_FILE, FULL_FILE, []]);
  });

  it('reports a transcript or chunk that leads outside the session', async () => {
    const outside = fs.realpathSync(makeTempDir('brainql-view-out-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.jsonl'), '{"step_index":0}\n');
      fs.mkdirSync(path.join(dir, '.system_generated/logs'), { recursive: true });
      fs.symlinkSync(path.join(outside, 'secret.jsonl'), path.join(dir, COMPACT_FILE));
      write(`${CHUNKS}/transcript_full/00000000.jsonl`, 'ok\n');
      fs.symlinkSync(
        path.join(outside, 'secret.jsonl'),
        path.join(dir, `${CHUNKS}/transcript_full/00000001.jsonl`),
      );
      const v = await locateViews(dir);
      expect(v.compact?.label).toBe(`${CHUNKS}/transcript_full`);
      expect(v.full?.segments.map((s) => s.relPath)).toEqual([
        `${CHUNKS}/transcript_full/00000000.jsonl`,
      ]);
      expect(v.problems.map((p) => [p.code, p.file])).toEqual([
        ['UNSAFE_PATH', COMPACT_FILE],
        ['UNSAFE_PATH', `${CHUNKS}/transcript_full/00000001.jsonl`],
      ]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('isAppendOnly and sameView', () => {
  const views = async () => (await locateViews(dir)).compact as ViewSource;

  it('accepts growth of the last file in place and refuses anything else', async () => {
    write(COMPACT_FILE, 'one\n');
    const a = await views();
    expect([isAppendOnly(a, a), sameView(a, a)]).toEqual([true, true]);
    fs.appendFileSync(path.join(dir, COMPACT_FILE), 'two\n');
    const b = await views();
    expect([isAppendOnly(a, b), sameView(a, b), isAppendOnly(b, a)]).toEqual([true, false, false]);
    fs.truncateSync(path.join(dir, COMPACT_FILE), 2);
    const c = await views();
    expect(isAppendOnly(b, c)).toBe(false);
    fs.writeFileSync(path.join(dir, 'new'), 'one\ntwo\nthree\n');
    fs.renameSync(path.join(dir, 'new'), path.join(dir, COMPACT_FILE));
    expect(isAppendOnly(b, await views())).toBe(false);
  });

  it('accepts new chunks after unchanged ones, not a change to an earlier chunk', async () => {
    write(`${CHUNKS}/transcript/00000000.jsonl`, 'aaa');
    write(`${CHUNKS}/transcript/00000001.jsonl`, 'bb');
    const a = await views();
    fs.appendFileSync(path.join(dir, `${CHUNKS}/transcript/00000001.jsonl`), 'b\n');
    write(`${CHUNKS}/transcript/00000002.jsonl`, 'c\n');
    const b = await views();
    expect([isAppendOnly(a, b), sameView(a, b)]).toEqual([true, false]);
    fs.appendFileSync(path.join(dir, `${CHUNKS}/transcript/00000000.jsonl`), 'a');
    expect(isAppendOnly(b, await views())).toBe(false);
    // A compact file appearing changes the label: not an append.
    write(COMPACT_FILE, 'aaabb\nc\n');
    expect(isAppendOnly(b, await views())).toBe(false);
  });
});
