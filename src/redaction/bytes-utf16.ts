import type { Utf16 } from './bytes';

/**
 * UTF-16 text inside bytes read as Latin-1 (a UTF-16 SQLite database, a PNG or a log with a
 * UTF-16 part): the ways to read the bytes as UTF-16 that hold some text, so that the
 * redactor can look for secrets in each and mask them at the same length.
 */

/** A way to read bytes as UTF-16: a byte order and the offset of the first code unit. */
export interface Utf16View {
  enc: Utf16;
  offset: 0 | 1;
}

/** ASCII code units in a row that make a view worth decoding (a secret is longer). */
const MIN_RUN = 8;

const VIEWS: readonly Utf16View[] = [
  { enc: 'utf16le', offset: 0 },
  { enc: 'utf16le', offset: 1 },
  { enc: 'utf16be', offset: 0 },
  { enc: 'utf16be', offset: 1 },
];

function texty(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * The views of `buf` with MIN_RUN printable ASCII code units in a row, in one pass over its
 * bytes: random bytes almost never have more than two, so a binary file without UTF-16 text
 * is not decoded four more times.
 */
export function utf16Views(buf: Buffer): Utf16View[] {
  // Per view (le0, le1, be0, be1): byte offset of the last ASCII unit seen, and the run length.
  const last = [-2, -2, -2, -2];
  const run = [0, 0, 0, 0];
  const found = [false, false, false, false];
  let left = 4;
  const see = (unit: number, v: number): void => {
    run[v] = last[v] === unit - 2 ? run[v] + 1 : 1;
    last[v] = unit;
    if (run[v] >= MIN_RUN && !found[v]) {
      found[v] = true;
      left--;
    }
  };
  const n = buf.length;
  for (let i = buf.indexOf(0); i !== -1 && left > 0; i = buf.indexOf(0, i + 1)) {
    // A NUL is the high byte of an ASCII unit: after its low byte (LE) or before it (BE).
    if (i > 0 && texty(buf[i - 1])) see(i - 1, (i - 1) & 1);
    if (i + 1 < n && texty(buf[i + 1])) see(i, 2 + (i & 1));
  }
  return VIEWS.filter((_, v) => found[v]);
}
