import type { SessionFilter } from '../../gql/graphql';
import { hoursOfWeek } from './hours';

/** The sessions table's filters as the URL holds them (the contract's names). */
export interface SessionSearch {
  env?: string;
  flavor?: string;
  model?: string;
  /** Tool names, comma-separated: sessions that called any of them (from the home index). */
  tool?: string;
  /** Hours of the week, `mon-09` (UTC), comma-separated: sessions with a step in one of them. */
  hour?: string;
  errors?: 'true' | 'false';
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
  const e = raw.errors;
  if (e === 'true' || e === true) out.errors = 'true';
  if (e === 'false' || e === false) out.errors = 'false';
  return out;
}

const list = (v: string | undefined): string[] | undefined =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

/** A `from`/`to` day (YYYY-MM-DD) or timestamp as the API's DateTime; `to` takes the whole day. */
function instant(v: string | undefined, end: boolean): string | undefined {
  if (!v) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const d = new Date(day ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime())) return undefined;
  if (day && end) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

export function toFilter(s: SessionSearch): SessionFilter {
  return {
    environment: list(s.env)?.map((e) => e.toUpperCase()) as SessionFilter['environment'],
    flavor: list(s.flavor),
    model: list(s.model),
    tool: list(s.tool),
    hourOfWeek: s.hour ? hoursOfWeek(s.hour) : undefined,
    hasErrors: s.errors === undefined ? undefined : s.errors === 'true',
    createdAfter: instant(s.from, false),
    createdBefore: instant(s.to, true),
    query: s.q,
  };
}
