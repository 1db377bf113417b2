import type { ListedSession } from '../brain/catalog';
import type { SessionSummary } from '../brain/session-summary';
import { hourOfWeek, stepHoursTest, type StepHoursSource } from './hour-of-week';
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

/** The most names `tool` takes, and the longest name (UTF-16 code units). */
export const MAX_TOOL_NAMES = 20;
export const MAX_TOOL_NAME_LENGTH = 200;

/**
 * The tool names `filter.tool` asks for, folded to lower case; null when it names none. Checked
 * before any session is read, like a bad date: the refusal says what is accepted.
 */
function toolNames(filter: SessionFilter): Set<string> | null {
  const names = filter.tool;
  if (!names?.length) return null;
  const accepted = `"tool" takes 1 to ${MAX_TOOL_NAMES} tool names of 1 to ${MAX_TOOL_NAME_LENGTH} characters each`;
  const refuse = (got: string) =>
    badInput(`${accepted}; got ${got}`, { argument: 'tool', http: { status: 400 } });
  if (names.length > MAX_TOOL_NAMES) throw refuse(`${names.length} names`);
  const bad = names.find((n) => n.length === 0 || n.length > MAX_TOOL_NAME_LENGTH);
  if (bad !== undefined) throw refuse(`a name of ${bad.length} characters`);
  return new Set(names.map((n) => n.toLowerCase()));
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

/**
 * Per session, the names of the tools it called, or null while the home index has not read it
 * (HomeIndex.tools): `tool` is answered from the index, so a session it has not read yet
 * matches no tool, as search finds nothing in it.
 */
export type ToolsSource = (items: readonly ListedSession[]) => (readonly string[] | null)[];

/** What `filterSessions` reads beyond the listing itself. */
export interface FilterSources {
  loaders: Loaders;
  redactor: Redactor;
  tools: ToolsSource;
  /** Per session, the hours its steps were made in (SessionFilter.hourOfWeek), from the index. */
  hours: StepHoursSource;
  /** The summary conditions' facts; default: the request's summary loader. */
  facts?: FactsSource;
}

/** The tool condition as a test of `items`' index rows, or null when there is none. */
function toolTest(filter: SessionFilter): ((called: readonly string[] | null) => boolean) | null {
  const wanted = toolNames(filter);
  if (!wanted) return null;
  // Case-insensitive as `steps --tool`. The index keeps names as the caller sees them (masked
  // with REDACT=on), so a masked secret in a tool's name cannot be found by guessing it.
  return (called) => called !== null && called.some((n) => wanted.has(n.toLowerCase()));
}

/** The sessions of `items` (order kept) that meet every condition of `filter`. */
export async function filterSessions(
  items: readonly ListedSession[],
  filter: SessionFilter,
  {
    loaders,
    redactor,
    tools,
    hours,
    facts = (out) => loaders.summary.loadMany(out),
  }: FilterSources,
): Promise<ListedSession[]> {
  const inRoots = rootTest(filter);
  const after = instant(filter.createdAfter, 'createdAfter');
  const before = instant(filter.createdBefore, 'createdBefore');
  const calls = toolTest(filter);
  const inHours = stepHoursTest(hourOfWeek(filter));
  const test = summaryTest(filter, redactor);
  let out = items.filter((s) => {
    const t = s.createdAt.getTime();
    return (
      (!inRoots || inRoots(s)) &&
      (after === undefined || t >= after) &&
      (before === undefined || t < before)
    );
  });
  if (calls) {
    // One index call for every candidate, before the summaries (which may read files).
    const called = tools(out);
    out = out.filter((_, i) => calls(called[i]));
  }
  if (inHours) {
    const made = hours(out);
    out = out.filter((s, i) => inHours(s, made[i]));
  }
  if (!test) return out;
  // Needs every candidate's summary: the filter applies before paging.
  const summaries = await facts(out);
  return out.filter((_, i) => test(summaries[i]));
}
