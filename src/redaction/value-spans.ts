import type { Span } from './patterns';
import { WORD } from './echoes';
import { presentValues } from './present-values';
import { mergeSpans } from './spans';

/**
 * Where a text shows values known from elsewhere (./tier-values: the secrets of a session's
 * transcript), as whole words: in decoded text or in a JSON line.
 */

/** After a JSON escape (`\n`, `\t`, `\r`, `\"`), a value starts a word though `n` is a letter. */
function escapeBefore(text: string, at: number): boolean {
  return at >= 2 && text.charCodeAt(at - 2) === 0x5c && 'ntr"'.includes(text[at - 1]);
}

/**
 * Where `text` shows one of `values` as a whole word (in decoded text or a JSON line). Each is
 * looked for on its own, so in a large text only those ./present-values finds in one pass.
 */
export function valueSpans(text: string, values: ReadonlyMap<string, string>): Span[] {
  const out: Span[] = [];
  for (const [value, kind] of presentValues(text, values)) {
    const edgeBefore = WORD.test(value[0]);
    const edgeAfter = WORD.test(value[value.length - 1]);
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      const end = at + value.length;
      if (edgeBefore && at > 0 && WORD.test(text[at - 1]) && !escapeBefore(text, at)) continue;
      if (edgeAfter && end < text.length && WORD.test(text[end])) continue;
      out.push({ start: at, end, kind });
    }
  }
  return mergeSpans(out);
}

/**
 * What the compact tier writes where it cut a value (`\n<truncated N bytes>`), as written or
 * with its `<` escaped by an encoder that escapes it (review 21 L1).
 */
export const CUT_MARKS = ['<truncated ', '\\u003ctruncated '] as const;

/** Whether `line` (bytes of a JSONL line) holds a cut marker. */
export function holdsCut(line: Buffer): boolean {
  return CUT_MARKS.some((mark) => line.includes(mark));
}
