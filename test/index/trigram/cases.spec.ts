import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { asciiCaseBytes, caseBytes, restore } from '../../../src/index/trigram/cases';
import { fold } from '../../../src/index/trigram/fold';
import { Segment } from '../../../src/index/trigram/segment';
import { buildSegment, mergeSegments } from '../../../src/index/trigram/segment-builder';

/**
 * A segment holds each text once, folded, with the case bytes that give it back as written
 * (cases.ts): every text must come back exactly, whatever its characters.
 */

const back = (text: string) => {
  const folded = fold(text);
  return restore(Buffer.from(folded, 'utf8'), caseBytes(text, folded));
};

/** Characters that fold, that fold across widths, lone surrogates, and plain ones. */
const ALPHABET = [
  ...'aZbYQ09 -_."\n',
  'É',
  'é',
  'İ',
  'ı',
  'ß',
  'ẞ',
  'K', // Kelvin sign: folds onto ASCII k
  'ſ', // long s: folds onto ASCII s
  'Σ',
  'ς',
  'ΐ',
  'ﬆ',
  '🚀',
  '𐐀', // Deseret capital: an astral letter with a lower case
  '\ud800', // lone surrogates, high and low
  '\udc00',
  '\ufffd',
];

/** A small seeded generator: the failing case can be run again. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('case bytes', () => {
  it('give every text back exactly from its fold (2,000 random texts)', () => {
    const r = rng(22);
    for (let k = 0; k < 2000; k++) {
      const n = Math.floor(r() * 40);
      let text = '';
      for (let i = 0; i < n; i++) {
        // Runs of capitals too: the run encoding.
        const c = ALPHABET[Math.floor(r() * ALPHABET.length)];
        text += r() < 0.2 ? c.repeat(1 + Math.floor(r() * 5)) : c;
      }
      expect([text, back(text)]).toEqual([text, text]);
    }
  });

  it('are empty for folded text, a byte for a capital, two for a run of them', () => {
    expect(caseBytes('plain text', 'plain text').length).toBe(0);
    expect([...caseBytes('a B', 'a b')]).toEqual([2 * 4 + 0]);
    expect([...caseBytes('README', 'readme')]).toEqual([0 * 4 + 1, 6 - 2]);
    for (const t of ['README.md says Hello', 'x'.repeat(300) + 'Y', 'ÉCOLE école KELVIN']) {
      expect(back(t)).toBe(t);
    }
  });

  it('of an ASCII text are the same bytes by the fast path (2,000 random texts)', () => {
    const r = rng(8);
    const ascii = [...'aZbYQ09 -_."\nMx', 'x'.repeat(200)];
    for (let k = 0; k < 2000; k++) {
      const n = Math.floor(r() * 60);
      let text = '';
      for (let i = 0; i < n; i++) {
        const c = ascii[Math.floor(r() * ascii.length)];
        text += r() < 0.2 ? c.toUpperCase().repeat(1 + Math.floor(r() * 5)) : c;
      }
      expect([text, [...asciiCaseBytes(text)]]).toEqual([text, [...caseBytes(text, fold(text))]]);
    }
  });

  it('travel with their texts through a segment and a merge', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-cases-'));
    try {
      // A lone surrogate in lower-case text: folded, the text is itself, but UTF-8 lost it.
      const written = ['Hello World', 'plain \udc00 lone', 'ÉCOLE \ud800 K', 'SELECT * FROM x'];
      const texts = written.map((text, i) => ({ id: i + 1, text }));
      buildSegment(texts.slice(0, 2), path.join(dir, 'a.tri'));
      buildSegment(texts.slice(2), path.join(dir, 'b.tri'));
      const check = (file: string, want: typeof texts) => {
        const s = Segment.open(file);
        try {
          expect(want.map((t) => s.original(s.find(t.id)))).toEqual(want.map((t) => t.text));
        } finally {
          s.close();
        }
      };
      check(path.join(dir, 'a.tri'), texts.slice(0, 2));
      check(path.join(dir, 'b.tri'), texts.slice(2));
      mergeSegments(
        [
          { file: path.join(dir, 'a.tri'), keep: [0] },
          { file: path.join(dir, 'b.tri'), keep: [0, 1] },
        ],
        path.join(dir, 'm.tri'),
      );
      check(path.join(dir, 'm.tri'), [texts[0], texts[2], texts[3]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
