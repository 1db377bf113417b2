import type { SessionSearch } from '../sessions/filters';

/** The filter bar's names (views/sessions/Filters.tsx), in its order, for the URL's keys. */
const NAMES: [keyof SessionSearch, string][] = [
  ['q', 'Text'],
  ['env', 'Environment'],
  ['flavor', 'Flavor'],
  ['model', 'Model'],
  ['tool', 'Tool'],
  ['hour', 'Hour (UTC)'],
  ['errors', 'Errors'],
  ['from', 'From'],
  ['to', 'To'],
];

/** How the filter bar's Errors select writes a choice; any other value as typed. */
const ERRORS: Record<string, string> = { true: 'with errors', false: 'without' };

/**
 * The filters the URL gives the dashboard (as applied: appliedOnly), each as the sessions
 * page's filter bar names it; a value the query leaves out is not listed, its notice says why
 * (#20, review 7). The dashboard showed only counts, so `?from=2030-01-01` or `?model=nonexistent` read
 * as an empty home (#20, review 6).
 */
export function activeFilters(s: SessionSearch): [string, string][] {
  return NAMES.filter(([k]) => s[k] !== undefined).map(([k, name]) => {
    const v = s[k] as string;
    return [name, k === 'errors' ? (ERRORS[v] ?? v) : v];
  });
}
