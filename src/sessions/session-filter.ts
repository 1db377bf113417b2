import type { ListedSession } from '../brain/catalog';
import type { SessionSummary } from '../brain/session-summary';
import { badInput } from '../graphql/errors';
import type { Loaders } from '../graphql/loaders';
import type { Redactor } from '../redaction/redactor';
import type { SessionFilter } from './sessions.args';

/**
 * SessionFilter's meaning, in one place: listings, search, secret exposures (and whatever
 * else takes a SessionFilter) select sessions through `filterSessions`. An empty list is no
 * condition, like an absent one.
 */

/** Epoch ms of a filter bound; the DateTime scalar lets unparsable text through as NaN. */
function instant(value: Date | null | undefined, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const t = value.getTime();
  if (Number.isNaN(t)) {
    // An argument error, found before any session is read: HTTP 400 as `first` out of range.
    throw badInput(`"${name}" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z`, {
      argument: name,
      http: { status: 400 },
    });
  }
  return t;
}

/**
 * Whether the filter needs every candidate's summary (read before paging, so it costs a
 * point per visible session: see SUMMARY_FILTER_SCAN).
 */
export function readsSummaries(filter: SessionFilter | null | undefined): boolean {
  if (!filter) return false;
  return (
    typeof filter.query === 'string' ||
    typeof filter.hasErrors === 'boolean' ||
    !!filter.model?.length ||
    (filter.updatedAfter !== null && filter.updatedAfter !== undefined)
  );
}

/** What the filter's conditions on summaries read of a session. */
export type SummaryFacts = Pick<
  SessionSummary,
  'userRequest' | 'model' | 'errorCount' | 'updatedAt'
>;

/**
 * Where the facts come from, one entry per session (an Error: unreadable). By default the
 * request's summary loader; stats take them from the index it counts from (see StatsService).
 */
export type FactsSource = (items: ListedSession[]) => Promise<(SummaryFacts | Error)[]>;

/** The conditions on summaries, or null when there are none. */
function summaryTest(
  filter: SessionFilter,
  redactor: Redactor,
): ((s: SummaryFacts | Error) => boolean) | null {
  if (!readsSummaries(filter)) return null;
  const updatedAfter = instant(filter.updatedAfter, 'updatedAfter');
  const models = filter.model?.length ? new Set(filter.model) : null;
  const needle = typeof filter.query === 'string' ? filter.query.toLowerCase() : null;
  const hasErrors = typeof filter.hasErrors === 'boolean' ? filter.hasErrors : null;
  return (s) => {
    // Text is matched as the caller sees it: a masked secret must not be found by guessing.
    if (needle !== null) {
      const text = s instanceof Error ? '' : redactor.redactText(s.userRequest ?? '');
      if (!text.toLowerCase().includes(needle)) return false;
    }
    if (hasErrors === null && models === null && updatedAfter === undefined) return true;
    // An unreadable summary has no facts to meet a condition on them.
    if (s instanceof Error) return false;
    if (hasErrors !== null && s.errorCount > 0 !== hasErrors) return false;
    if (models && (s.model === null || !models.has(redactor.redactText(s.model)))) return false;
    return updatedAfter === undefined || s.updatedAt.getTime() >= updatedAfter;
  };
}

/**
 * The roots `filter` names by flavor or environment, as a test of a session's root; null when
 * it names none. A caller's listing takes, for each id, the copy in a root that passes this
 * and their scope: a copy shadowed by the same id in another root is reached by naming its
 * flavor.
 */
export function rootTest(
  filter: Pick<SessionFilter, 'environment' | 'flavor' | 'source'> | null | undefined,
): ((s: ListedSession) => boolean) | null {
  const envs = filter?.environment?.length ? new Set<string>(filter.environment) : null;
  const flavors = filter?.flavor?.length ? new Set(filter.flavor) : null;
  const sources = filter?.source?.length ? new Set(filter.source) : null;
  if (!envs && !flavors && !sources) return null;
  return (s) =>
    (!envs || envs.has(s.entry.root.environment)) &&
    (!flavors || flavors.has(s.entry.root.flavor)) &&
    (!sources || (s.entry.root.source !== undefined && sources.has(s.entry.root.source)));
}

/** The sessions of `items` (order kept) that meet every condition of `filter`. */
export async function filterSessions(
  items: readonly ListedSession[],
  filter: SessionFilter,
  loaders: Loaders,
  redactor: Redactor,
  facts: FactsSource = (out) => loaders.summary.loadMany(out),
): Promise<ListedSession[]> {
  const inRoots = rootTest(filter);
  const after = instant(filter.createdAfter, 'createdAfter');
  const before = instant(filter.createdBefore, 'createdBefore');
  const test = summaryTest(filter, redactor);
  const out = items.filter((s) => {
    const t = s.createdAt.getTime();
    return (
      (!inRoots || inRoots(s)) &&
      (after === undefined || t >= after) &&
      (before === undefined || t < before)
    );
  });
  if (!test) return out;
  // Needs every candidate's summary: the filter applies before paging.
  const summaries = await facts(out);
  return out.filter((_, i) => test(summaries[i]));
}
