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
