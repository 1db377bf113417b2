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

/** What a backslash inside a value may not be followed by: a JSON escape that ends the value. */
const ESCAPE_STOP = new Uint8Array(128);
for (const c of 'ntrbfu"\'`/ \t\n\r') ESCAPE_STOP[c.charCodeAt(0)] = 1;

/** The letters a JSON escape names a control character or a code unit with. */
const ESCAPE_LETTER = new Uint8Array(128);
for (const c of 'ntrbfu') ESCAPE_LETTER[c.charCodeAt(0)] = 1;

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
      if (Number.isNaN(n) || (n < 0x80 && ESCAPE_STOP[n] === 1)) break;
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

/**
 * The runs of backslashes in `text` that a value holds as characters, as [start, end) pairs:
 * before a character no JSON escape starts with (`\g`, `\\g`: see valueAfterBackslash), and a
 * shell-escaped blank with its blank (`Pw\ qo86`). In a text without a `"` (no JSON text: a
 * command line as typed), two or more before an escape letter too: `-pPw\\nW63…` is the
 * password `Pw\\nW63…` there, where a JSON-inside-JSON line would hold a line break (review 11).
 * Found with indexOf: a text without a backslash costs one pass.
 */
export function literalBackslashes(text: string): number[] {
  const runs: number[] = [];
  let quoteless: boolean | undefined;
  for (let i = text.indexOf('\\'); i >= 0;) {
    let j = i + 1;
    while (text.charCodeAt(j) === 0x5c) j++;
    const n = text.charCodeAt(j);
    if (n === 0x20) runs.push(i, j + 1);
    else if (!Number.isNaN(n) && (n >= 0x80 || ESCAPE_STOP[n] !== 1)) runs.push(i, j);
    else if (j - i >= 2 && ESCAPE_LETTER[n] === 1 && (quoteless ??= !text.includes('"'))) {
      runs.push(i, j);
    }
    i = text.indexOf('\\', j);
  }
  return runs;
}
