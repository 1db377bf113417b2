/**
 * The contract's search query syntax, framework-free (the API, REST and the CLI parse alike).
 *
 * - Terms are separated by whitespace (JavaScript's `\s`: spaces, tabs, newlines and the
 *   Unicode spaces).
 * - A double quote at the start of a term opens a quoted term: everything up to the next `"`,
 *   spaces included and kept as written; an unclosed quote runs to the end of the query. The
 *   closing quote ends the term, so `"a b"cd` is two terms (`a b`, `cd`).
 * - A double quote inside a word is an ordinary character: `key="value"` is one term, written
 *   as it appears in code; `foo"bar baz"` is the terms `foo"bar` and `baz"`.
 * - `""` is a term of no characters, refused like any term that is too short.
 *
 * A term's length counts characters (Unicode code points): the index finds substrings of three
 * of them (trigrams), so `🚀a` (3 UTF-16 code units, 2 characters) is too short. The query's
 * length counts UTF-16 code units, as JavaScript strings do.
 */

export const MIN_TERM_LENGTH = 3;
export const MAX_QUERY_LENGTH = 512;
export const MAX_TERMS = 16;

export type ParsedQuery = { terms: string[] } | { error: string };

const ACCEPTED =
  `terms of at least ${MIN_TERM_LENGTH} characters (code points) separated by whitespace, a ` +
  `"quoted phrase" being one term; at most ${MAX_TERMS} terms and ${MAX_QUERY_LENGTH} ` +
  `characters (UTF-16 code units)`;

const SPACE = /\s/;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Splits `query` into terms (see above); the terms keep their case and inner spacing. */
export function splitTerms(query: string): string[] {
  const terms: string[] = [];
  let i = 0;
  while (i < query.length) {
    if (SPACE.test(query[i])) {
      i++;
    } else if (query[i] === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close === -1 ? query.length : close;
      terms.push(query.slice(i + 1, end));
      i = end + 1;
    } else {
      const start = i;
      while (i < query.length && !SPACE.test(query[i])) i++;
      terms.push(query.slice(start, i));
    }
  }
  return terms;
}

/** The terms of `query`, or an error message saying what is accepted. */
export function parseSearchQuery(query: string): ParsedQuery {
  if (query.length > MAX_QUERY_LENGTH) {
    return { error: `"query" has ${query.length} characters; expected ${ACCEPTED}` };
  }
  const terms = splitTerms(query);
  if (terms.length === 0) return { error: `"query" has no term; expected ${ACCEPTED}` };
  if (terms.length > MAX_TERMS) {
    return { error: `"query" has ${terms.length} terms; expected ${ACCEPTED}` };
  }
  // NUL ends a string inside SQLite's query parser: no text the index holds has one anyway.
  const nul = terms.findIndex((t) => t.includes('\0'));
  if (nul !== -1) {
    return { error: `term ${nul + 1} of "query" holds a NUL character; expected ${ACCEPTED}` };
  }
  const characters = (t: string) => [...t].length;
  const short = terms.findIndex((t) => characters(t) < MIN_TERM_LENGTH);
  if (short !== -1) {
    // The term is not echoed: a query may hold what the caller should not see in logs.
    return {
      error: `term ${short + 1} of "query" has ${plural(characters(terms[short]), 'character')}; expected ${ACCEPTED}`,
    };
  }
  return { terms };
}
