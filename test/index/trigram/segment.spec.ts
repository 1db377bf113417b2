import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSegment, mergeSegments } from '../../../src/index/trigram/segment-builder';
import { Segment } from '../../../src/index/trigram/segment';

/** A trigram's key: its three folded UTF-8 bytes, big-endian. */
const key = (t: string) => {
  const b = Buffer.from(t, 'utf8');
  return (b[0] << 16) | (b[1] << 8) | b[2];
};

describe('a segment file', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-segment-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // 20,000 texts: numbers up to 19,999, so deltas of one, two and three varint bytes.
  const texts = Array.from({ length: 20_000 }, (_, i) => ({
    id: 10 * i + 7,
    text:
      (i % 2 === 0 ? 'Abc ' : 'xyz ') +
      (i % 150 === 0 ? 'RARE ' : '') +
      (i === 19_999 ? 'ÉCOLE école' : '') +
      (i === 3 ? 'ab' : ''),
  }));

  it('lists, per trigram, exactly the texts holding it (each once, ascending), twice in a row', () => {
    for (const name of ['a.tri', 'b.tri']) {
      buildSegment([...texts].reverse(), path.join(dir, name));
      const s = Segment.open(path.join(dir, name));
      try {
        expect(s.count).toBe(20_000);
        expect(s.ids[0]).toBe(7);
        expect(s.ids[19_999]).toBe(199_997);
        const even = Array.from({ length: 10_000 }, (_, k) => 2 * k);
        expect([...s.postings(key('abc'))]).toEqual(even);
        expect([...s.postings(key('xyz'))]).toEqual(even.map((k) => k + 1));
        expect([...s.postings(key('rar'))]).toEqual(Array.from({ length: 134 }, (_, k) => 150 * k));
        // "école" twice in one text: listed once.
        expect([...s.postings(key('éco'))]).toEqual([19_999]);
        expect(s.size(key('qqq'))).toBe(0);
      } finally {
        s.close();
      }
    }
    // The second segment is the first byte for byte: nothing of the first stayed in the tables.
    expect(fs.readFileSync(path.join(dir, 'b.tri'))).toEqual(
      fs.readFileSync(path.join(dir, 'a.tri')),
    );
  });

  it('a merge keeps the kept texts and renumbers their postings', () => {
    buildSegment(texts.slice(0, 300), path.join(dir, 'a.tri'));
    buildSegment(texts.slice(300, 600), path.join(dir, 'b.tri'));
    const keep = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => from + k).filter((n) => n % 3 !== 1);
    mergeSegments(
      [
        { file: path.join(dir, 'a.tri'), keep: keep(0, 300) },
        { file: path.join(dir, 'b.tri'), keep: keep(0, 300) },
      ],
      path.join(dir, 'm.tri'),
    );
    const s = Segment.open(path.join(dir, 'm.tri'));
    try {
      expect(s.count).toBe(400);
      // Kept: texts 0, 2, 3, 5, … of each (200 a segment); "RARE" is in their texts 0 and 150,
      // 100 kept texts apart.
      expect([...s.postings(key('rar'))]).toEqual([0, 100, 200, 300]);
      expect([...s.ids.subarray(0, 3)]).toEqual([7, 27, 37]);
      expect([...s.ids.subarray(200, 202)]).toEqual([3007, 3027]);
      expect(s.postings(key('abc')).length).toBe(200);
    } finally {
      s.close();
    }
  });
});
