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
 * A character and the marks after it: one cluster, composed on its own. At most 8 marks: a
 * word needs 2 or 3 per letter, and NFC of a long run out of canonical order is quadratic
 * (review r14: `a` + 1 MB of U+0301/U+0323 blocked for minutes); a longer cluster is left as is.
 */
// eslint-disable-next-line no-misleading-character-class -- a character, then its marks
const CLUSTER = new RegExp(`[^${MARKS}][${MARKS}]{1,8}(?![${MARKS}])`, 'g');

/**
 * `text` composed (NFC) cluster by cluster, and `toRaw` mapping spans found in it back onto
 * `text`: a span that starts or ends inside a composed cluster covers the whole cluster, so
 * a mask covers the decomposed characters exactly. Null when nothing composes.
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
    const c = m[0].normalize('NFC');
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
