import type { Environment, SessionFilter } from '../../gql/graphql';
import { shown } from '../../components/text';
import { hoursOfWeek, parseHour, splitHours } from './hours';

/** The sessions table's filters as the URL holds them (the contract's names). */
export interface SessionSearch {
  env?: string;
  flavor?: string;
  model?: string;
  /** Tool names, comma-separated: sessions that called any of them (from the home index). */
  tool?: string;
  /** Hours of the week, `mon-09` (UTC), comma-separated: sessions with a step in one of them. */
  hour?: string;
  /** `true` or `false`; anything else is kept as typed, left out of the query and said. */
  errors?: string;
  from?: string;
  to?: string;
  q?: string;
}

const KEYS = ['env', 'flavor', 'model', 'tool', 'hour', 'from', 'to', 'q'] as const;

/** Only known keys with non-empty string values survive: a URL is typed by a person. */
export function parseSessionSearch(raw: Record<string, unknown>): SessionSearch {
  const out: SessionSearch = {};
  for (const k of KEYS) {
    const v = raw[k];
    if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
    else if (typeof v === 'number') out[k] = String(v);
  }
  // Kept as typed, even empty (`?errors=`): a value that is no choice is said (filterProblems),
  // never read as one. Before, `errors=maybe` hid the sessions with errors behind an "any".
  const e = raw.errors;
  if (typeof e === 'string') out.errors = e.trim();
  else if (typeof e === 'boolean' || typeof e === 'number') out.errors = String(e);
  return out;
}

const list = (v: string | undefined): string[] | undefined =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

function isCalendarDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** A `from`/`to` day (YYYY-MM-DD) or timestamp as the API's DateTime; `to` takes the whole day. */
function instant(v: string | undefined, end: boolean): string | undefined {
  if (!v) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const d = new Date(day ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) return undefined;
  // Date rolls an impossible day over (2026-02-30 is March 2): a date that is no calendar
  // day is refused, as the API refuses it.
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (date && !isCalendarDay(+date[1], +date[2], +date[3])) return undefined;
  if (day && end) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

/** The environments the API knows (SessionFilter.environment), as the URL writes them. */
export const ENVIRONMENTS = [
  'ide',
  'cli',
  'acp',
  'other',
] as const satisfies readonly Lowercase<Environment>[];
const isEnvironment = (e: string): e is (typeof ENVIRONMENTS)[number] =>
  (ENVIRONMENTS as readonly string[]).includes(e.toLowerCase());

/** `errors=true|false` as the API's hasErrors; any other value (even `TRUE`) asks nothing. */
export function errorsChoice(v: string | undefined): boolean | undefined {
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

/**
 * The environments of `env` the query uses, comma-joined and lowercase (`acp,cli`): the filter
 * bar's Environment shows this, so a list from the URL is shown and kept, not "any".
 */
export function envChoice(v: string | undefined): string {
  return (
    list(v)
      ?.filter(isEnvironment)
      .map((e) => e.toLowerCase())
      .join(',') ?? ''
  );
}

/**
 * The URL the filter bar's Apply writes: its fields' values, empty ones left out (an "any" is
 * no filter, not `errors=`). Every field shows what the URL holds (each environment of a list
 * checked), so what the person did not change is written back as it was.
 */
export function appliedSearch(form: Iterable<[string, unknown]>): SessionSearch {
  const values: Record<string, string> = {};
  for (const [k, v] of form) {
    if (typeof v === 'string' && v.trim() !== '') {
      values[k] = Object.hasOwn(values, k) ? `${values[k]},${v.trim()}` : v.trim();
    }
  }
  return parseSessionSearch(values);
}

/**
 * The URL's filters as the query applies them: the values toFilter leaves out (an unknown
 * environment, an hour naming none, an `errors` that is no choice, a day that is no date)
 * dropped, so what names the filters or links on from them carries no dropped value (#20,
 * review 7: "Hour (UTC) mon-09,xyz · Errors maybe" beside notices saying both are left out).
 */
export function appliedOnly(s: SessionSearch): SessionSearch {
  const out: SessionSearch = { ...s };
  if (s.env !== undefined) {
    const env = envChoice(s.env);
    if (env) out.env = env;
    else delete out.env;
  }
  if (s.hour !== undefined) {
    const good = splitHours(s.hour).filter((t) => parseHour(t) !== null);
    if (good.length) out.hour = good.join(',');
    else delete out.hour;
  }
  if (s.errors !== undefined && errorsChoice(s.errors) === undefined) delete out.errors;
  if (s.from !== undefined && instant(s.from, false) === undefined) delete out.from;
  if (s.to !== undefined && instant(s.to, true) === undefined) delete out.to;
  return out;
}

/** A list's items that pass, none kept as undefined (no filter, not "nothing matches"). */
const kept = <T>(items: T[] | undefined): T[] | undefined => (items?.length ? items : undefined);

/**
 * The filter the API is asked with. Values it would refuse (an unknown environment, an hour of
 * the week or a day that names none) are left out, and said so by filterProblems: before, the
 * page showed the API's raw refusal in place of the table.
 */
export function toFilter(s: SessionSearch): SessionFilter {
  return {
    environment: kept(
      list(s.env)
        ?.filter(isEnvironment)
        .map((e) => e.toUpperCase() as Environment),
    ),
    flavor: list(s.flavor),
    model: list(s.model),
    tool: list(s.tool),
    hourOfWeek: s.hour ? kept(hoursOfWeek(s.hour).filter((h) => h >= 0)) : undefined,
    hasErrors: errorsChoice(s.errors),
    createdAfter: instant(s.from, false),
    createdBefore: instant(s.to, true),
    query: s.q,
  };
}

/**
 * One sentence per URL filter value the console left out of the query (see toFilter), saying
 * what is accepted: a person typed the URL and reads why the table shows more than asked.
 */
export function filterProblems(s: SessionSearch): string[] {
  const out: string[] = [];
  const badEnv = list(s.env)?.filter((e) => !isEnvironment(e)) ?? [];
  if (badEnv.length) {
    out.push(
      `env=${shown(badEnv.join(','))} names no environment (accepted: ${ENVIRONMENTS.join(', ')}, comma-separated); it is left out.`,
    );
  }
  if (s.errors !== undefined && errorsChoice(s.errors) === undefined) {
    out.push(`errors=${shown(s.errors)} names no choice (accepted: true, false); it is left out.`);
  }
  const hours = s.hour ? splitHours(s.hour) : [];
  const badHours = hours.filter((t) => parseHour(t) === null);
  if (badHours.length) {
    // The parts that name no hour, not the whole value: `mon-09,xyz` is kept as mon-09.
    const one = badHours.length === 1;
    const good = hours.filter((t) => parseHour(t) !== null);
    out.push(
      `In hour, ${badHours.map(shown).join(' and ')} ${one ? 'names' : 'name'} no hour of the week (accepted: mon-00 to sun-23 in UTC, or 0 to 167, comma-separated); ${one ? 'it is' : 'they are'} left out${good.length ? `, ${good.map(shown).join(', ')} ${good.length === 1 ? 'is' : 'are'} kept` : ''}.`,
    );
  }
  for (const [k, end] of [
    ['from', false],
    ['to', true],
  ] as const) {
    if (s[k] && instant(s[k], end) === undefined) {
      out.push(
        `${k}=${shown(s[k])} is no date (accepted: a calendar day YYYY-MM-DD, or a time such as 2026-06-01T09:00:00Z); it is left out.`,
      );
    }
  }
  const from = instant(s.from, false);
  const to = instant(s.to, true);
  if (from && to && Date.parse(from) >= Date.parse(to)) {
    out.push(
      `from=${shown(s.from)} is not before to=${shown(s.to)}: no session can be created between them (swap them for the range you meant).`,
    );
  }
  return out;
}
