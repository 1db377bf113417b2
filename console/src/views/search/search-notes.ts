import { shortId, shown } from '../../components/text';

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

/**
 * A sentence for a `session=` that finds no session, or several: an unknown id gives no hits
 * and "0 hits" alone read as if the terms were nowhere.
 */
export function sessionProblems(
  session: string | undefined,
  match: { found?: boolean; error?: unknown },
): string[] {
  if (!session) return [];
  // An ApiError (../../api/graphql), read by its fields: this module stays free of the DOM.
  const error = (match.error ?? {}) as { code?: unknown; candidates?: unknown };
  if (error.code === 'AMBIGUOUS_SESSION_ID') {
    const candidates = Array.isArray(error.candidates) ? (error.candidates as string[]) : [];
    const some = candidates.map(shortId).join(', ');
    return [
      `session=${shown(session)} matches several sessions${some ? ` (${some})` : ''}; give more of the id.`,
    ];
  }
  if (match.found === false)
    return [`session=${shown(session)} matches no session your key reads; no hit is listed.`];
  return [];
}
