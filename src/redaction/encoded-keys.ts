import { nameChar, secretKey } from './keys';
import { scanBuiltins, type Span } from './patterns';
import { VALUE_MAX } from './values';

/**
 * Keys and separators spelled with HTML entities, URL escapes or `\x`/`\u00XX` escapes (review
 * r16 M4 and lows): `{&quot;password&quot;: &quot;V&quot;}` (JSON shown HTML-escaped; `&#34;`
 * too), `user%3Abob%26password%3DV` (a URL-encoded query or form body), `pass&#119;ord: V`,
 * `pass\x77ord: V`, `"password"\u003a "V"`. No key rule reads them, and V was served clear on
 * every route. Around each such spelling the text is read decoded (a window, as ./escaped-keys
 * does for `\u` keys): what the detectors find there starting just after the decoded spelling
 * (the value) is masked on the raw characters that spell it.
 */

/** Cheap tests first: a text with none of these has nothing to decode. */
const HINTS = ['&quot;', '&#', '%3', '\\x', '\\u00', '&gt;'];
/**
 * Spellings that may end a key or be its separator: an encoded quote then `:` (HTML-escaped
 * JSON), an encoded `:` or `=`, a numeric entity or `\x` escape (checked in code: a letter,
 * digit, quote or separator), an escaped `:` or `=`.
 */
const POINT =
  /&(?:quot|apos|#0*3[49]|#[xX]0*2[27]);[ \t]*(?::|&#0*58;)|&gt;|%3[aAdD]|&#[xX]?[0-9a-fA-F]{2,4};|\\x[0-9a-fA-F]{2}|\\u003[aAdD]/g;
/** What is decoded in a window. */
const CODE =
  /&(quot|amp|apos|lt|gt);|&#[xX]([0-9a-fA-F]{1,4});|&#(\d{1,5});|%([0-9a-fA-F]{2})|\\x([0-9a-fA-F]{2})|\\u(00[2-7][0-9a-fA-F])/g;
const NAMED: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>' };
/**
 * Decoded characters a lone entity or `\x` escape may stand for: a key's letter or digit, `:`,
 * `=` (not a quote: `don&#39;t` in every HTML text; a quote counts before a `:`, in POINT).
 */
const KEY_CHAR = /^[\w:=-]$/;
/** Context read before a point (the key) and after it (the value). */
const BEFORE = 128;
const AFTER = VALUE_MAX + 32;
/** How far past a point's decoded end its value's span may start. */
const VALUE_GAP = 24;

/** Spans (raw offsets) of values after keys or separators spelled encoded in `text`. */
export function encodedKeySpans(text: string): Span[] {
  if (!HINTS.some((h) => text.includes(h))) return [];
  const out: Span[] = [];
  let points: number[] = [];
  let from = 0;
  let to = -1;
  POINT.lastIndex = 0;
  for (let m = POINT.exec(text); m !== null; m = POINT.exec(text)) {
    // A lone entity or `\x` escape (not a quote before `:`): only a key's character.
    if (m[0] === '&gt;') {
      // An XML element shown HTML-escaped (`&lt;password&gt;V&lt;/password&gt;`, review r19).
      if (!secretTag(text, m.index)) continue;
    } else {
      const lone = (m[0][0] === '&' && m[0].endsWith(';')) || m[0][1] === 'x';
      if (lone ? !KEY_CHAR.test(decodeOne(m[0])) : !secretBefore(text, m.index)) continue;
    }
    const end = m.index + m[0].length;
    if (to >= 0 && m.index - BEFORE > to) {
      windowSpans(text, from, to, points, out);
      points = [];
    }
    if (points.length === 0) from = Math.max(0, m.index - BEFORE);
    to = Math.min(text.length, end + AFTER);
    points.push(end);
  }
  if (points.length > 0) windowSpans(text, from, to, points, out);
  return out;
}

/**
 * Whether a secret's name (./keys) ends just before `at`, past quotes, backslashes and blanks:
 * a separator or closing quote spelled encoded counts after one only (`%3A` and `%3D` are in
 * every encoded URL; each window is a second scan of its text).
 */
function secretBefore(text: string, at: number): boolean {
  let i = at;
  for (const stop = Math.max(0, at - 8); i > stop; i--) {
    const c = text.charCodeAt(i - 1);
    if (c !== 0x22 && c !== 0x27 && c !== 0x5c && c !== 0x20 && c !== 0x09) break;
  }
  let start = i;
  for (const stop = Math.max(0, i - 64); start > stop; start--) {
    const c = text.charCodeAt(start - 1);
    const word =
      (c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x5f ||
      c === 0x2d;
    if (!word) break;
  }
  // A path's segment (`?next=%2Fsettings%2Fpassword%3Dchange`, review r19): the word starts
  // after an encoded `/`, its `2F` read as its first letters.
  if (text.charCodeAt(start) === 0x32 && /^%2[fF]/.test(text.slice(start - 1, start + 2))) {
    return false;
  }
  return start < i && secretKey(text.slice(start, i)) !== null;
}

/** Whether `&lt;` and a secret's name (./keys) end just before `at`. */
function secretTag(text: string, at: number): boolean {
  let start = at;
  for (const stop = Math.max(0, at - 64); start > stop; start--) {
    // A namespace's `:` too (`&lt;spring:password&gt;`).
    const c = text.charCodeAt(start - 1);
    if (!nameChar(c) && c !== 0x3a) break;
  }
  return start < at && text.endsWith('&lt;', start) && secretKey(text.slice(start, at)) !== null;
}

/** One spelling decoded. */
function decodeOne(code: string): string {
  CODE.lastIndex = 0;
  const m = CODE.exec(code);
  return m === null ? code : decoded(m);
}

function decoded(m: RegExpExecArray): string {
  if (m[1] !== undefined) return NAMED[m[1]];
  const hex = m[2] ?? m[4] ?? m[5] ?? m[6];
  const n = hex !== undefined ? parseInt(hex, 16) : parseInt(m[3], 10);
  // A code unit only (no surrogate pairs to map back); an unpaired surrogate or NUL stays.
  return n > 0 && n < 0xd800 ? String.fromCharCode(n) : m[0];
}

/**
 * Scans text[from, to) decoded; keeps what starts within VALUE_GAP after one of `points` (raw
 * offsets where a spelling ends), mapped back onto the raw text.
 */
function windowSpans(text: string, from: number, to: number, points: number[], out: Span[]) {
  const window = text.slice(from, to);
  const parts: string[] = [];
  // rawAt[i]: the raw offset (in the window) where decoded character i starts; one more at end.
  const rawAt: number[] = [];
  let pos = 0;
  CODE.lastIndex = 0;
  for (let m = CODE.exec(window); m !== null; m = CODE.exec(window)) {
    const c = decoded(m);
    for (let i = pos; i < m.index; i++) rawAt.push(i);
    parts.push(window.slice(pos, m.index), c);
    for (let i = 0; i < c.length; i++) rawAt.push(m.index);
    pos = m.index + m[0].length;
  }
  for (let i = pos; i < window.length; i++) rawAt.push(i);
  rawAt.push(window.length);
  parts.push(window.slice(pos));
  const plain = parts.join('');
  // Where each point ends in the decoded window.
  const starts: number[] = [];
  let k = 0;
  for (const p of points) {
    while (k < rawAt.length - 1 && rawAt[k] < p - from) k++;
    starts.push(k);
  }
  for (const s of scanBuiltins(plain)) {
    if (!starts.some((a) => s.start >= a && s.start - a <= VALUE_GAP)) continue;
    const start = from + rawAt[s.start];
    const end = from + rawAt[s.end];
    if (end > start) out.push({ start, end, kind: s.kind });
  }
}
