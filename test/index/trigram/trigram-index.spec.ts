import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TrigramIndex } from '../../../src/index/trigram/trigram-index';

/** The answer by brute force: every text where /term/iu matches every term, overlapping counts. */
function scan(texts: Map<number, string>, terms: string[]): [number, number[]][] {
  const out: [number, number[]][] = [];
  for (const [id, text] of [...texts].sort((a, b) => a[0] - b[0])) {
    const counts = terms.map((t) => {
      const re = new RegExp(`(?=${t.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')})`, 'giu');
      let n = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        n++;
        re.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      }
      return n;
    });
    if (counts.every((n) => n > 0)) out.push([id, counts]);
  }
  return out;
}

function answer(index: TrigramIndex, terms: string[]): [number, number[]][] {
  return index
    .match(terms)
    .map((m): [number, number[]] => [m.id, m.counts])
    .sort((a, b) => a[0] - b[0]);
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigram-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function open(_texts: Map<number, string>, options: { segmentBytes?: number } = {}) {
  return new TrigramIndex(dir, options);
}

describe('TrigramIndex', () => {
  it('finds case-folded substrings across segments, counts overlaps, forgets deleted texts', async () => {
    const texts = new Map([
      [1, 'The Quick brown fox'],
      [2, 'quickquick QUICK'],
      [3, 'aaaa École'],
      [4, 'nothing here'],
    ]);
    const index = open(texts);
    index.add(1, texts.get(1) as string);
    index.add(2, texts.get(2) as string);
    await index.flush();
    index.add(3, texts.get(3) as string);
    index.add(4, texts.get(4) as string);
    await index.flush();
    expect(index.census()).toEqual({ segments: 2, texts: 4, dead: 0 });
    expect(answer(index, ['QUICK'])).toEqual([
      [1, [1]],
      [2, [3]],
    ]);
    expect(answer(index, ['aaa'])).toEqual([[3, [2]]]);
    expect(answer(index, ['éCOLE', 'aaaa'])).toEqual([[3, [1, 1]]]);
    expect(answer(index, ['quick', 'fox'])).toEqual([[1, [1, 1]]]);
    expect(index.totals()).toEqual({ texts: 4, tokens: 17 + 14 + 8 + 10 });
    index.delete(2);
    expect(answer(index, ['quick'])).toEqual([[1, [1]]]);
    expect(index.totals()).toEqual({ texts: 3, tokens: 17 + 8 + 10 });
    await index.close();
  });

  it('reopens from the manifest with its deletions; a merge drops the dead texts', async () => {
    const texts = new Map([1, 2, 3, 4, 5, 6].map((n) => [n, `text number ${n} shared`]));
    const first = open(texts);
    for (const [id, t] of texts) {
      first.add(id, t);
      if (id % 2 === 0) await first.flush();
    }
    first.delete(3);
    await first.flush();
    await first.close();
    fs.writeFileSync(path.join(dir, 'seg-00000099.tri.tmp'), 'a crash left this');
    const again = open(texts);
    expect(fs.existsSync(path.join(dir, 'seg-00000099.tri.tmp'))).toBe(false);
    expect(again.census()).toEqual({ segments: 3, texts: 6, dead: 1 });
    expect(answer(again, ['SHARED']).map(([id]) => id)).toEqual([1, 2, 4, 5, 6]);
    await again.merge();
    expect(again.census()).toEqual({ segments: 1, texts: 5, dead: 0 });
    expect(fs.readdirSync(dir).sort()).toEqual(['manifest.json', 'seg-00000004.tri']);
    expect(answer(again, ['number 5'])).toEqual([[5, [1]]]);
    await again.close();
  });

  it('verifies texts with a lone surrogate on the text as written', async () => {
    const texts = new Map([
      [1, 'x\ud800yz'],
      [2, 'x\ufffdyz'],
    ]);
    const index = open(texts);
    for (const [id, t] of texts) index.add(id, t);
    await index.flush();
    expect(answer(index, ['x\ud800y'])).toEqual([[1, [1]]]);
    expect(answer(index, ['x\ufffdy'])).toEqual([[2, [1]]]);
    await index.close();
  });

  // Characters chosen so that case variants, non-ASCII folds, multi-byte trigrams and quotes
  // meet in short texts (terms then hit often enough to test something).
  const alphabet = fc.constantFrom(...'aAbB "ßẞσΣςİıiIkK\u212aéÉ🚀\ud800ΐΐ'.split(''), 'ΐ', '🚀');
  // Runs of one character or two make overlapping occurrences ("aaaa" holds "aaa" twice).
  const piece = fc.oneof(
    alphabet,
    fc
      .tuple(fc.array(alphabet, { minLength: 1, maxLength: 2 }), fc.integer({ min: 2, max: 4 }))
      .map(([unit, times]) => unit.join('').repeat(times)),
  );
  const text = fc.array(piece, { maxLength: 16 }).map((a) => a.join(''));

  it('agrees with a brute-force scan on every hit and count', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(40), fc.integer({ min: 3, max: 6 })), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(
          fc.array(alphabet, { minLength: 3, maxLength: 5 }).map((a) => a.join('')),
          {
            maxLength: 2,
          },
        ),
        async (all, deletions, cuts, invented) => {
          fs.rmSync(dir, { recursive: true, force: true });
          const texts = new Map(all.map((t, i) => [i + 1, t]));
          const index = open(texts);
          for (const [id, t] of texts) {
            index.add(id, t);
            if (id % 7 === 0) await index.flush();
          }
          await index.flush();
          for (const d of deletions) {
            const id = (d % all.length) + 1;
            index.delete(id);
            texts.delete(id);
          }
          if (deletions.length % 2 === 1) await index.merge();
          // Terms cut out of the texts (so they hit, across trigram and character boundaries)
          // in another case, and terms made up.
          const terms = cuts.map(([which, at, len]) => {
            const source = [...all[which % all.length]];
            const cut = source.slice(
              at % Math.max(1, source.length),
              (at % Math.max(1, source.length)) + len,
            );
            const term = cut.join('');
            return [...term].length >= 3 ? (at % 2 ? term.toUpperCase() : term) : 'aab';
          });
          const queries = [...terms.map((t) => [t]), terms, ...invented.map((t) => [t])];
          for (const query of queries) {
            expect(answer(index, query)).toEqual(scan(texts, query));
          }
          // Asked again with the terms' hits cached: after a deletion, then after a merge.
          const [gone] = texts.keys();
          if (gone !== undefined) {
            index.delete(gone);
            texts.delete(gone);
          }
          for (const query of queries) {
            expect(answer(index, query)).toEqual(scan(texts, query));
          }
          await index.merge();
          for (const query of queries) {
            expect(answer(index, query)).toEqual(scan(texts, query));
            expect(index.documents(query[0])).toBe(scan(texts, [query[0]]).length);
          }
          await index.close();
        },
      ),
      { numRuns: 150, endOnFailure: true },
    );
  });
});
