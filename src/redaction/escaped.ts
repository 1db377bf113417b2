import type { Span } from './detector';
import { numberSpans, SCHEMA_TYPES, stringSpans } from './json';
import { isCookie as cookieObject } from './json-fields';
import { parseJson, type JsonNode } from './json-positions';
import { secretKey, type KeyRule } from './keys';
import { Literal, literalEnd } from './literal';
import type { Redactor } from './redactor';
import { escapedAt } from './backslashes';

/**
 * Secrets behind JSON string escapes, found as the API finds them in decoded values and masked
 * on the raw bytes. A transcript stores `"password": "\"Hunter2\""` (compact-tier arguments
 * are JSON text inside JSON) and `"mysql -u root -pS3cret"` after a `\n`: the text detectors
 * reading raw bytes see neither. So each line holding a backslash is decoded: a line that is
 * JSON is walked as Redactor.redactJson walks the record (values under secret-named keys
 * masked whole, JSON inside strings decoded as the API decodes arguments), any other line has
 * its string literals decoded; the detectors run on the decoded values and every span is
 * mapped back onto the raw characters (./literal). The raw scan still runs (Redactor.findSpans):
 * these spans are added to it.
 */

/** JSON inside JSON strings looked through (each level doubles the backslashes). */
const MAX_LEVELS = 4;
let level = 0;

/** Spans (raw offsets) of what the decoded lines of `text` that hold a backslash reveal. */
export function escapedSpans(r: Redactor, text: string): Span[] {
  const out: Span[] = [];
  if (level >= MAX_LEVELS) return out;
  level++;
  const cursor: Cursor = { next: -2 };
  try {
    for (let bs = text.indexOf('\\'); bs >= 0;) {
      const from = text.lastIndexOf('\n', bs) + 1;
      let to = text.indexOf('\n', bs);
      if (to < 0) to = text.length;
      lineSpans(r, text, from, to, cursor, out);
      bs = to < text.length ? text.indexOf('\\', to) : -1;
    }
  } finally {
    level--;
  }
  return out;
}

function lineSpans(
  r: Redactor,
  text: string,
  from: number,
  to: number,
  cursor: Cursor,
  out: Span[],
): void {
  let i = from;
  while (i < to && (text[i] === ' ' || text[i] === '\t')) i++;
  const c = text[i];
  const tree = c === '{' || c === '[' || c === '"' ? parseJson(text, from, to) : null;
  if (tree) visit(r, text, tree, null, false, out);
  else literalSpans(r, text, from, to, cursor, out);
}

/**
 * What the API masks in a decoded value: JSON text (compact-tier arguments) decoded and walked
 * under the key's rule, else the value itself (whole under a secret key).
 */
function valueSpans(r: Redactor, value: string, rule: KeyRule | null): Span[] {
  const c = value.trimStart()[0];
  const tree = c === '{' || c === '[' || c === '"' ? parseJson(value) : null;
  if (!tree) return stringSpans(r, value, rule);
  const out: Span[] = [];
  if (tree.t !== 's') for (const s of r.scanText(value)) out.push(s);
  visit(r, value, tree, rule, true, out);
  return out;
}

/**
 * Walks a parsed value. `all`: visit every string (a decoded text no scan has read yet), else
 * only those the raw scan could not read: with escapes, or under a secret-named key.
 */
function visit(
  r: Redactor,
  text: string,
  node: JsonNode,
  rule: KeyRule | null,
  all: boolean,
  out: Span[],
): void {
  switch (node.t) {
    case 's': {
      if (!all && !rule && !node.escaped) return;
      const lit = Literal.decode(text, node.start, node.end, node.escaped);
      if (lit) lit.toRaw(valueSpans(r, lit.value, rule), out);
      return;
    }
    case 'n':
      for (const s of numberSpans(text.slice(node.start, node.end), rule)) {
        out.push({ start: node.start + s.start, end: node.start + s.end, kind: s.kind });
      }
      return;
    case 'a':
      for (const item of node.items) visit(r, text, item, rule, all, out);
      return;
    case 'o': {
      const keys = node.keys.map((k) => Literal.decode(text, k.start, k.end, k.escaped));
      const inherited =
        rule && !isSchema(text, keys, node.values) && !isCookie(text, keys, node.values)
          ? rule
          : null;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key && (all || node.keys[i].escaped)) key.toRaw(r.findSpans(key.value), out);
        const own = key ? secretKey(key.value) : null;
        visit(r, text, node.values[i], own ?? inherited, all, out);
      }
      return;
    }
    case 'l':
      return;
  }
}

/** As ./json's isSchema: `"type": "string"` or a `$ref` says the object describes a value. */
function isSchema(text: string, keys: (Literal | null)[], values: JsonNode[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const name = keys[i]?.value;
    if (name === '$ref') return true;
    const v = values[i];
    if (name !== 'type' || v.t !== 's') continue;
    const type = Literal.decode(text, v.start, v.end, v.escaped)?.value;
    if (type !== undefined && SCHEMA_TYPES.has(type)) return true;
  }
  return false;
}

/**
 * As ./json-fields isCookie: string `name` and `value` members, a string `domain` or a session
 * cookie's name, and no string `type` (the value is masked, by the raw scan's cookieValue).
 */
function isCookie(text: string, keys: (Literal | null)[], values: JsonNode[]): boolean {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const name = keys[i]?.value;
    const v = values[i];
    if (v.t !== 's') continue;
    if (name === 'type') return false;
    if (name === 'domain') o.domain = '';
    else if (name === 'name' || name === 'value') {
      o[name] = Literal.decode(text, v.start, v.end, v.escaped)?.value ?? '';
    }
  }
  return cookieObject(o);
}

/**
 * A line that is not JSON (a log, a script, a line cut by a byte range or a stream step): its
 * string literals that hold a backslash, decoded; a literal right after `"key":` takes that
 * key's rule. The first and last lines of a text may be cut inside a literal, which pairs
 * their quotes the wrong way: both pairings are read there.
 */
function literalSpans(
  r: Redactor,
  text: string,
  from: number,
  to: number,
  cursor: Cursor,
  out: Span[],
): void {
  singleQuotedSpans(r, text, from, to, cursor, out);
  let first = text.indexOf('"', from);
  if (first >= to) first = -1;
  // A text cut inside a long literal (a download step or a byte range 64 KiB into a 1 MB
  // JSONL line) holds no quote, or only its closing one: what stands before the first quote
  // of the first line is read as a literal's tail, and what follows an unclosed quote of the
  // last line as a literal's head (review r13 M3: `password: \t` repeated served a value
  // clear in the raw .jsonl download where the decoded step masked it).
  // The edge ends at the first quote no backslash escapes: a window inside a long string
  // reads its `\"` as part of the string (review r14: `mysql -u root -p\"V\" appdb` 300
  // bytes past a step of a 1 MB line; the edge ended at `\"`, and the value was read nowhere).
  const close = from === 0 && first >= 0 ? literalEnd(text, -1, to) : first;
  if (from === 0) openSpans(r, text, 0, close < 0 ? to : close - 1, out);
  if (first < 0) return;
  pairedSpans(r, text, first, to, out);
  if (from > 0 && to < text.length) return;
  const second = text.indexOf('"', first + 1);
  if (second >= 0 && second < to) pairedSpans(r, text, second, to, out);
}

/**
 * text[a, b), the inside of a literal whose quotes the text cut off, decoded and read as
 * pairedSpans reads a literal that holds escapes, when it holds a `\u` escape or an escaped
 * quote. A cut inside an escape leaves a backslash
 * at the end (dropped) or the escape's tail at the start (read from one character on).
 */
function openSpans(r: Redactor, text: string, a: number, b: number, out: Span[]): void {
  // Only `\u` escapes and escaped quotes hide what the raw scan and the backslash rescan
  // (./redactor) cannot read (`jelsz\u00f3`, `\u0041KIA…`, `-p\"V\"`); decoding every edge
  // scanned each window's first line twice.
  if (!hasEscape(text, a, b)) return;
  let end = b;
  if (escapedAt(text, end, a)) end--;
  for (const start of [a, a + 1]) {
    if (start >= end) return;
    const quoted = `"${text.slice(start, end)}"`;
    const lit = Literal.decode(quoted, 0, quoted.length, true);
    if (!lit) continue;
    const found: Span[] = [];
    lit.toRaw(valueSpans(r, lit.value, null), found);
    for (const s of found)
      out.push({ start: s.start - 1 + start, end: s.end - 1 + start, kind: s.kind });
    return;
  }
}

/** A `\u` escape or an escaped quote in text[a, b). */
function hasEscape(text: string, a: number, b: number): boolean {
  for (let i = text.indexOf('\\', a); i >= 0 && i < b - 1; i = text.indexOf('\\', i + 2)) {
    const c = text.charCodeAt(i + 1);
    if (c === 0x75 || c === 0x22) return true;
  }
  return false;
}

/** Only blanks and one `:` in text[from, to): a key's literal ends at `from`. */
function colonBetween(text: string, from: number, to: number): boolean {
  let colons = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) colons++;
    else if (c !== 0x20 && c !== 0x09) return false;
  }
  return colons === 1;
}

function pairedSpans(r: Redactor, text: string, first: number, to: number, out: Span[]): void {
  let [prevStart, prevEnd] = [-1, -1];
  for (let q = first; q >= 0 && q < to; q = text.indexOf('"', q)) {
    const end = literalEnd(text, q, to);
    if (end < 0) {
      if (to === text.length) openSpans(r, text, q + 1, to, out);
      return;
    }
    const escaped = text.slice(q + 1, end - 1).includes('\\');
    let keyRule: KeyRule | null = null;
    if (prevEnd >= 0 && colonBetween(text, prevEnd, q)) {
      const key = Literal.decode(text, prevStart, prevEnd, true);
      keyRule = key ? secretKey(key.value) : null;
    }
    if (escaped || keyRule) {
      const lit = Literal.decode(text, q, end, escaped);
      if (lit) lit.toRaw(valueSpans(r, lit.value, keyRule), out);
    }
    [prevStart, prevEnd, q] = [q, end, end];
  }
}

/**
 * The next `\u` escape of a text at or after the line being read (-1: none is left, -2: not
 * looked for yet): one search for the whole text, not one from each line to the next escape
 * (64 MiB of JSONL without one took 20 s in figure 7).
 */
interface Cursor {
  next: number;
}

/** How far before a `\u` escape singleQuotedSpans looks for the quote that opens its literal. */
const OPEN_REACH = 128;
/** Longest single-quoted literal singleQuotedSpans decodes. */
const LITERAL_MAX = 1024;

/**
 * The single-quoted literals of text[from, to) that hold a `\u` escape, decoded as a JSON
 * string (Python and JavaScript read those escapes alike): `key = '\u0041KIA…'` in a script
 * was read only on a text's first line, which openSpans decodes whole (review r13's low, left
 * then). Each character is looked at once: a look back for the opening quote stops where the
 * last one stopped.
 */
function singleQuotedSpans(
  r: Redactor,
  text: string,
  from: number,
  to: number,
  cursor: Cursor,
  out: Span[],
): void {
  if (cursor.next !== -1 && cursor.next < from) cursor.next = text.indexOf('\\u', from);
  let done = from;
  let u = cursor.next;
  for (; u >= 0 && u < to; u = text.indexOf('\\u', done)) {
    let a = u - 1;
    const lo = Math.max(done, u - OPEN_REACH);
    while (a >= lo && text.charCodeAt(a) !== 0x27) a--;
    const b = a < lo ? -1 : closingQuote(text, u + 2, Math.min(to, a + LITERAL_MAX));
    if (b < 0) {
      done = u + 2;
      continue;
    }
    done = b + 1;
    const quoted = `"${text.slice(a + 1, b)}"`;
    const lit = Literal.decode(quoted, 0, quoted.length, true);
    if (!lit) continue;
    const found: Span[] = [];
    lit.toRaw(valueSpans(r, lit.value, null), found);
    for (const s of found) out.push({ start: s.start + a, end: s.end + a, kind: s.kind });
  }
  cursor.next = u;
}

/** The first `'` in text[k, stop), or -1: a bounded look, as a line may hold none. */
function closingQuote(text: string, k: number, stop: number): number {
  for (; k < stop; k++) if (text.charCodeAt(k) === 0x27) return k;
  return -1;
}
