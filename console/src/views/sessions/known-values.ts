import { useQuery } from '@tanstack/react-query';
import { gql } from '../../api/graphql';
import { shown } from '../../components/text';
import { graphql } from '../../gql';
import type { SessionSearch } from './filters';

/**
 * The models, flavors and tools of every session the key reads (the unfiltered `stats`, the
 * dashboard's own query): offered in the filter bar's fields and named when a URL's value is
 * none of them. Matching stays exact and case-sensitive (the API's meaning): `?model=Gemini`
 * found nothing and said nothing (#20, review 7).
 */
const KnownQuery = graphql(`
  query ConsoleKnownValues {
    stats {
      byModel {
        key
      }
      byFlavor {
        key
      }
      byTool {
        name
      }
    }
  }
`);

export interface KnownValues {
  model: string[];
  flavor: string[];
  tool: string[];
}

/** The known values, or undefined while loading or when the query fails (nothing is said). */
export function useKnownValues(): KnownValues | undefined {
  const q = useQuery({
    queryKey: ['known-values'],
    queryFn: () => gql(KnownQuery),
    staleTime: 60_000,
  });
  if (!q.data) return undefined;
  const keys = (c: { key?: string | null }[]) =>
    c.map((x) => x.key).filter((k): k is string => !!k);
  const s = q.data.stats;
  return {
    model: keys(s.byModel),
    flavor: keys(s.byFlavor),
    tool: s.byTool.map((t) => t.name),
  };
}

/** How many known values a notice lists; the rest are counted. */
export const KNOWN_LISTED = 10;

const NOUN: Record<keyof KnownValues, string> = { model: 'model', flavor: 'flavor', tool: 'tool' };

/**
 * One sentence per filter (model, flavor, tool) whose URL value names none of the known values:
 * the query still asks for it exactly (it may match a session written since), so nothing is
 * left out, but "0 sessions" alone read as an empty home.
 */
export function unknownValueProblems(s: SessionSearch, known: KnownValues | undefined): string[] {
  if (!known) return [];
  const out: string[] = [];
  for (const k of ['flavor', 'model', 'tool'] as const) {
    const v = s[k];
    if (!v) continue;
    const values = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const unknown = values.filter((x) => !known[k].includes(x));
    if (unknown.length === 0) continue;
    const all = known[k];
    const listed = all.slice(0, KNOWN_LISTED).map(shown).join(', ');
    const more = all.length - KNOWN_LISTED;
    const names = unknown.length === 1 ? 'names' : 'name';
    out.push(
      `${k}=${shown(unknown.join(','))} ${names} no ${NOUN[k]} of the sessions your key reads (a value matches exactly, case included); known: ${all.length ? listed : 'none'}${more > 0 ? `, and ${more} more` : ''}.`,
    );
  }
  return out;
}
