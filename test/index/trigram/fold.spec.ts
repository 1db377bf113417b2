import { fold, foldCodePoint } from '../../../src/index/trigram/fold';

/** Every code point that upper- or lowercasing changes, and what they change into. */
function casedCodePoints(): number[] {
  const set = new Set<number>();
  for (let cp = 0x41; cp <= 0x7a; cp++) set.add(cp);
  for (let cp = 0x80; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    const upper = c.toUpperCase();
    const lower = c.toLowerCase();
    if (upper === c && lower === c) continue;
    set.add(cp);
    for (const s of [upper, lower]) for (const x of s) set.add(x.codePointAt(0) as number);
  }
  return [...set];
}

const escape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

describe('fold', () => {
  const cased = casedCodePoints();
  const joined = cased.map((c) => String.fromCodePoint(c)).join('');

  it('folds every pair of characters /x/iu takes as equal onto one', () => {
    const apart: string[] = [];
    for (const cp of cased) {
      for (const m of joined.matchAll(new RegExp(escape(String.fromCodePoint(cp)), 'giu'))) {
        const other = m[0].codePointAt(0) as number;
        if (foldCodePoint(other) !== foldCodePoint(cp))
          apart.push(`${cp.toString(16)}~${other.toString(16)}`);
      }
    }
    expect(apart).toEqual([]);
  });

  it('never folds a character onto one /x/iu tells apart, and folding twice changes nothing', () => {
    const wrong = cased.filter((cp) => {
      const f = foldCodePoint(cp);
      const re = new RegExp(`^${escape(String.fromCodePoint(f))}$`, 'iu');
      return !re.test(String.fromCodePoint(cp)) || foldCodePoint(f) !== f;
    });
    expect(wrong).toEqual([]);
  });

  it('keeps the number of code points and the characters that have no fold', () => {
    expect(fold('ÉCOLE école İstanbul ıi ẞß ΣΑΣ K')).toBe('école école İstanbul ıi ßß σασ k');
    expect([...fold('İİİ')].length).toBe(3);
    expect(fold('a\ud800B')).toBe('a\ud800b');
    expect(fold('🚀ROCKET')).toBe('🚀rocket');
  });
});
