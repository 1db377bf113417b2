import type { Span } from './detector';
import { secretKey } from './keys';
import { passwordTail, TAIL_MIN, VALUE_MAX } from './values';

/**
 * Values a line break or a tab keeps apart from their key (review r16 H2). The detectors read
 * a key and its value on one line; these forms put the value after a break:
 * - written so on purpose: a shell `\`-newline continuation (`export PASSWORD=\` then the value),
 *   YAML's block and continued scalars (`password: |` or `password:` then an indented line),
 *   a value alone on the line after a secret key (`password:` then `Vq7…`), `Authorization:
 *   Bearer` then the token, a call's arguments over lines (`page.fill("#password",` then the
 *   value), a pipe over lines (`echo V |` then `docker login --password-stdin`);
 * - read glued in a raw JSON transcript line, where `\n` and `\t` are two characters and the
 *   raw scan takes a password-like token after one as the rest of the value (values.ts
 *   passwordTail: `-p\nVq7…`, `curl -u bob:\nVq7…`, `Password: The\tquickVq7…`).
 * Each such gap is read again in a window with the gap closed up (the line before it, the line
 * after it), and what is found there is mapped back: the decoded text masks what the raw line
 * masks, and as escapedSpans decodes a line's strings and reads them through this too, the
 * raw line masks what the decoded text masks.
 */

/** How far before a gap its window starts: the key and what precedes it. */
const REACH = 256;

interface Gap {
  /** The gap [a, b), read as `glue`. */
  a: number;
  b: number;
  glue: string;
  /** Keep only spans that reach past the gap (the glued tail), not those before it. */
  tailOnly: boolean;
}

/**
 * Spans in `text` found by `scan` in windows with each gap closed up. `found`: the spans of
 * the text as it is; a value found there ending at a gap, as long as a password tail
 * (TAIL_MIN), is whole: it is not read on into the next line (`PASSWORD_1=Secr3tValue1x` then
 * a token is two values), a shorter one is read on as the raw line reads it (`-pPw` then
 * `W63vexlchKsAao`, `password: The` then `Vq7…`).
 */
export function joinedSpans(
  scan: (text: string) => Span[],
  text: string,
  found: readonly Span[],
): Span[] {
  const out: Span[] = [];
  const ends = new Map<number, number>();
  for (const s of found) ends.set(s.end, Math.max(ends.get(s.end) ?? 0, s.end - s.start));
  for (const g of gaps(text, ends)) {
    const from = lineStartWithin(text, g.a);
    let to = text.indexOf('\n', g.b);
    if (to < 0 || to > g.b + 2 * VALUE_MAX) to = Math.min(text.length, g.b + 2 * VALUE_MAX);
    const a = g.a - from;
    const cut = a + g.glue.length;
    const shift = g.b - g.a - g.glue.length;
    for (const s of scan(text.slice(from, g.a) + g.glue + text.slice(g.b, to))) {
      if (s.end <= a && (g.tailOnly || s.end <= 0)) continue;
      const start = s.start < a ? s.start + from : s.start >= cut ? s.start + from + shift : g.b;
      const end = s.end <= a ? s.end + from : s.end >= cut ? s.end + from + shift : g.a;
      if (end > start) out.push({ start, end, kind: s.kind });
    }
  }
  return out;
}

const BLANK = (c: number): boolean => c === 0x20 || c === 0x09;

/**
 * Where the line holding `at` starts, at most REACH back: lastIndexOf would read a long line
 * back whole at each of its tabs (`password: \t` repeated over 1 MB is one line).
 */
function lineStartWithin(text: string, at: number): number {
  const stop = Math.max(0, at - REACH);
  for (let i = at - 1; i >= stop; i--) if (text.charCodeAt(i) === 0x0a) return i + 1;
  return stop;
}
/** A line that starts code, whose `:` opens a block (`if password:`), not a value. */
const CODE_LINE =
  /^[ \t]*(?:if|elif|else|for|while|with|def|class|try|except|finally|case|switch|return|lambda|async|match)\b/;
/** What a call or pipe over lines, or a line a tail goes on, must hold (a cheap filter). */
const SECRET_HINT = /pass|pw|secret|token|key|cred|auth|-[A-Za-z]/i;
const PIPE_HINT = /stdin|passwd|sudo/i;
const BEARER_END = /(?:bearer|basic|token)$/i;
const AUTH_LINE = /authorization|bearer/i;
const TOKEN_LINE = /^[\w.~+/=-]{8,}[ \t]*\r?$/;
const NOT_SCALAR = /^(?:[-#?]|[^\s:]+:(?:\s|$)|[^\s]+[ \t]*:[ \t])/;
/** Characters a line may end with to be joined to the next (then told apart in lineGap). */
const LINE_ENDS = new Uint8Array(128);
for (const c of ':=|>-+\\,(nNcCrR') LINE_ENDS[c.charCodeAt(0)] = 1;

/** A viewer's line number (./gutter: `12: `, `    12\t`). */
const GUTTER = /[ \t]*\d{1,9}(?::[ \t]?|\t)/y;
/** Where the gutter at `at` ends; `at` if none. */
function gutterEnd(text: string, at: number): number {
  GUTTER.lastIndex = at;
  return GUTTER.test(text) ? GUTTER.lastIndex : at;
}

/** The line from `v` to its end. */
function lineAt(text: string, v: number): string {
  const end = text.indexOf('\n', v);
  return text.slice(v, end < 0 ? text.length : end);
}

/**
 * Whether a password-like token at `b` goes on the value before the gap at `a` (a line break or
 * a tab), as the raw scan reads it: something not blank before the gap, and a short value found
 * ending there or a hint of a key or option on the line (each such window is a second scan).
 */
function tailAt(
  text: string,
  lineStart: number,
  a: number,
  b: number,
  ends: Map<number, number>,
): boolean {
  const c = text.charCodeAt(a - 1);
  if (a === lineStart || BLANK(c) || c === 0x0d || !passwordTail(text, b)) return false;
  const found = ends.get(a);
  if (found !== undefined) return found < TAIL_MIN;
  return SECRET_HINT.test(text.slice(Math.max(lineStart, a - REACH), a));
}

/** A blank, quote or line break: what ends a URL's token. */
const URL_END = (c: number): boolean =>
  c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x27 || c === 0x60;

/**
 * Whether the tab at `tab` stands in a URL's password (review r19: `postgresql://a:Xk9<TAB>
 * Vq7@h/db`; a raw JSON line's `\t` is read as the password's, ./values inValue): `://`, a
 * user and `:` before it in its token, an `@` after it before a blank or `/`.
 */
function urlPassword(text: string, tab: number): boolean {
  const lo = Math.max(0, tab - REACH);
  let a = tab - 1;
  while (a >= lo && !URL_END(text.charCodeAt(a))) a--;
  if (a === tab - 1) return false;
  const head = text.slice(a + 1, tab);
  const scheme = head.indexOf('://');
  const colon = scheme < 0 ? -1 : head.indexOf(':', scheme + 3);
  if (colon < 0 || head.includes('@', scheme)) return false;
  // `http://host:80<TAB>user@x` is a port before a tab, as ./values inValue reads it.
  if (/^\d+$/.test(head.slice(colon + 1))) return false;
  const hi = Math.min(text.length, tab + REACH);
  for (let b = tab + 1; b < hi; b++) {
    const c = text.charCodeAt(b);
    if (c === 0x40) return b > tab + 1;
    if (URL_END(c) || c === 0x2f) return false;
  }
  return false;
}

/** The gaps of `text`, in order; `ends`: the longest span found ending at each offset. */
function gaps(text: string, ends: Map<number, number>): Gap[] {
  const out: Gap[] = [];
  for (let nl = text.indexOf('\n'), lineStart = 0; nl >= 0;) {
    // A CRLF line break is one gap, as a LF one (review r19: `mysql -u root -p\r\nV`).
    const a = text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
    if (tailAt(text, lineStart, a, nl + 1, ends))
      out.push({ a, b: nl + 1, glue: '', tailOnly: true });
    let e = nl;
    while (e > lineStart && (BLANK(text.charCodeAt(e - 1)) || text.charCodeAt(e - 1) === 0x0d)) e--;
    let v = nl + 1;
    while (v < text.length && BLANK(text.charCodeAt(v))) v++;
    const last = text.charCodeAt(e - 1);
    const next = text.charCodeAt(v);
    if (
      e > lineStart &&
      v < text.length &&
      next !== 0x0a &&
      next !== 0x0d &&
      ((last < 0x80 && LINE_ENDS[last] === 1) || last === 0xff1a || next === 0x7c)
    ) {
      const gap = lineGap(text, lineStart, e, nl, v);
      if (gap) out.push(gap);
    }
    lineStart = nl + 1;
    nl = text.indexOf('\n', lineStart);
  }
  for (let tab = text.indexOf('\t'); tab >= 0; tab = text.indexOf('\t', tab + 1)) {
    if (tailAt(text, lineStartWithin(text, tab), tab, tab + 1, ends) || urlPassword(text, tab)) {
      out.push({ a: tab, b: tab + 1, glue: '', tailOnly: true });
    }
  }
  return out.sort((x, y) => x.a - y.a);
}

/**
 * The gap between a line (content [lineStart, e)) and the next (its first non-blank at `v`),
 * if the two are one statement or one key and its value.
 */
function lineGap(text: string, lineStart: number, e: number, nl: number, v: number): Gap | null {
  const last = text[e - 1];
  // Shell: a backslash-newline is removed, the lines are one.
  if (last === '\\' && text[e - 2] !== '\\') return { a: e - 1, b: v, glue: '', tailOnly: false };
  const sep = separatorBefore(text, lineStart, e);
  if (sep >= 0) return keyGap(text, lineStart, e, sep, nl, v);
  const line = text.slice(lineStart, e);
  // The token alone on the next line (`Authorization: Basic` then `realm=…` is no token).
  if (BEARER_END.test(line) && AUTH_LINE.test(line) && TOKEN_LINE.test(lineAt(text, v))) {
    return { a: e, b: v, glue: ' ', tailOnly: false };
  }
  if ((last === ',' || last === '(') && SECRET_HINT.test(line)) {
    return { a: e, b: v, glue: ' ', tailOnly: false };
  }
  if (last === '|' || text[v] === '|') {
    if (PIPE_HINT.test(line) || PIPE_HINT.test(lineAt(text, v))) {
      return { a: e, b: v, glue: ' ', tailOnly: false };
    }
  }
  return null;
}

/** A secret key ending its line at `sep` (`password:`, `password: |`), its value below. */
function keyGap(
  text: string,
  lineStart: number,
  e: number,
  sep: number,
  nl: number,
  v: number,
): Gap | null {
  // Lines numbered by a viewer (`3:   password: |`, `4:     V`): indents after the numbers.
  const g1 = gutterEnd(text, lineStart);
  const g2 = gutterEnd(text, nl + 1);
  const numbered = g1 > lineStart && g2 > nl + 1;
  const start = numbered ? g1 : lineStart;
  const nextStart = numbered ? g2 : nl + 1;
  let indent = start;
  while (BLANK(text.charCodeAt(indent))) indent++;
  if (numbered) for (v = g2; BLANK(text.charCodeAt(v));) v++;
  const block = sep + 1 < e;
  // A block scalar's text is indented under its key; a plain value may go on more indented
  // (YAML) but a key (`type: string`, an OpenAPI schema under `password:`), a list item or a
  // comment starts no continuation; alone on the next line it must look like a password as
  // the raw scan's tail does (`Password: ` then `next` is a prompt and a line, review r15 L1).
  const deeper = v - nextStart > indent - start;
  const joined = block
    ? deeper
    : deeper
      ? !NOT_SCALAR.test(lineAt(text, v))
      : oneWord(text, v) && (passwordTail(text, v) || quotedWord(text, v));
  if (!joined || CODE_LINE.test(text.slice(start, e))) return null;
  if (secretKey(keyBefore(text, lineStart, sep)) === null) return null;
  return { a: sep + 1, b: v, glue: ' ', tailOnly: false };
}

/**
 * Where the `:` or `=` ending the line [lineStart, e) is, past a YAML block indicator (`|`,
 * `>`, `|-`, `>+`); -1 if none.
 */
function separatorBefore(text: string, lineStart: number, e: number): number {
  let i = e - 1;
  if (text[i] === '-' || text[i] === '+') i--;
  if (text[i] === '|' || text[i] === '>') {
    i--;
    while (i > lineStart && BLANK(text.charCodeAt(i))) i--;
    return text[i] === ':' && i < e - 1 ? i : -1;
  }
  return i === e - 1 && (text[i] === ':' || text[i] === '=' || text[i] === '\uff1a') ? i : -1;
}

/** The name before the separator at `sep`, past blanks and quotes. */
function keyBefore(text: string, lineStart: number, sep: number): string {
  let i = sep;
  while (i > lineStart && /[ \t"']/.test(text[i - 1])) i--;
  const end = i;
  while (i > lineStart && /[\p{L}\p{N}_.-]/u.test(text[i - 1])) i--;
  return text.slice(i, end);
}

/** Whether the line from `v` is one word (no blank before its end), not itself a key. */
function oneWord(text: string, v: number): boolean {
  let i = v;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r' && !BLANK(text.charCodeAt(i))) i++;
  let j = i;
  while (j < text.length && BLANK(text.charCodeAt(j))) j++;
  const c = text[i - 1];
  return (j >= text.length || text[j] === '\n' || text[j] === '\r') && c !== ':' && c !== '=';
}

/**
 * Whether the line from `v` is one quoted word and nothing more (`"Vq7…"`, `'Vq7…'`): a value
 * in quotes alone on the line after a secret key (review r19: `"password":` then `"V"`).
 */
function quotedWord(text: string, v: number): boolean {
  const q = text.charCodeAt(v);
  if (q !== 0x22 && q !== 0x27) return false;
  let i = v + 1;
  for (const stop = Math.min(text.length, v + VALUE_MAX); i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === q || BLANK(c) || c === 0x0a || c === 0x0d || c === 0x5c) break;
  }
  if (text.charCodeAt(i) !== q || i === v + 1) return false;
  i++;
  if (text.charCodeAt(i) === 0x2c) i++;
  return i >= text.length || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d;
}
