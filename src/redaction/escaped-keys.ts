import { secretKey } from './keys';
import { scanBuiltins, type Span } from './patterns';
import { VALUE_MAX } from './values';
import { escapedAt } from './backslashes';

/**
 * A key spelled with `\u` escapes (`"pass\u0077ord": "…"`, `"api_\u006bey": "…"`), read
 * whatever the quotes around it (review r15 H1). ./escaped decodes a line's string literals
 * by pairing its quotes: after an escaped quote (`mysql -pPw\"X\" db ok "pass\u0077ord": "V"`)
 * or an odd one (`say " then …`) the pairing is shifted, the key was never decoded, and V was
 * served clear by GraphQL, REST, search and exports while a streamed window starting elsewhere
 * masked it. Here every `\u` escape inside a key-like run that ends like a secret's name
 * (./keys secretKey on the run decoded) and is followed by `:` or `=` is read again: the text
 * around it with such keys decoded is scanned, and what the detectors find right after a key
 * (its value) is masked on the raw characters.
 */

/** Longest key run read around an escape. */
const KEY_MAX = 128;
/** Context kept before a key (a condition's `if`, an option, a quote). */
const BEFORE = 64;
/** How far past a key's end its value's span may start (quotes, blanks, the separator). */
const VALUE_GAP = 16;

interface Key {
  /** Raw [start, end) of the key run. */
  start: number;
  end: number;
  name: string;
}

/** Spans (raw offsets) of values after `\u`-escaped secret keys in `text`. */
export function unicodeKeySpans(text: string): Span[] {
  const out: Span[] = [];
  let keys: Key[] = [];
  let from = 0;
  let to = 0;
  let done = -1;
  for (let i = text.indexOf('\\u'); i >= 0; i = text.indexOf('\\u', Math.max(i + 2, done))) {
    if (!escapeAt(text, i)) continue;
    const key = keyAround(text, i);
    done = key.end;
    if (!followedBySeparator(text, key.end) || secretKey(key.name) === null) continue;
    if (keys.length > 0 && key.start - BEFORE > to) {
      windowSpans(text, keys, from, to, out);
      keys = [];
    }
    if (keys.length === 0) from = Math.max(0, key.start - BEFORE, lineStart(text, key.start));
    to = Math.min(text.length, key.end + VALUE_MAX + VALUE_GAP);
    keys.push(key);
  }
  if (keys.length > 0) windowSpans(text, keys, from, to, out);
  return out;
}

/** The start of the line holding `at`, looked for at most BEFORE back (not quadratic). */
function lineStart(text: string, at: number): number {
  let i = at;
  const stop = Math.max(0, at - BEFORE);
  while (i > stop && text.charCodeAt(i - 1) !== 0x0a) i--;
  return i;
}

const isHex = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** A `\uXXXX` escape at `i` (the backslash), not itself escaped (an odd run of backslashes). */
function escapeAt(text: string, i: number): boolean {
  if (i + 6 > text.length) return false;
  for (let k = i + 2; k < i + 6; k++) if (!isHex(text.charCodeAt(k))) return false;
  return !escapedAt(text, i);
}

/** Letters (of any script), digits, `_` and `-`: what a key's name is made of. */
function keyChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x2d ||
    (c >= 0xaa && c !== 0xd7 && c !== 0xf7 && c < 0x2000) ||
    (c >= 0x3040 && c !== 0x3000 && c < 0xfff0)
  );
}

const INVISIBLE = /\u034f|[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** The key run holding the escape at `i`: key characters and escapes either side. */
function keyAround(text: string, i: number): Key {
  let start = i;
  while (start > 0 && i - start < KEY_MAX && keyChar(text.charCodeAt(start - 1))) start--;
  let end = i + 6;
  while (end < text.length && end - start < KEY_MAX) {
    if (keyChar(text.charCodeAt(end))) end++;
    else if (
      text.charCodeAt(end) === 0x5c &&
      text.charCodeAt(end + 1) === 0x75 &&
      escapeAt(text, end)
    )
      end += 6;
    else break;
  }
  const name = text
    .slice(start, end)
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    // An escaped invisible character spells nothing (review r16 L: `"pass\u200bword": …`).
    .replace(INVISIBLE, '');
  return { start, end, name };
}

/** Past closing quotes (maybe escaped) and blanks, a `:` or `=`. */
function followedBySeparator(text: string, at: number): boolean {
  for (let i = at; i < text.length && i < at + VALUE_GAP; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || c === 0x3d) return true;
    if (c !== 0x22 && c !== 0x27 && c !== 0x5c && c !== 0x20 && c !== 0x09) return false;
  }
  return false;
}

/**
 * Scans text[from, to) with `keys` (in order, inside it) decoded; of what it finds, the spans
 * that start just after a decoded key and lie outside every key, mapped back onto `text`.
 */
function windowSpans(text: string, keys: Key[], from: number, to: number, out: Span[]): void {
  const parts: string[] = [];
  /** Per key: where its decoded name ends in the window, and raw minus window offset after it. */
  const ends: number[] = [];
  const shifts: number[] = [];
  let pos = from;
  let len = 0;
  for (const k of keys) {
    parts.push(text.slice(pos, k.start), k.name);
    len += k.start - pos + k.name.length;
    ends.push(len);
    shifts.push(k.end - len);
    pos = k.end;
  }
  parts.push(text.slice(pos, to));
  const window = parts.join('');
  let k = 0;
  for (const s of scanBuiltins(window).sort((x, y) => x.start - y.start)) {
    while (k + 1 < ends.length && ends[k + 1] <= s.start) k++;
    if (s.start < ends[k] || s.start - ends[k] > VALUE_GAP) continue;
    // The span must not reach into the next key's decoded name.
    if (k + 1 < ends.length && s.end > ends[k + 1] - keys[k + 1].name.length) continue;
    out.push({ start: s.start + shifts[k], end: s.end + shifts[k], kind: s.kind });
  }
}
