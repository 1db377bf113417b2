import type { TextRange } from './home-index';

/** The contract's snippet length, in UTF-16 code units. */
export const SNIPPET_LENGTH = 300;
/** How much of the snippet goes before the first occurrence, when the text allows. */
const LEAD = 100;

function termPattern(term: string): RegExp {
  return new RegExp(term.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'giu');
}

/** Non-overlapping, case-insensitive occurrences of `term`, left to right. */
export function occurrences(text: string, term: string, from = 0, to = text.length): TextRange[] {
  const re = termPattern(term);
  re.lastIndex = from;
  const out: TextRange[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null && m.index < to) {
    out.push({ start: m.index, length: m[0].length });
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

export function countOccurrences(text: string, term: string): number {
  const re = termPattern(term);
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

export interface Snippet {
  snippet: string;
  highlights: TextRange[];
}

/**
 * At most SNIPPET_LENGTH code units around the first occurrence of the first term, never
 * splitting a surrogate pair, with every occurrence of any term inside it (clipped to it).
 */
export function snippetOf(text: string, terms: readonly string[]): Snippet {
  const re = termPattern(terms[0]);
  const first = re.exec(text)?.index ?? 0;
  let start = Math.max(0, Math.min(first - LEAD, text.length - SNIPPET_LENGTH));
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (start > 0 && isLow(text.charCodeAt(start))) start++;
  if (end < text.length && isLow(text.charCodeAt(end))) end--;
  const snippet = text.slice(start, end);
  const ranges: TextRange[] = [];
  for (const term of terms) {
    // Occurrences that begin up to a term's length before the window can still reach into it.
    for (const r of occurrences(text, term, Math.max(0, start - term.length * 2), end)) {
      const a = Math.max(r.start, start);
      const b = Math.min(r.start + r.length, end);
      if (b > a) ranges.push({ start: a - start, length: b - a });
    }
  }
  ranges.sort((x, y) => x.start - y.start || y.length - x.length);
  // Terms that differ only in case ("ÉCOLE école") find the same ranges: each range once.
  const unique = ranges.filter(
    (r, i) => i === 0 || r.start !== ranges[i - 1].start || r.length !== ranges[i - 1].length,
  );
  return { snippet, highlights: unique };
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
