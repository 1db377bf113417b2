import { backslashesBefore } from './backslashes';

/**
 * Longest value one regex call reads: a repeated group over megabytes can overflow V8's regex
 * backtrack stack (RangeError), so a longer value is followed by `valueEnd`.
 */
export const VALUE_MAX = 1024;
/** ASCII characters that end a bare value (as the detectors' classes): blanks, quotes, `,;&|<>(){}[]`. */
const BARE_STOP = new Uint8Array(128);
for (const c of ' \t\n\v\f\r"\'`\\,;&|<>(){}[]') BARE_STOP[c.charCodeAt(0)] = 1;
// Control characters end a bare value too (a NUL ends a C string in a binary file).
for (let c = 0; c < 0x20; c++) if (c < 0x09 || c > 0x0d) BARE_STOP[c] = 1;
BARE_STOP[0x7f] = 1;

/** Where a value that filled VALUE_MAX ends: `quote` closes it, or for a bare one BARE_STOP. */
export function valueEnd(text: string, from: number, quote: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x5c || c === quote) break;
    if (quote < 0 && (c < 0x80 ? BARE_STOP[c] === 1 : /\s/.test(text[i]))) break;
  }
  return i;
}

/**
 * Where a single-quoted value really ends when a quote inside it was written the shell's way,
 * `'\''` (close, an escaped quote, open again), or YAML's and SQL's, `''` (review 23: `export
 * DB_PASSWORD='it'\''sX9kLm3Qz'` and `password: 'Xy''quoteX9kLm3'` masked up to the inner
 * quote and left the rest clear). The same in a JSON line and JSON inside JSON (the shell's
 * backslash doubled). `end` is at the quote the value stopped at; answers `end` when it closes.
 */
export function singleQuotedEnd(text: string, end: number): number {
  const stop = Math.min(text.length, end + VALUE_MAX);
  let i = end;
  while (i < stop && text.charCodeAt(i) === 0x27) {
    let j = i + 1;
    if (text.charCodeAt(j) === 0x27) j++;
    else {
      let k = j;
      while (k < stop && text.charCodeAt(k) === 0x5c) k++;
      if (k === j || text.charCodeAt(k) !== 0x27 || text.charCodeAt(k + 1) !== 0x27) break;
      j = k + 2;
    }
    // Then the value goes on to its next quote, its line's end or a backslash (a JSON escape).
    let e = j;
    for (; e < stop; e++) {
      const c = text.charCodeAt(e);
      if (c === 0x27 || c === 0x0a || c === 0x0d || c === 0x5c) break;
    }
    // `''` then the quote again, or nothing: an empty string follows, not a value going on.
    if (e === j) break;
    i = e;
  }
  return i;
}

/** What a backslash inside a value may not be followed by: a JSON escape that ends the value. */
const ESCAPE_STOP = new Uint8Array(128);
for (const c of 'ntrbfu"\'`/ \t\n\r') ESCAPE_STOP[c.charCodeAt(0)] = 1;

/** The letters a JSON escape names a control character or a code unit with. */
const ESCAPE_LETTER = new Uint8Array(128);
for (const c of 'ntrbfu') ESCAPE_LETTER[c.charCodeAt(0)] = 1;

/** What may stand between a password and its tail in valueAfterBackslash: the escape letters and `/`. */
const TAIL_ESCAPE = new Uint8Array(128);
for (const c of 'ntrbfu/') TAIL_ESCAPE[c.charCodeAt(0)] = 1;

/**
 * Where a value the detectors ended at a backslash (their classes stop there) really ends
 * (review 9: `mysql -pPw\R9T03zk8mT4v` masked `Pw` only). Read the same in decoded text and in
 * a raw JSON line, at any depth of JSON inside JSON: a run of backslashes before a character
 * no JSON escape starts with (`\R`, `\\R`: an escaped backslash) goes on; before `n`, `t`,
 * `r`, `"`, `u`, `/`... (an escape at some depth: the value's end there) it stops the value. A value opened by a
 * quote (`quote`, its code, or -1) then runs to that quote or the line's end, a bare one to
 * BARE_STOP; at most VALUE_MAX characters more. `end` is at the backslash; answers `end` when
 * nothing goes on.
 */
export function valueAfterBackslash(text: string, end: number, quote: number): number {
  let i = end;
  const stop = Math.min(text.length, end + VALUE_MAX);
  let last = end;
  while (i < stop) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) {
      // A run of backslashes: an escape at some level of JSON inside JSON when what follows
      // it would be one (`\\n` is a compact argument's line break), else part of the value.
      let j = i + 1;
      while (j < stop && text.charCodeAt(j) === 0x5c) j++;
      const n = text.charCodeAt(j);
      // In double quotes `\`` is the shell's escaped backtick, part of the value (review 23:
      // `DB_PASSWORD="Jh\`Xm2…"` masked `Jh`); JSON has no such escape.
      const shellTick = n === 0x60 && quote === 0x22;
      if (Number.isNaN(n) || (n < 0x80 && ESCAPE_STOP[n] === 1 && !shellTick)) {
        // `\/` as an escape letter (review r13: `DB_PASSWORD=Pw\/Vq7…` masked `Pw`): README
        // lists `/` among the escapes, and JSON's `\/` is a `/` the value holds anyway.
        if (quote >= 0 || TAIL_ESCAPE[n] !== 1 || !passwordTail(text, j + 1)) break;
      }
      i = j + 1;
      last = i;
      continue;
    }
    if (c === 0x0a || c === 0x0d || c === quote) break;
    if (quote < 0 && (c < 0x80 ? BARE_STOP[c] === 1 : /\s/.test(text[i]))) break;
    i++;
    last = i;
  }
  return Math.min(last, stop);
}

/** Shortest tail passwordTail takes: `Pw\nW63vexlc…`, never a short word or number. */
export const TAIL_MIN = 8;

/**
 * Whether the characters from `at` are the rest of a password cut by an escape letter before
 * them (`mysql -pPw\nW63vexlchKsAao` in a JSON line): at least TAIL_MIN letters and digits, both,
 * and nothing else up to a bare value's end (review 12's follow-up). A line a line break starts
 * is rarely one such token: `API_URL=http…`, `ls -la`, `Login succeeded` are not.
 */
export function passwordTail(text: string, at: number): boolean {
  let letter = false;
  let digit = false;
  let k = at;
  for (; k < text.length && k - at <= VALUE_MAX; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0x30 && c <= 0x39) digit = true;
    else if (isLetter(c)) letter = true;
    else break;
  }
  const c = text.charCodeAt(k);
  const ends = Number.isNaN(c) || (c < 0x80 && BARE_STOP[c] === 1);
  return ends && letter && digit && k - at >= TAIL_MIN;
}

/**
 * The runs of backslashes in `text` that a value holds as characters, as [start, end) pairs:
 * before a character no JSON escape starts with (`\g`, `\\g`: see valueAfterBackslash), and a
 * shell-escaped blank with its blank (`Pw\ qo86`). In a text without a `"` (no JSON text: a
 * command line as typed), two or more before an escape letter too: `-pPw\\nW63…` is the
 * password `Pw\\nW63…` there, where a JSON-inside-JSON line would hold a line break (review 11).
 * Found with indexOf: a text without a backslash costs one pass. Also, marked in `leads`, the
 * runs that only may start a value (valueStart): the redactor keeps those where a detector
 * reads a value starting right at one.
 */
export function literalBackslashes(text: string): { runs: Int32Array; leads: Uint8Array } {
  // Typed arrays grown by doubling: an array of numbers pushed 700,000 times (`=\\n`
  // repeated over 1 MB) cost more than finding the runs. `leads`, one per run: 1 where the
  // run only may start a value (valueStart).
  let runs = new Int32Array(16);
  let leads = new Uint8Array(8);
  let n = 0;
  const add = (start: number, end: number, lead = 0): void => {
    if (n + 2 > runs.length) {
      const grown = new Int32Array(runs.length * 2);
      grown.set(runs);
      runs = grown;
      const more = new Uint8Array(leads.length * 2);
      more.set(leads);
      leads = more;
    }
    leads[n >> 1] = lead;
    runs[n++] = start;
    runs[n++] = end;
  };
  let quoteless: boolean | undefined;
  // The quoted token the last run read by quotedInside stands in: the runs after it in the
  // same token are inside it too (`'a\"b\"c'`: the second one's nearest quote is the first's).
  const token: Token = { open: -1, close: -1 };
  // The quoted token inValue last read a run inside: the runs after it up to its closing quote
  // are the value's too (`password: "Xy\tAb\tCd…"`, review 23).
  const held: Token = { open: -1, close: -1 };
  // Where the last run read as a value's start ends with its letter: a run right there goes on
  // with the value (`password: \t\t…`, `-p \/\/…`: review r13).
  let chain = -1;
  for (let i = text.indexOf('\\'); i >= 0;) {
    let j = i + 1;
    while (text.charCodeAt(j) === 0x5c) j++;
    const c = text.charCodeAt(j);
    if (c === 0x20) add(i, j + 1);
    else if (!Number.isNaN(c) && (c >= 0x80 || ESCAPE_STOP[c] !== 1)) {
      add(i, j);
      chain = j + 1;
    } else if (c === 0x75 && asciiEscape(text, i, j)) {
      add(i, j);
      chain = j + 5;
    } else if (j - i >= 2 && ESCAPE_LETTER[c] === 1 && (quoteless ??= !text.includes('"'))) {
      add(i, j);
      chain = j + 1;
    } else if (
      c < 0x80 &&
      VALUE_LETTER[c] === 1 &&
      ((i === chain && c !== 0x6e && c !== 0x72) || inValue(text, i, j, held))
    ) {
      add(i, j);
      chain = j + 1;
    } else if ((c === 0x22 || c === 0x27) && quotedInside(text, i, j, token)) {
      // An escaped quote inside a quoted value, read with its quote (review r17 HIGH 2); one
      // a value may start at too (`'Vq7 \"Hq7…'`: see valueStart).
      const start =
        i === token.open + 1 ||
        text.charCodeAt(i - 1) === 0x3a ||
        (c === 0x22 && valueStart(text, i, j));
      add(i, j + 1, INNER | (start ? INNER_START : 0) | (j + 1 === token.close ? INNER_CLOSE : 0));
      chain = j + 1;
    } else if (c < 0x80 && LEAD[c] === 1 && valueStart(text, i, j)) {
      // An escaped quote is read with its quote: `\"Vq7…` is the value `"Vq7…` typed.
      add(i, c === 0x22 ? j + 1 : j, LEAD_RUN);
      chain = j + 1;
    }
    i = text.indexOf('\\', j);
  }
  return { runs: runs.subarray(0, n), leads: leads.subarray(0, n >> 1) };
}

/** Characters a `\u00XX` escape inside a token may not name (asciiEscape): Go's HTML escapes. */
const HTML_ESCAPED = new Set([0x3c, 0x3e, 0x26]);

/**
 * Whether the run [i, j) and the `u` after it are a `\u00XX` escape of a printable ASCII
 * character inside a token (review r19: `Bearer Xk9\u0041Vq7…`, `password: 'Xk9\u0022Vq7'`):
 * the character is the value's at any JSON depth, decoded or written as the escape, so the
 * run is read as a value's characters. Not after a blank, quote or separator (where a value may
 * start: valueStart, inValue decide), nor naming `<`, `>`, `&` (Go's encoder writes those in
 * every JSON line).
 */
function asciiEscape(text: string, i: number, j: number): boolean {
  const before = text.charCodeAt(i - 1);
  if (!(before < 0x80 && TOKEN_CHAR[before] === 1)) return false;
  if (text.charCodeAt(j + 1) !== 0x30 || text.charCodeAt(j + 2) !== 0x30) return false;
  const hi = hexDigit(text.charCodeAt(j + 3));
  const lo = hexDigit(text.charCodeAt(j + 4));
  if (hi < 0 || lo < 0) return false;
  const code = hi * 16 + lo;
  return code > 0x20 && code < 0x7f && !HTML_ESCAPED.has(code);
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** What a token's character before a `\u00XX` escape may be (asciiEscape): not blank, quote, separator. */
const TOKEN_CHAR = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) TOKEN_CHAR[c] = 1;
for (const c of '"\'`\\:=,;(){}[]<>') TOKEN_CHAR[c.charCodeAt(0)] = 0;

/** `leads` of a run that only may start a value (valueStart). */
export const LEAD_RUN = 1;
/**
 * `leads` of an escaped quote inside a quoted token (quotedInside): a span over one is kept where
 * it starts and ends inside the token or at its quotes (`'Xk9\"V'`, `-p'Xk9\"'`), not at
 * such a run elsewhere (`"He said \"password: hunter2\" ok"`: those quotes are no value's;
 * INNER_START, INNER_CLOSE).
 */
export const INNER = 2;
/**
 * With INNER: a value may start at the run: right after the token's opening quote, or after a
 * user's `:` (`'bob:\'Xk9…'`); not after a blank (`"say \"password…`) or an `=` (`sed
 * 's/password=\"old\"/…/'`: a value in escaped quotes, masked inside them as before).
 */
export const INNER_START = 4;
/** With INNER: the run's quote stands right before the token's closing quote. */
export const INNER_CLOSE = 8;

/** A quoted token's opening and closing quotes (offsets), as quotedInside found them. */
interface Token {
  open: number;
  close: number;
}

/**
 * Whether the run of backslashes [i, j) and the quote after it (`"` or `'`) stand inside a
 * token quoted on both sides (review r17 HIGH 2: `export DB_PASSWORD='Xk9\"V'`,
 * `mysql -p"Xk9\"V"`): an escaped quote the value holds, read the same decoded and in a JSON
 * line at any depth. The token's opening quote is the nearest quote before the run on the line
 * (bounded); it opens a value (a `'` at a word's start or after a short option, a `"` as
 * `opens` says), and a closing quote follows on the line. A `"` token's level is the count of
 * backslashes before its opening quote, m (0 decoded, 1 in a JSON line, 3 in JSON inside
 * JSON): a quote after m + k(m+1) backslashes is the text's `"` after k backslashes, escaped
 * when k is odd (the run's own quote: inside; the closing quote: skipped), closing when k is
 * even; any other count is a quote of the JSON around the token (its end: no closing quote). In a
 * `'` token, whose level the quote does not tell (JSON leaves `'` as it is), a `'` without a
 * backslash closes it, and a `"` after fewer backslashes than the run's (a JSON string's end at
 * the run's level or below) ends the look. `token`: the token last found, which holds the
 * runs after this one up to its closing quote.
 */
function quotedInside(text: string, i: number, j: number, token: Token): boolean {
  if (i > token.open && j < token.close) return true;
  const lo = Math.max(0, i - AROUND);
  let a = i - 1;
  for (; a >= lo; a--) {
    const c = text.charCodeAt(a);
    if (c === 0x27 || c === 0x22 || c === 0x60) break;
    if (c === 0x0a || c === 0x0d) return false;
  }
  if (a < lo) return false;
  const q = text.charCodeAt(a);
  const m = backslashesBefore(text, a);
  const n = j - i;
  // A JavaScript template literal (review r19: const password = `Xk9\"Vq7`) reads as a `'` token.
  if (q === 0x27 || q === 0x60) {
    if (m > 0 || !opensSingle(text, a)) return false;
  } else {
    if (!opens(text, a) && !yamlValue(text, a - m)) return false;
    if (text.charCodeAt(j) === 0x22 && quoteLevel(n, m) % 2 !== 1) return false;
  }
  const stop = Math.min(text.length, j + 1 + VALUE_MAX);
  for (let k = j + 1; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a || c === 0x0d) return false;
    if (c !== q && c !== 0x22) continue;
    const b = backslashesBefore(text, k, j + 1);
    if (q === 0x27 || q === 0x60) {
      if (c === q && b === 0) return found(token, a, k);
      if (c === 0x22 && b < n) return false;
      continue;
    }
    const level = quoteLevel(b, m);
    if (level < 0) return false;
    if (level % 2 === 0) return found(token, a, k);
  }
  return false;
}

function found(token: Token, open: number, close: number): true {
  token.open = open;
  token.close = close;
  return true;
}

/**
 * The count of backslashes the text before a JSON string's escaping had before a `"` that `b`
 * stand before in a token whose opening quote `m` stand before (b = m + k(m+1)); -1 when `b`
 * is no such count.
 */
function quoteLevel(b: number, m: number): number {
  const k = (b - m) / (m + 1);
  return k >= 0 && Number.isInteger(k) ? k : -1;
}

/**
 * Whether a quote at `a` (its backslashes before it) follows a YAML key's `:` and blanks
 * (`password: "Xk9\"V"`), where opens reads a JSON string: an unquoted key, a word before
 * the `:`.
 */
function yamlValue(text: string, a: number): boolean {
  let k = a - 1;
  while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k--;
  return k < a - 1 && text.charCodeAt(k) === 0x3a && isWord(text.charCodeAt(k - 1));
}

/**
 * Whether the `'` at `a` may open a quoted value: at the line's start, after a blank, `=`, `:`,
 * `,`, `(`, `[`, `{`, or glued to a short option (`-p'…'`); not an apostrophe (`it's`).
 */
function opensSingle(text: string, a: number): boolean {
  const c = text.charCodeAt(a - 1);
  if (Number.isNaN(c) || blank(c)) return true;
  if (c === 0x3d || c === 0x3a || c === 0x2c || c === 0x28 || c === 0x5b || c === 0x7b) return true;
  return isLetter(c) && text.charCodeAt(a - 2) === 0x2d;
}

/**
 * What a value may start with after a backslash where a blank, a user's `:` or a YAML key's
 * quote stands before it (review r15 L1, see valueStart): not `n` or `r` (a prompt, then the
 * next line).
 */
const LEAD = new Uint8Array(128);
for (const c of 'tbfu/"') LEAD[c.charCodeAt(0)] = 1;

/**
 * Whether the run [i, j) before a LEAD character may start a value (review r15 L1:
 * `mysqladmin password \/…`, `Authorization: Bearer \/…`, `xfreerdp /p:\/…`,
 * `curl --user=bob:\/…`, YAML `password: "\t\t…"`): after a blank, after `:` that a word ends, or after a quote that opens
 * a YAML or shell value (`key: "`, `key='`). A guess only: such a run is kept by the redactor
 * when a detector reads a value starting right at it, where it reads the same value typed
 * plain. An escaped quote after a blank, not after `: ` or `, ` (JSON inside JSON: the decoded
 * text is read for those).
 */
function valueStart(text: string, i: number, j: number): boolean {
  const c = text.charCodeAt(j);
  // Some value after the escape (a run goes on with it: `\t\t…`): `Password: \t"` holds none.
  const next = text.charCodeAt(j + 1);
  if (blank(next) || next === 0x22 || next === 0x27) return false;
  const before = text.charCodeAt(i - 1);
  if (before === 0x20 || before === 0x09) {
    if (c !== 0x22) return true;
    const key = text.charCodeAt(i - 2);
    return key !== 0x3a && key !== 0x2c && !blank(key) && !closed(text, j + 1);
  }
  if (before === 0x3a) return isWord(text.charCodeAt(i - 2));
  if (before !== 0x22 && before !== 0x27) return false;
  let k = i - 2;
  while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k--;
  const sep = text.charCodeAt(k);
  return (sep === 0x3a || sep === 0x3d) && isWord(text.charCodeAt(k - 1));
}

/**
 * Whether a quote follows on the line from `k` (bounded): `password \"esc pw\"` is a value in
 * escaped quotes, which the detectors read without them; a lone `\"` starts one.
 */
function closed(text: string, k: number): boolean {
  for (const stop = Math.min(text.length, k + AROUND); k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x22) return true;
    if (c === 0x0a || c === 0x0d) return false;
  }
  return false;
}

/** The letters after a backslash that a value may still hold (review 12): JSON escape letters and `/`. */
const VALUE_LETTER = new Uint8Array(128);
for (const c of 'ntrbfu/') VALUE_LETTER[c.charCodeAt(0)] = 1;

/** How far inValue looks either side of a run for the quotes or the URL around it. */
const AROUND = 128;

/** A blank, or a real line break: what a quoted token or a URL does not hold. */
function blank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || Number.isNaN(c);
}

/**
 * Whether the run of backslashes [i, j) before an escape letter (or `/`) is a value's
 * characters (review 12), though in a raw JSON line it could be an escape: (1) it stands inside
 * a token quoted on both sides with the same quote and no blank (`-p'Pw\nZq…'`,
 * `"\\nmF…"`, a JSON-escaped `\"…\"` pair: a real line break inside a quoted password is
 * no plausible reading, over-masking one is harmless); (2) it starts a value right after `=` or
 * a glued short option (`DB_PASSWORD=\t…`, `-p\/sD3…`: a tab or line break there followed by
 * letters is no plausible reading either); (3) it stands in a URL's password
 * (`://app:ab\frz…@db`, `://app:\fZq…@db`); (4) it starts a value after `key: ` or a short
 * option and a blank (`password: \t…`, `-p \/…`), not before `n` or `r` (a prompt, then the
 * next line). An unquoted value with one in its middle is read on by valueAfterBackslash only
 * when a password-like tail follows (passwordTail). `held`: the token (1) last found, whose
 * later runs are inside it too (the look back stops at a run before).
 */
function inValue(text: string, i: number, j: number, held: Token): boolean {
  // Some value character between its letter and the closing quote, as below.
  if (i > held.open && j + 1 < held.close) return true;
  const before = text.charCodeAt(i - 1);
  const letter = text.charCodeAt(j);
  // Before `n` or `r` at a value's start, (2) and (5), only a password-like tail (review r16
  // H2: `mysql -u root -p\nEnter password:` and `curl -u bob:\nhttps://…` masked the next
  // line in the raw JSON line, the decoded text none): what ./joins reads on in decoded text.
  const tail = (letter !== 0x6e && letter !== 0x72) || passwordTail(text, j + 1);
  // (2) a value's start: `KEY=\t…` (a key before the `=`), `-p\/…`
  // (not the letter of an escape: `\n=\t…` holds no key).
  if (before === 0x3d) {
    return tail && isWord(text.charCodeAt(i - 2)) && text.charCodeAt(i - 3) !== 0x5c;
  }
  if (
    text.charCodeAt(i - 2) === 0x2d &&
    isLetter(before) &&
    (i < 3 || blank(text.charCodeAt(i - 3)))
  )
    return tail;
  // A blank between: `password: \t…` (YAML, a prompt's answer), `-p \/…` (a short option).
  // Not before `n` or `r` there: a prompt's `Password: ` then the next line.
  if ((before === 0x20 || before === 0x09) && letter !== 0x6e && letter !== 0x72) {
    const key = text.charCodeAt(i - 2);
    if (key === 0x3a) return isWord(text.charCodeAt(i - 3));
    if (
      isLetter(key) &&
      text.charCodeAt(i - 3) === 0x2d &&
      (i < 4 || blank(text.charCodeAt(i - 4)))
    )
      return true;
    // A long option and a blank: `--password \/…` (review r12), as `--password=\/…`.
    if (isLetter(key)) return longOption(text, i - 2);
  }
  // (5) a password after a user's `:`, `%` or `,` given to an option (`curl -u bob:\/…`,
  // `smbclient -U bob%\/…`, `lftp -u bob,\/…`, `http -a bob:\/…`, `-passout pass:\/…`: r13).
  if ((before === 0x3a || before === 0x25 || before === 0x2c) && optionUser(text, i - 1))
    return tail;
  // (1) and (3): the token around the run, bounded.
  let a = i - 1;
  const lo = Math.max(0, i - AROUND);
  let colons = 0;
  for (; a >= lo; a--) {
    const c = text.charCodeAt(a);
    if (c === 0x27 || c === 0x22 || blank(c)) break;
    if (c === 0x3a) colons++;
    // Another run before it: that one decided, and each character is looked at once.
    if (c === 0x5c) return false;
  }
  const open = text.charCodeAt(a);
  const hi = Math.min(text.length, j + AROUND);
  // A YAML key's quoted value too (review 23: `password: "Xy\tTab…"` masked `Xy`, the rest
  // served on every route; `password = "Xy\tTab…"` was masked whole): a JSON string after
  // `"key":` stays one whose `\t` is a tab.
  const quote = open === 0x27 || open === 0x22;
  const level = backslashesBefore(text, a);
  const yaml = quote && !opens(text, a) && yamlValue(text, a - level);
  if (quote && (yaml || opens(text, a))) {
    // Some value character after the letter: `send "…\r"` ends with an escape, not in one.
    let some = false;
    for (let b = j + 1; b < hi; b++) {
      const c = text.charCodeAt(b);
      if (c === open) {
        // A YAML value's closing quote at its opening quote's JSON level: a `"` after fewer
        // backslashes ends the JSON string around it (`password: \"\nend"`: review 23).
        if (some && (!yaml || backslashesBefore(text, b, j + 1) === level)) {
          return found(held, a, b);
        }
        break;
      }
      if (blank(c) || c === 0x27 || c === 0x22) break;
      if (c !== 0x5c) some = true;
    }
  }
  // A URL's password needs `://` and a `:` after it: no slice for the common escape.
  if (colons < 2) return false;
  const head = text.slice(a + 1, i);
  const scheme = head.indexOf('://');
  const colon = scheme < 0 ? -1 : head.indexOf(':', scheme + 3);
  if (colon < 0 || head.includes('@')) return false;
  // `https://host:8080\nfoo@bar` is a port before a line break, not a password.
  if (/^\d+$/.test(head.slice(colon + 1))) return false;
  for (let b = j + 1; b < hi; b++) {
    const c = text.charCodeAt(b);
    if (c === 0x40) return true;
    if (blank(c) || c === 0x2f || c === 0x27 || c === 0x22) return false;
  }
  return false;
}

/**
 * Whether the quote at `a` opens a quoted value rather than a JSON (or YAML) string: one after
 * `:`, `,`, `[`, `{` or another quote (escaped or not, blanks between) delimits a string whose
 * `\n` is a line break (`{"c":"PGPASSWORD=Pw…\nnext"}`).
 */
function opens(text: string, a: number): boolean {
  let k = a - 1 - backslashesBefore(text, a);
  while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k--;
  const c = text.charCodeAt(k);
  return !(c === 0x3a || c === 0x2c || c === 0x5b || c === 0x7b || c === 0x22);
}

/**
 * Whether the `:`/`%`/`,` at `k` ends a user name (letters, digits, `_.-@`) that follows an
 * option: glued (`-ubob:`) or after a blank (`-u bob:`, `--user bob:`, `-passout pass:`).
 */
function optionUser(text: string, k: number): boolean {
  let a = k - 1;
  const stop = Math.max(0, k - AROUND);
  while (a >= stop && (isWord(text.charCodeAt(a)) || USER_CHAR.has(text.charCodeAt(a)))) a--;
  if (a === k - 1) return false;
  if (text.charCodeAt(a + 1) === 0x2d) return a < 0 || blank(text.charCodeAt(a));
  let b = a;
  while (b >= stop && (text.charCodeAt(b) === 0x20 || text.charCodeAt(b) === 0x09)) b--;
  if (b === a || (b >= 0 && !isLetter(text.charCodeAt(b)))) return false;
  while (b >= stop && isWord(text.charCodeAt(b))) b--;
  if (text.charCodeAt(b) !== 0x2d) return false;
  if (text.charCodeAt(b - 1) === 0x2d) b--;
  return b < 1 || blank(text.charCodeAt(b - 1));
}
const USER_CHAR = new Set([0x2e, 0x2d, 0x40]);

/** How long a long option's name longOption reads back. */
const OPTION_MAX = 40;

/** Whether the letter at `k` ends a long option (`--password`) that a blank or the text's start precedes. */
function longOption(text: string, k: number): boolean {
  const last = k;
  const stop = Math.max(0, k - OPTION_MAX);
  for (; k >= stop; k--) {
    const c = text.charCodeAt(k);
    if (isWord(c)) continue;
    if (c !== 0x2d) return false;
    if (text.charCodeAt(k - 1) === 0x2d) return k < 2 || blank(text.charCodeAt(k - 2));
    // Java's and OpenSSL's single-dash long options (`keytool -storepass \/…`, `influx
    // -password \/…`: review r13), a name of 4 letters or more.
    return last - k >= 4 && (k < 1 || blank(text.charCodeAt(k - 1)));
  }
  return false;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** A key's last character: a letter, a digit or `_`. */
function isWord(c: number): boolean {
  return isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}
