import { splitTerms } from '../../../src/index/query';
import { shown } from './text';

/** The terms of a search query, as the API splits them (one rule: src/index/query.ts). */
export function searchTerms(query: string | undefined): string[] {
  return query ? splitTerms(query).filter((t) => t.length > 0) : [];
}

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher of any of `terms`, case-insensitive as the search is; null for none. */
export function termsPattern(terms: readonly string[]): RegExp | null {
  if (terms.length === 0) return null;
  // Longest first: a term inside another is marked as the longer one.
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escape);
  return new RegExp(alternatives.join('|'), 'giu');
}

/**
 * Brain text with every occurrence of the search terms in `<mark>`: React text nodes only
 * (never HTML from the data), each piece through shown() as everywhere else.
 */
export function Highlighted({ text, pattern }: { text: string; pattern: RegExp | null }) {
  if (!pattern) return <>{shown(text)}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m[0].length === 0) continue;
    parts.push(shown(text.slice(at, m.index)));
    parts.push(<mark key={m.index}>{shown(m[0])}</mark>);
    at = m.index + m[0].length;
  }
  parts.push(shown(text.slice(at)));
  return <>{parts}</>;
}

/** Whether `text` holds one of the terms. */
export const holds = (text: string | null | undefined, pattern: RegExp | null): boolean =>
  !!text && !!pattern && new RegExp(pattern.source, 'iu').test(text);
