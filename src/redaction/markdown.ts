import type { Span } from './detector';
import { acceptAssignment, PASSWORD_WORD, placeholderPassword, secretKey } from './keys';
import { VALUE_MAX } from './values';

/**
 * Credentials written as markdown or prose (review 23: Antigravity's own walkthrough.md,
 * implementation plans and task lists write them so, and every route served them clear):
 *
 * - a bold or italic key: `- **Password:** \`V\``, `**Password**: V`, `*Password:* V`,
 *   `**API Key:** V`, `**\`DB_PASSWORD\`**: \`V\``;
 * - a table row naming the secret in a cell before it: `| Password | \`V\` |`, and a table whose
 *   header names a secret column (`| Email | Password |` then `|---|---|`): that column's cells in
 *   the rows below, until the table ends;
 * - a sentence: `my password is V`, `The DB password is V, please use it`, `password - V`;
 *   a key of two words: `API Key: V`, `Api key = V`, `secret key: V`; `login: admin / V`.
 *
 * No key rule reads these (`*`, `|`, ` is ` or a blank stand between the key and its value).
 * The value must look generated (secretValue: letters and digits, no placeholder, no prose), as
 * prose and tables talk about passwords all the time (`**Password:** see 1Password`, `Password
 * is required`, `| Password | Required |`). Found without the shared prefilter (whose regex
 * source is near V8's optimizing limit): a literal test per shape, then `indexOf`, each
 * candidate read within a bounded stretch, so a text is read in linear time.
 */

/** How far a key is read back from its separator. */
const KEY_MAX = 48;
/** How long a table row may be: a longer line is no row read here. */
const ROW_MAX = 4096;
/** How many cells of a row are read. */
const CELLS_MAX = 32;

/** Spans of credentials written as markdown or prose in `text`. */
export function markdownSpans(text: string): Span[] {
  const out: Span[] = [];
  // Each looks for its literal with indexOf first (a text without it costs that one search),
  // led by a rarer character (`key`, not ` key`: a search stops at each of its first character).
  boldKeys(text, out);
  if (text.includes('|')) tables(text, out);
  passwordSentences(text, out);
  keySentences(text, out);
  spacedKeys(text, out);
  loginPairs(text, out);
  return out;
}

// --- values ------------------------------------------------------------------------------------

const LETTER = /\p{L}/u;
const DIGIT = /\d/;
/**
 * Two or more each of capitals, small letters and digits, nothing else (`Tk8mX2vL9pT4wZq`; not
 * `Float32_LE`, nor a name such as `base64Encoded`).
 */
function mixed(value: string): boolean {
  let upper = 0;
  let lower = 0;
  let digit = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) upper++;
    else if (c >= 0x61 && c <= 0x7a) lower++;
    else if (c >= 0x30 && c <= 0x39) digit++;
    else return false;
  }
  return upper >= 2 && lower >= 2 && digit >= 2;
}
/** A column type (`VARCHAR(255)`, `DECIMAL(10,2)`), a version (`v1.2.3`, `2.0.1-beta`). */
const NOT_A_VALUE = /^(?:[A-Za-z]+\(\d+(?:,\s*\d+)?\)|v?\d+(?:\.\d+)+(?:[-+.][\w.]*)?)$/;

/** A constant's or a variable's name (`UINT16_BE`, `GITHUB_TOKEN_2`): a reference, no value. */
const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/**
 * Whether `value`, written after the secret name `keyword`, is a secret: letters and digits
 * mixed, 6 characters or more after a password's name, 16 after a token's, a key's or a
 * secret's (a generated one: a table's `Token` column lists parser tokens such as `UINT16_BE`,
 * `Float32_LE`), no placeholder, reference or code (as an assignment's bare value is judged:
 * ./keys acceptAssignment).
 */
function secretValue(keyword: string, value: string, next: string): boolean {
  const password = PASSWORD_WORD.test(keyword);
  // A token's of 12 to 15 when it mixes capitals, small letters and digits (review 24:
  // `**Token:** Tk8mX2vL9pT4wZq`, 15, was clear; a parser's `Float32_LE` is shorter).
  // Review 25: 11 (`**Token:** Tk9mX2vL9pT`).
  const least = password ? 6 : mixed(value) ? 11 : 16;
  if (value.length < least || value.length > VALUE_MAX) return false;
  if (!DIGIT.test(value) || !LETTER.test(value)) return false;
  if (value.includes('://') || value.startsWith('[REDACTED:')) return false;
  if (placeholderPassword(value) || NOT_A_VALUE.test(value) || CONSTANT_NAME.test(value)) {
    return false;
  }
  return acceptAssignment(keyword, value, false, next);
}

/** Characters that end a bare value: blanks, quotes, escapes, markdown's `*` and `|`. */
function bareEnd(c: number): boolean {
  return (
    c !== c || // NaN: the text's end
    c <= 0x20 ||
    c === 0x22 ||
    c === 0x27 ||
    c === 0x60 ||
    c === 0x5c ||
    c === 0x2a ||
    c === 0x7c ||
    c === 0x3c ||
    c === 0x3e
  );
}

/** Trailing punctuation of a sentence, not of a value read bare (`V, please`, `V.`). */
const SENTENCE_END = /[.,;:)]+$/;

/**
 * Pushes the value at `at` (after the blanks) if it is a secret: `` `V` `` (or `'V'`, `"V"` but in a cell)
 * whole, or a bare word, a sentence's trailing punctuation left out (not a cell's). `where`: after
 * a key (`**Password:** V`), in prose (`password is V`: a value of 8 or more), in a table's cell.
 */
function pushValue(
  text: string,
  at: number,
  keyword: string,
  out: Span[],
  where: 'key' | 'prose' | 'cell' = 'key',
): number {
  let i = at;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  const q = text.charCodeAt(i);
  let start = i;
  let end: number;
  if (q === 0x60 || (where !== 'cell' && (q === 0x22 || q === 0x27))) {
    start = i + 1;
    end = start;
    const stop = Math.min(text.length, start + VALUE_MAX);
    while (end < stop && text.charCodeAt(end) !== q) {
      const c = text.charCodeAt(end);
      if (c === 0x0a || c === 0x0d || c === 0x5c || c === 0x20 || c === 0x09) return -1;
      end++;
    }
    if (text.charCodeAt(end) !== q) return -1;
  } else {
    end = start;
    const stop = Math.min(text.length, start + VALUE_MAX);
    while (end < stop && !bareEnd(text.charCodeAt(end))) end++;
    if (end === stop && end < text.length) return -1;
    if (where !== 'cell') {
      const cut = SENTENCE_END.exec(text.slice(start, end));
      if (cut) end -= cut[0].length;
    }
  }
  if (end <= start) return -1;
  const value = text.slice(start, end);
  // A sentence's value is a longer word (`password was reset2 times`).
  if (where === 'prose' && value.length < 8) return -1;
  if (!secretValue(keyword, value, text[end] ?? '')) return -1;
  out.push({ start, end, kind: 'password' });
  return end;
}

// --- keys --------------------------------------------------------------------------------------

/** A key's characters: a name's, and blanks between its words (`API Key`, `DB password`). */
function keyChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x20
  );
}

/**
 * The key word of a markdown key (its words joined by `_`: `API Key` reads `API_Key`) if it
 * names a password, a token, a secret or a key (./keys secretKey), or null. Not `auth` alone
 * (`**Auth:** OAuth2`) nor a cookie.
 */
function keyWord(key: string): string | null {
  const name = key.trim().replace(/[ ]+/g, '_');
  if (name.length < 3 || name.length > KEY_MAX) return null;
  const rule = secretKey(name);
  if (rule === null || rule.kind !== 'password' || /^auth$/i.test(rule.keyword)) return null;
  return rule.keyword;
}

/**
 * `**Password:** V`, `*Password:* V` (the `:` inside the emphasis), `**Password**: V`,
 * `**\`DB_PASSWORD\`**: \`V\`` (after it): the emphasis holds the key alone.
 */
function boldKeys(text: string, out: Span[]): void {
  for (let at = text.indexOf(':*'); at >= 0; at = text.indexOf(':*', at + 2)) {
    const end = boldKey(text, at, true, out);
    if (end > at) at = end - 2;
  }
  for (let at = text.indexOf('*:'); at >= 0; at = text.indexOf('*:', at + 2)) {
    const end = boldKey(text, at + 1, false, out);
    if (end > at) at = end - 2;
  }
}

/** The key and value around the `:` at `at`, inside its emphasis (`after`) or after it. */
function boldKey(text: string, at: number, after: boolean, out: Span[]): number {
  // The key's end (before its closing `*`s and backtick when the `:` follows them).
  let e = at;
  if (!after) {
    while (e > 0 && text.charCodeAt(e - 1) === 0x2a && at - e < 3) e--;
  }
  if (text.charCodeAt(e - 1) === 0x60) e--;
  let s = e;
  const stop = Math.max(0, e - KEY_MAX);
  while (s > stop && keyChar(text.charCodeAt(s - 1))) s--;
  if (text.charCodeAt(s - 1) === 0x60) s--;
  if (s === e || text.charCodeAt(s - 1) !== 0x2a) return -1;
  const word = keyWord(text.slice(s, e).replace(/`/g, ''));
  if (word === null) return -1;
  let v = at + 1;
  if (after) {
    while (text.charCodeAt(v) === 0x2a && v - at <= 2) v++;
  }
  const c = text.charCodeAt(v);
  if (c !== 0x20 && c !== 0x09) return -1;
  return pushValue(text, v, word, out);
}

/** `API Key: V`, `Api key = V`, `secret key: V`: a key of two words before `:` or `=`. */
function spacedKeys(text: string, out: Span[]): void {
  for (const needle of SPACED_KEYS) {
    for (let k = text.indexOf(needle, 1); k >= 0; k = text.indexOf(needle, k + 3)) {
      if (text.charCodeAt(k - 1) === 0x20) spacedKey(text, k, out);
    }
  }
}
const SPACED_KEYS = ['key', 'Key', 'KEY'];

/** The key of two words whose `key` starts at `k` (after a blank at k - 1). */
function spacedKey(text: string, k: number, out: Span[]): void {
  let i = k + 3;
  if (keyChar(text.charCodeAt(i)) && text.charCodeAt(i) !== 0x20) return;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  const sep = text.charCodeAt(i);
  if (sep !== 0x3a && sep !== 0x3d) return;
  const n = text.charCodeAt(i + 1);
  // Not `key::`, `key ==`, `key =>`, `key: *` (markdown's, boldKeys').
  if (n !== 0x20 && n !== 0x09) return;
  // The word before: letters only (`API`, `secret`, `Access`).
  let s = k - 1;
  const stop = Math.max(0, s - 16);
  while (s > stop && isLetter(text.charCodeAt(s - 1))) s--;
  if (s === k - 1 || isLetter(text.charCodeAt(s - 1))) return;
  const word = keyWord(`${text.slice(s, k - 1)}_key`);
  if (word === null) return;
  pushValue(text, i + 1, word, out);
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

// --- sentences ---------------------------------------------------------------------------------

/**
 * What a sentence puts between `password` and its value: ` is `, ` was `, ` - `, a dash, ` to `
 * (`I set the root password to V`), and what it is for (`password for the admin account is V`,
 * review 25: up to four words).
 */
const SENTENCE_SEP =
  /(?:s)?(?:[ \t]+(?:for|of|on)(?:[ \t]+[\w.@-]{1,32}){1,4}?)?[ \t]+(?:is|was|to|-|–|—)[ \t]+(?=\S)/y;
/** Words before `password V` that make V its value (`Use password V`, `with password V`). */
const USE_BEFORE = /(?:^|[^A-Za-z])(?:[uU]se|[wW]ith)(?:[ \t]+the)?[ \t]+$/;
/**
 * A heading that names the password, then its value alone on a line after blank lines
 * (`### Admin password\n\nV`, review 25).
 */
const HEADING_VALUE =
  /[ \t]*:?[ \t]*\r?\n(?:[ \t]*\r?\n){0,2}[ \t]*(?=[^\s#|>*-][^\s]*[ \t]*(?:\r?\n|$))/y;

/**
 * `my password is V`, `The DB password is V, please use it`, `password - V`; after a user
 * named before it, a blank alone (review 24: `username admin password V`).
 */
function passwordSentences(text: string, out: Span[]): void {
  for (let k = text.indexOf('assword'); k >= 0; k = text.indexOf('assword', k + 7)) {
    const p = text.charCodeAt(k - 1);
    if (p !== 0x70 && p !== 0x50) continue;
    if (k >= 2 && isLetter(text.charCodeAt(k - 2))) continue;
    SENTENCE_SEP.lastIndex = k + 7;
    if (SENTENCE_SEP.test(text)) {
      pushValue(text, SENTENCE_SEP.lastIndex, 'password', out, 'prose');
    } else if (
      isBlank(text.charCodeAt(k + 7)) &&
      (userBefore(text, k - 1) || USE_BEFORE.test(text.slice(Math.max(0, k - 17), k - 1)))
    ) {
      pushValue(text, k + 7, 'password', out, 'prose');
    } else if (headingAt(text, k - 1)) {
      HEADING_VALUE.lastIndex = k + 7;
      if (HEADING_VALUE.test(text))
        pushValue(text, HEADING_VALUE.lastIndex, 'password', out, 'prose');
    }
  }
  // `user admin pass V` (review 25), as `username admin password V`.
  for (let k = text.indexOf(' pass '); k >= 0; k = text.indexOf(' pass ', k + 5)) {
    if (userBefore(text, k + 1)) pushValue(text, k + 5, 'password', out, 'prose');
  }
}

/** Whether the line holding `at` is a markdown heading (`# `…`###### `) of a few words. */
function headingAt(text: string, at: number): boolean {
  let i = at;
  while (i >= 0 && i > at - 64 && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i--;
  if (i <= at - 64) return false;
  let h = i + 1;
  while (text.charCodeAt(h) === 0x23) h++;
  return h > i + 1 && h <= i + 7 && text.charCodeAt(h) === 0x20;
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
/** `user admin `, `username: admin `, `login admin ` ending at `at` (a blank before it). */
const USER_BEFORE =
  /(?:^|[^A-Za-z])(?:[uU]ser(?:name)?|[lL]ogin)[ \t]*:?[ \t]+[\w.@+-]{1,64}[ \t]+$/;
function userBefore(text: string, at: number): boolean {
  if (!isBlank(text.charCodeAt(at - 1))) return false;
  return USER_BEFORE.test(text.slice(Math.max(0, at - 96), at));
}

/** What a sentence puts between a key's name and its value: ` is `, ` was `. */
const KEY_SENTENCE = [' is ', ' was '];
/**
 * `my api key is V`, `the access token is V`, `the client secret was V` (review 24): a key's
 * name of one or two words (./keys secretKey; `key` after the word that makes it a secret's)
 * before ` is ` or ` was `, a value read as prose's.
 */
function keySentences(text: string, out: Span[]): void {
  for (const sep of KEY_SENTENCE) {
    for (let k = text.indexOf(sep); k >= 0; k = text.indexOf(sep, k + sep.length)) {
      let s = k;
      const stop = Math.max(0, k - 16);
      while (s > stop && isLetter(text.charCodeAt(s - 1))) s--;
      if (s === k || isLetter(text.charCodeAt(s - 1))) continue;
      const last = text.slice(s, k);
      const lower = last.toLowerCase();
      if (lower.endsWith('assword')) continue; // passwordSentences'
      let word: string | null = null;
      if (lower === 'token' || lower === 'secret') word = keyWord(last);
      if (lower === 'token' || lower === 'secret' || lower === 'key') {
        // The word before: `api key`, `access token`, `client secret`.
        let b = s - 1;
        if (text.charCodeAt(b) !== 0x20) {
          if (word === null) continue;
        } else {
          const bStop = Math.max(0, b - 16);
          while (b > bStop && isLetter(text.charCodeAt(b - 1))) b--;
          if (b < s - 1 && !isLetter(text.charCodeAt(b - 1))) {
            word = keyWord(`${text.slice(b, s - 1)}_${last}`) ?? word;
          }
        }
      }
      if (word === null) continue;
      pushValue(text, k + sep.length, word, out, 'prose');
    }
  }
}

/**
 * `login: admin / V`, `Login: admin / V`: a user, then its password after ` / `; or after a
 * `/` glued (review 24: `login: admin/V`), the value one word with no `/` or `.` (no path).
 */
const LOGIN_PAIR = /[ \t]+[\w.@+-]{1,64}[ \t]+\/[ \t]+(?=\S)/y;
const LOGIN_GLUED = /[ \t]+[\w.@+-]{1,64}\/(?=[A-Za-z0-9])/y;
function loginPairs(text: string, out: Span[]): void {
  for (let k = text.indexOf('gin:'); k >= 0; k = text.indexOf('gin:', k + 4)) {
    const o = text.charCodeAt(k - 1);
    const l = text.charCodeAt(k - 2);
    if (o !== 0x6f || (l !== 0x6c && l !== 0x4c)) continue;
    if (k >= 3 && isLetter(text.charCodeAt(k - 3))) continue;
    LOGIN_PAIR.lastIndex = k + 4;
    if (LOGIN_PAIR.test(text)) {
      pushValue(text, LOGIN_PAIR.lastIndex, 'password', out, 'prose');
      continue;
    }
    LOGIN_GLUED.lastIndex = k + 4;
    if (!LOGIN_GLUED.test(text)) continue;
    const found: Span[] = [];
    if (pushValue(text, LOGIN_GLUED.lastIndex, 'password', found, 'prose') < 0) continue;
    const value = text.slice(found[0].start, found[0].end);
    if (!value.includes('/') && !value.includes('.')) out.push(found[0]);
  }
}

// --- tables ------------------------------------------------------------------------------------

/**
 * Whether a line starts at `i`: the text's start, a line break, a JSON string's escaped one
 * (`\n`, `\\n`) or its opening quote.
 */
function lineStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i - 1);
  if (c === 0x0a || c === 0x0d || c === 0x22) return true;
  return (c === 0x6e || c === 0x72) && text.charCodeAt(i - 2) === 0x5c;
}

/** Where the line from `i` ends: a line break, an escaped one, at most ROW_MAX on; -1 past it. */
function lineEnd(text: string, i: number): number {
  const stop = Math.min(text.length, i + ROW_MAX);
  for (let k = i; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a || c === 0x0d) return k;
    if (c === 0x5c) {
      let j = k;
      while (text.charCodeAt(j) === 0x5c) j++;
      const d = text.charCodeAt(j);
      if (d === 0x6e || d === 0x72) return k;
      k = j - 1;
    }
  }
  return stop === text.length ? stop : -1;
}

/** A row's cells between its `|`s: [start, end) of each, blanks trimmed. */
function cells(text: string, from: number, to: number): number[] {
  const out: number[] = [];
  let a = from + 1;
  for (let k = a; k < to && out.length < 2 * CELLS_MAX; k++) {
    if (text.charCodeAt(k) !== 0x7c || text.charCodeAt(k - 1) === 0x5c) continue;
    let s = a;
    let e = k;
    while (s < e && (text.charCodeAt(s) === 0x20 || text.charCodeAt(s) === 0x09)) s++;
    while (e > s && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
    out.push(s, e);
    a = k + 1;
  }
  return out;
}

/** A header's separator row: `|---|:---:|`, cells of dashes (a colon either side). */
const SEPARATOR_CELL = /^:?-+:?$/;

/** A key cell's name, its emphasis and backticks left out. */
function cellKey(text: string, s: number, e: number): string | null {
  const cell = text.slice(s, e).replace(/[*`]/g, '');
  for (let i = 0; i < cell.length; i++) if (!keyChar(cell.charCodeAt(i))) return null;
  return keyWord(cell);
}

/**
 * A value cell's value: a single word, maybe in backticks (pushValue reads it); a value in
 * backticks may have a note after it (`| Password | \`V\` (rotate monthly) |`).
 */
function cellValue(text: string, s: number, e: number, keyword: string, out: Span[]): void {
  if (e <= s) return;
  let a = s;
  let b = e;
  while (text.charCodeAt(a) === 0x2a && a < b) a++;
  while (text.charCodeAt(b - 1) === 0x2a && b > a) b--;
  const found: Span[] = [];
  const end = pushValue(text, a, keyword, found, 'cell');
  if (end < 0) return;
  if (text.charCodeAt(a) === 0x60) {
    // The whole of its backticks, then a blank or the cell's end.
    const c = text.charCodeAt(end + 1);
    if (end + 1 !== b && c !== 0x20 && c !== 0x09) return;
  } else if (end !== b) return;
  for (const f of found) out.push(f);
}

/**
 * Tables: a row naming a secret in a cell, its value in the next (`| Password | \`V\` |`); a
 * header naming secret columns, their cells in each row below until the table ends.
 */
function tables(text: string, out: Span[]): void {
  let columns: { index: number; keyword: string }[] = [];
  for (let at = text.indexOf('|'); at >= 0; at = text.indexOf('|', at + 1)) {
    // A row: `|` first on its line (after blanks).
    let s = at;
    while (
      s > 0 &&
      at - s < 8 &&
      (text.charCodeAt(s - 1) === 0x20 || text.charCodeAt(s - 1) === 0x09)
    )
      s--;
    if (!lineStart(text, s)) continue;
    const end = lineEnd(text, at);
    if (end < 0) {
      columns = [];
      continue;
    }
    const row = cells(text, at, end);
    if (row.length === 0) {
      at = end;
      continue;
    }
    const next = nextRowCells(text, end);
    if (next !== null && isSeparator(text, next)) {
      // A header: its secret columns.
      columns = [];
      for (let i = 0; i < row.length; i += 2) {
        const keyword = cellKey(text, row[i], row[i + 1]);
        if (keyword !== null) columns.push({ index: i, keyword });
      }
    } else if (!isSeparator(text, row)) {
      for (const { index, keyword } of columns) {
        if (index < row.length) cellValue(text, row[index], row[index + 1], keyword, out);
      }
      for (let i = 0; i + 3 < row.length; i += 2) {
        const keyword = cellKey(text, row[i], row[i + 1]);
        if (keyword !== null) cellValue(text, row[i + 2], row[i + 3], keyword, out);
      }
    }
    // The table ends where the next line is no row.
    if (next === null) columns = [];
    at = end;
  }
}

/** The cells of the row on the line after `end` (its line break), or null when it is no row. */
function nextRowCells(text: string, end: number): number[] | null {
  let i = end;
  if (text.charCodeAt(i) === 0x5c) {
    while (text.charCodeAt(i) === 0x5c) i++;
    i++;
  } else {
    if (text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    i++;
  }
  const stop = Math.min(text.length, i + 8);
  while (i < stop && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (text.charCodeAt(i) !== 0x7c) return null;
  const e = lineEnd(text, i);
  return e < 0 ? null : cells(text, i, e);
}

function isSeparator(text: string, row: number[]): boolean {
  if (row.length === 0) return false;
  for (let i = 0; i < row.length; i += 2) {
    if (!SEPARATOR_CELL.test(text.slice(row[i], row[i + 1]))) return false;
  }
  return true;
}
