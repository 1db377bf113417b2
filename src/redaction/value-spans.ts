import type { Span } from './patterns';
import { WORD } from './echoes';
import { presentValues } from './present-values';
import { mergeSpans } from './spans';

/**
 * Where a text shows values known from elsewhere (./tier-values: the secrets of a session's
 * full tier), as whole words: in decoded text, in a JSON line, or only on a compact JSONL
 * file's lines that hold a cut value.
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

/** Where the first cut marker at or after `from` starts, or -1. */
function nextMark(text: string, from: number): number {
  let at = -1;
  for (const mark of CUT_MARKS) {
    const i = text.indexOf(mark, from);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  return at;
}

/** Whether `line` (bytes of a JSONL line) holds a cut marker. */
export function holdsCut(line: Buffer): boolean {
  return CUT_MARKS.some((mark) => line.includes(mark));
}

/**
 * valueSpans within the lines of `text` (a JSONL file or line) that hold a cut value: a line
 * the compact tier did not cut shows what the full tier shows, masked by its own findings.
 */
export function cutLineSpans(text: string, values: ReadonlyMap<string, string>): Span[] {
  const out: Span[] = [];
  for (let at = nextMark(text, 0); at !== -1;) {
    const start = text.lastIndexOf('\n', at) + 1;
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    for (const s of valueSpans(text.slice(start, end), values))
      out.push({ start: s.start + start, end: s.end + start, kind: s.kind });
    at = nextMark(text, end);
  }
  return out;
}
