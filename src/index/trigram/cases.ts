/**
 * What turns a text's folded UTF-8 (see fold.ts) back into the text as written, so a segment
 * holds each text once: folded for search, and these few bytes for snippets, highlights and
 * the verifications bytes cannot decide. The fold maps code point to code point, so the text
 * as written differs from the folded one only at some code points (an upper-case letter, a
 * lone surrogate, which UTF-8 holds as U+FFFD); each such place is recorded by the byte offset
 * of its folded character, counted from the end of the place before:
 *
 *   varint (gap << 2 | 0)                 one ASCII letter, written upper-case
 *   varint (gap << 2 | 1), varint (n - 2) a run of n >= 2 ASCII letters, written upper-case
 *   varint (gap << 2 | 2), varint cp      one character written as code point cp (a code unit
 *                                         for a lone surrogate)
 *
 * A text of lower-case ASCII has none; prose costs about a byte per capital or run of them.
 */

function push(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** The UTF-8 length of the character led by byte `b`. */
function width(b: number): number {
  return b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

const UPPER_RUNS = /[A-Z]+/g;

/**
 * caseBytes of an all-ASCII text (its fold only lowers A-Z; a byte is a character): the
 * runs of capitals, found by the regular expression engine instead of a loop in JavaScript
 * over every character of both strings (most texts are ASCII; the loop was a fifth of a
 * segment's build). The same bytes as caseBytes (cases.spec compares them).
 */
export function asciiCaseBytes(text: string): Buffer {
  const out: number[] = [];
  let end = 0;
  for (const m of text.matchAll(UPPER_RUNS)) {
    const start = m.index;
    const run = m[0].length;
    if (run === 1) push(out, (start - end) * 4);
    else {
      push(out, (start - end) * 4 + 1);
      push(out, run - 2);
    }
    end = start + run;
  }
  return Buffer.from(out);
}

/** The case bytes that make `text` of its fold `folded` (the same code points, see fold.ts). */
export function caseBytes(text: string, folded: string): Buffer {
  const out: number[] = [];
  let end = 0; // the byte after the last recorded place
  let at = 0; // the folded UTF-8 offset of the character at i
  let run = 0; // upper-case ASCII letters pending, ending at `at`
  const flush = () => {
    if (run === 0) return;
    const start = at - run;
    if (run === 1) push(out, (start - end) * 4);
    else {
      push(out, (start - end) * 4 + 1);
      push(out, run - 2);
    }
    end = at;
    run = 0;
  };
  // Both strings step by code point together: the fold keeps each one's place.
  for (let i = 0, j = 0; i < text.length;) {
    const a = text.charCodeAt(i);
    const b = folded.charCodeAt(j);
    if (a < 0x80 && b < 0x80) {
      if (a !== b) run++;
      else flush();
      at++;
      i++;
      j++;
      continue;
    }
    flush();
    const cp = text.codePointAt(i) as number;
    const f = folded.codePointAt(j) as number;
    const lone = f >= 0xd800 && f <= 0xdfff;
    const w = f < 0x80 ? 1 : f < 0x800 ? 2 : f < 0x10000 ? 3 : 4;
    if (cp !== f || lone) {
      push(out, (at - end) * 4 + 2);
      push(out, cp);
      end = at + w;
    }
    at += w;
    i += cp > 0xffff ? 2 : 1;
    j += f > 0xffff ? 2 : 1;
  }
  flush();
  return Buffer.from(out);
}

/**
 * The text as written, of its folded UTF-8 and its case bytes (see caseBytes). `owned`: the
 * caller lets `folded` be changed (no copy is made).
 */
export function restore(folded: Uint8Array, cases: Uint8Array, owned = false): string {
  if (cases.length === 0)
    return Buffer.from(folded.buffer, folded.byteOffset, folded.length).toString('utf8');
  const bytes = owned
    ? Buffer.from(folded.buffer, folded.byteOffset, folded.length)
    : Buffer.from(folded);
  // Characters other than ASCII letters: [offset, code point] pairs, in order.
  const others: number[] = [];
  let end = 0;
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 1;
    let b: number;
    do {
      b = cases[i++];
      v += (b & 0x7f) * shift;
      shift *= 128;
    } while (b & 0x80);
    return v;
  };
  while (i < cases.length) {
    const tag = varint();
    const kind = tag % 4;
    const at = end + Math.floor(tag / 4);
    if (kind === 2) {
      others.push(at, varint());
      end = at + width(bytes[at]);
    } else {
      const n = kind === 0 ? 1 : varint() + 2;
      for (let k = at; k < at + n; k++) bytes[k] -= 32;
      end = at + n;
    }
  }
  if (others.length === 0) return bytes.toString('utf8');
  let out = '';
  let from = 0;
  for (let k = 0; k < others.length; k += 2) {
    const at = others[k];
    out += bytes.toString('utf8', from, at) + String.fromCodePoint(others[k + 1]);
    from = at + width(bytes[at]);
  }
  return out + bytes.toString('utf8', from);
}
