import { privateKeyContinues } from './private-key';

/**
 * Secrets that may be longer than the context a range or a stream step sees: a token with no
 * blank or quote in it (an assigned value, a base64 blob), and PEM blocks (base64 lines). Their
 * start can lie out of view, so ./range looks back to it and ./stream carries it over.
 */

const BACKSLASH = 0x5c;

/** Part of a one-word secret: not a blank, quote or backslash. */
function isTokenChar(c: number): boolean {
  return !(
    c === 0x20 ||
    c === 0x09 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x22 ||
    c === 0x27 ||
    c === 0x60 ||
    c === BACKSLASH ||
    c === 0x0c ||
    c === 0x0b
  );
}

function isBase64(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2b ||
    c === 0x2f ||
    c === 0x3d
  );
}

/** `n` or `r` escaped by a backslash at `i` (the letter), as in JSON-encoded text. */
function isEscapedBreak(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c === 0x6e || c === 0x72) && i > 0 && text.charCodeAt(i - 1) === BACKSLASH;
}

/** Before `i`: blanks and at least one line break (real or escaped); where they start, or -1. */
function breakBefore(text: string, i: number, floor: number): number {
  let j = i;
  let broke = false;
  while (j > floor) {
    const c = text.charCodeAt(j - 1);
    if (c === 0x20 || c === 0x09) j--;
    else if (c === 0x0a || c === 0x0d) [j, broke] = [j - 1, true];
    else if (isEscapedBreak(text, j - 1)) {
      j -= 2;
      while (j > floor && text.charCodeAt(j - 1) === BACKSLASH) j--;
      broke = true;
    } else break;
  }
  return broke ? j : -1;
}

/**
 * Where the secret-shaped run through `pos` starts, looking back no further than `floor`:
 * the word that `pos` is in (or ends), and above it the base64 lines of 16 or more
 * characters that lead to it. `floor` when the run reaches it: its start is out of view.
 */
export function runStart(text: string, pos: number, floor: number): number {
  let i = pos;
  while (i > floor && isTokenChar(text.charCodeAt(i - 1)) && !isEscapedBreak(text, i - 1)) i--;
  if (i === floor) return floor;
  for (let k = i; k < pos; k++) if (!isBase64(text.charCodeAt(k))) return i;
  for (;;) {
    const j = breakBefore(text, i, floor);
    if (j < 0) return i;
    if (j === floor) return floor;
    let k = j;
    while (k > floor && isBase64(text.charCodeAt(k - 1))) k--;
    if (j - k < 16) return i;
    if (k === floor) return floor;
    // A line counts only when something that ends lines comes before it.
    const c = text.charCodeAt(k - 1);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && !isEscapedBreak(text, k - 1)) {
      return i;
    }
    i = k;
  }
}

const TOKEN_REST = /[^\s"'`\\]*/y;
const COOKIE_REST = /[^\r\n"'`\\]*/y;

/**
 * Where a secret of `kind` that continues at `at` (its start out of view) ends: a private
 * key's base64 lines and footer, a cookie header's line, any other secret's word.
 */
export function continuationEnd(text: string, at: number, kind: string): number {
  if (kind === 'private-key') return privateKeyContinues(text, at);
  const re = kind === 'cookie' ? COOKIE_REST : TOKEN_REST;
  re.lastIndex = at;
  re.test(text);
  return re.lastIndex;
}

/** Where the run through `at` ends, whatever it is: its word, or base64 lines. */
export function runEnd(text: string, at: number): number {
  return Math.max(continuationEnd(text, at, 'token'), privateKeyContinues(text, at));
}
