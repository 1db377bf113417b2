import type { Span } from './detector';

/**
 * Combining marks a secret word is written with when the text is decomposed (NFD, as macOS
 * file names and some editors store it): accents (`jelszó`, `contraseña`, `şifre`, `mật
 * khẩu`), the kana voicing marks (`パスワード`) and the Hangul vowels and finals (`비밀번호`
 * as jamo). The detectors' key words are written composed (NFC).
 */
const MARKS = '\\u0300-\\u036f\\u1161-\\u1175\\u11a8-\\u11c2\\u3099\\u309a';
// eslint-disable-next-line no-misleading-character-class -- the marks alone are what it looks for
export const MARK = new RegExp(`[${MARKS}]`);
/**
 * Other spellings of a secret word the detectors' words miss (review r15 L2): zero-width
 * characters inside or beside it (`pass\u200bword`), dropped; the dotted capital I (`ŞİFRE`:
 * no case-insensitive match takes it for `i`), read as `I`; half-width katakana (`ﾊﾟｽﾜｰﾄﾞ`),
 * read as NFKC folds them (`パスワード`).
 */
const ZERO_WIDTH = '\\u200b-\\u200d\\u2060\\ufeff';
/**
 * The soft hyphen too (review r16 L: `pass\u00adword: V`, invisible where it is not at a
 * line's end), dropped as those are; apart from COMPOSES, which holds characters above U+00FF
 * only (the redactor's one-class test, ruled out at once in a one-byte string), so looked for
 * with includes.
 */
export const SOFT_HYPHEN = '\u00ad';
const DROPPED = `\\u00ad${ZERO_WIDTH}`;
// Full-width Latin letters, read as NFKC folds them (review r16 L: `ｐassword`, mixed with
// ASCII; `ｐａｓｓｗｏｒｄ` whole is a key word of ./keys too). Letters only: full-width
// punctuation (`：`, `（`) is everywhere in Chinese and Japanese text.
const HALF_WIDTH = '\\uff61-\\uff9f\\uff21-\\uff3a\\uff41-\\uff5a';
const FOLDED = `\\u0130${ZERO_WIDTH}${HALF_WIDTH}`;
/** What composed() changes: a mark (MARK) or a character FOLDED names. */
// eslint-disable-next-line no-misleading-character-class -- the marks alone are what it looks for
export const COMPOSES = new RegExp(`[${MARKS}${FOLDED}]`);
/**
 * A character and the marks after it: one cluster, composed on its own. At most 8 marks: a
 * word needs 2 or 3 per letter, and NFC of a long run out of canonical order is quadratic
 * (review r14: `a` + 1 MB of U+0301/U+0323 blocked for minutes); a longer cluster is left as is.
 * Or a run of zero-width or half-width characters, or a dotted capital I (FOLDED).
 */
const CLUSTER = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- a character, then its marks
  `[^${MARKS}][${MARKS}]{1,8}(?![${MARKS}])|[${DROPPED}]+|[${HALF_WIDTH}]+|\\u0130+`,
  'g',
);
const IS_ZERO_WIDTH = new RegExp(`^[${DROPPED}]`);
const IS_HALF_WIDTH = new RegExp(`^[${HALF_WIDTH}]`);
const CGJ = /\u034f/g;

/** A CLUSTER match as the detectors read it. */
function fold(m: string): string {
  if (m.charCodeAt(0) === 0x130) return 'I'.repeat(m.length);
  if (IS_ZERO_WIDTH.test(m)) return '';
  // NFKC is linear on such a run: no marks to order, only a voicing mark to join. The
  // combining grapheme joiner (U+034F) is a mark that joins nothing: dropped (review r16 L:
  // `pass\u034fword: V`).
  if (IS_HALF_WIDTH.test(m)) return m.normalize('NFKC');
  return (m.includes('\u034f') ? m.replace(CGJ, '') : m).normalize('NFC');
}

/**
 * `text` composed (NFC) cluster by cluster, with the spellings FOLDED names folded, and
 * `toRaw` mapping spans found in it back onto `text`: a span that starts or ends inside a
 * composed cluster covers the whole cluster, so a mask covers the decomposed characters
 * exactly. Null when nothing composes.
 */
export function composed(
  text: string,
): { text: string; toRaw: (spans: readonly Span[]) => Span[] } | null {
  const parts: string[] = [];
  // For each cluster that changed: its offset in the composed text and in `text`, and lengths.
  const at: number[] = [];
  const raw: number[] = [];
  const len: number[] = [];
  const rawLen: number[] = [];
  let pos = 0;
  let shift = 0;
  CLUSTER.lastIndex = 0;
  for (let m = CLUSTER.exec(text); m !== null; m = CLUSTER.exec(text)) {
    const c = fold(m[0]);
    if (c === m[0]) continue;
    parts.push(text.slice(pos, m.index), c);
    at.push(m.index - shift);
    raw.push(m.index);
    len.push(c.length);
    rawLen.push(m[0].length);
    shift += m[0].length - c.length;
    pos = m.index + m[0].length;
  }
  if (at.length === 0) return null;
  parts.push(text.slice(pos));
  /** The last changed cluster starting at or before p (strictly before when `after`), or -1. */
  const find = (p: number, after: boolean): number => {
    let lo = 0;
    let hi = at.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (after ? at[mid] < p : at[mid] <= p) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  };
  const map = (p: number, end: boolean): number => {
    const k = find(p, end);
    if (k < 0) return p;
    if (p < at[k] + len[k]) return end ? raw[k] + rawLen[k] : raw[k];
    return raw[k] + rawLen[k] + (p - at[k] - len[k]);
  };
  return {
    text: parts.join(''),
    toRaw: (spans) =>
      spans.map((s) => ({ start: map(s.start, false), end: map(s.end, true), kind: s.kind })),
  };
}
