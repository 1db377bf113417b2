import { shown } from '../../components/text';

export const ORDERS = ['relevance', 'newest_first'] as const;

/**
 * The order `order=` asks for and a sentence when it names none: `order=bogus` was dropped
 * without a word while `fields=bogus` was said (#20, review 5).
 */
export function searchOrder(value: string | undefined): {
  order: (typeof ORDERS)[number];
  problems: string[];
} {
  const o = value?.toLowerCase();
  if (o === undefined || (ORDERS as readonly string[]).includes(o))
    return { order: (o as (typeof ORDERS)[number] | undefined) ?? 'relevance', problems: [] };
  return {
    order: 'relevance',
    problems: [
      `order=${shown(value)} names no order (accepted: ${ORDERS.join(', ')}); results are by relevance.`,
    ],
  };
}

/** The ids an ambiguous prefix lists, each a link: at most this many, then "and N more". */
export const CANDIDATES_SHOWN = 10;

/**
 * The sessions an ambiguous `session=` matches (the API's AMBIGUOUS_SESSION_ID candidates),
 * whole: their first 8 characters are the prefix itself when it is 8 long ("c5000000,
 * c5000000, … ×11"; #20, review 6). Null: not ambiguous.
 */
export function sessionCandidates(
  session: string | undefined,
  error: unknown,
): { shown: string[]; more: number } | null {
  if (!session) return null;
  // An ApiError (../../api/graphql), read by its fields: this module stays free of the DOM.
  const e = (error ?? {}) as { code?: unknown; candidates?: unknown };
  if (e.code !== 'AMBIGUOUS_SESSION_ID') return null;
  const all = Array.isArray(e.candidates) ? (e.candidates as string[]) : [];
  return {
    shown: all.slice(0, CANDIDATES_SHOWN),
    more: Math.max(0, all.length - CANDIDATES_SHOWN),
  };
}

/**
 * A sentence for a `session=` the API refuses (BAD_USER_INPUT: under 4 characters), said as the
 * other notices are, without the raw code (#20, review 6: `BAD_USER_INPUT: "filter.session"
 * must be …`).
 */
export function sessionRefused(session: string | undefined, error: unknown): string[] {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  if (!session || e.code !== 'BAD_USER_INPUT' || !/session/.test(String(e.message))) return [];
  return [
    `session=${shown(session)} is too short: give a whole session id or its first 4 characters or more; no hit is listed.`,
  ];
}

/**
 * A sentence for a `session=` that finds no session: an unknown id gives no hits and "0 hits"
 * alone read as if the terms were nowhere. (Several: see sessionCandidates.)
 */
export function sessionProblems(session: string | undefined, match: { found?: boolean }): string[] {
  if (!session) return [];
  if (match.found === false)
    return [`session=${shown(session)} matches no session your key reads; no hit is listed.`];
  return [];
}
