/**
 * The trigram index's case folding. Search matches a term where the JavaScript regular
 * expression `/term/iu` matches (the same test as matchCount, snippets and highlights), so the
 * index must fold every character onto one representative of its `iu` class: two characters
 * the expression takes as equal fold to the same one, and a character never folds onto one the
 * expression tells apart (`ı` stays `ı`, it is not `i` under `iu`). The fold maps one code point
 * to one code point, so a match in the folded text is a match in the original at the same
 * code point offsets, and folded UTF-8 can be searched byte by byte.
 *
 * Lone surrogates have no UTF-8 form (they become U+FFFD): a text holding one is marked so that
 * its matches are verified with the expression itself (see needsRegex).
 */

/**
 * Characters `iu` takes as equal that neither upper- nor lowercases into the other (Unicode's
 * case folding maps them onto one): fold.spec checks every cased character, so a Unicode
 * update that adds such a pair fails there.
 */
const SIBLINGS = new Map<number, number>([
  [0x1fd3, 0x390], // ΐ
  [0x1fe3, 0x3b0], // ΰ
  [0xfb06, 0xfb05], // ﬆ
]);

const cache = new Map<number, number>(SIBLINGS);

function sameClass(a: number, b: number): boolean {
  const re = new RegExp(`^${escapeChar(String.fromCodePoint(a))}$`, 'iu');
  return re.test(String.fromCodePoint(b));
}

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** One code point's representative: its lowercase of its uppercase, when `iu` agrees. */
export function foldCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  const known = cache.get(cp);
  if (known !== undefined) return known;
  const c = String.fromCodePoint(cp);
  let folded = cp;
  for (const candidate of [c.toUpperCase().toLowerCase(), c.toLowerCase()]) {
    const f = candidate.codePointAt(0) ?? cp;
    if (String.fromCodePoint(f) === candidate && (f === cp || sameClass(cp, f))) {
      folded = f;
      break;
    }
  }
  cache.set(cp, folded);
  return folded;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** `text` folded code point by code point (the same number of code points). */
export function fold(text: string): string {
  // As many UTF-8 bytes as UTF-16 units: every character is ASCII.
  if (Buffer.byteLength(text, 'utf8') === text.length) return text.toLowerCase();
  let out = '';
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const f = foldCodePoint(cp);
    if (f !== cp) {
      out += lowerAscii(text.slice(run, i)) + String.fromCodePoint(f);
      run = i + width;
    }
    i += width - 1;
  }
  // Between folded characters only A-Z change: the other non-ASCII ones fold to themselves,
  // and toLowerCase must not see them (it makes İ two code points).
  return out + lowerAscii(text.slice(run));
}

function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Whether `text` must be verified with the expression (a lone surrogate has no UTF-8 form). */
export function needsRegex(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
