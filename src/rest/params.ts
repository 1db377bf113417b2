import { Environment, SearchOrder, SessionOrder, StepSource, StepStatus } from '../graphql/enums';
import { TimeBucket } from '../stats/stats.model';
import { HttpError, HttpErrorCode } from '../http/http-errors';

const bad = (message: string) => new HttpError(HttpErrorCode.BAD_USER_INPUT, message);

/** An enum value as given in a URL: any case, `-` for `_` (`newest-first` = NEWEST_FIRST). */
const enumKey = (value: string) => value.trim().toUpperCase().replace(/-/g, '_');

/**
 * A route's query parameters, checked against the names it accepts. Several values come
 * repeated (`?flavor=a&flavor=b`) or comma-separated (`?flavor=a,b`); enum values in any case.
 * Every refusal is BAD_USER_INPUT naming the parameter and what it accepts.
 */
export class Params {
  constructor(
    private readonly raw: Record<string, unknown>,
    accepted: readonly string[],
  ) {
    for (const name of Object.keys(raw)) {
      if (!accepted.includes(name)) {
        throw bad(
          accepted.length === 0
            ? `Unknown parameter "${name}"; this route accepts no parameters.`
            : `Unknown parameter "${name}"; this route accepts: ${accepted.join(', ')}.`,
        );
      }
    }
  }

  /** Every value given for `name` (repeated parameters kept in order). */
  private values(name: string): string[] | undefined {
    const v = this.raw[name];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((x): x is string => typeof x === 'string')) return v;
    throw bad(`"${name}" must be a plain value.`);
  }

  /** A parameter that takes one value. */
  one(name: string): string | undefined {
    const v = this.values(name);
    if (v && v.length > 1) throw bad(`"${name}" takes one value; got ${v.length}.`);
    return v?.[0];
  }

  int(name: string): number | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(v.trim())) throw bad(`"${name}" must be an integer; got "${v}".`);
    return Number(v.trim());
  }

  bool(name: string): boolean | undefined {
    const v = this.one(name);
    if (v === undefined) return undefined;
    const key = v.trim().toLowerCase();
    if (key === 'true' || key === '1') return true;
    if (key === 'false' || key === '0') return false;
    throw bad(`"${name}" must be true or false; got "${v}".`);
  }

  /** Repeated or comma-separated values, each trimmed, empty ones dropped. */
  list(name: string): string[] | undefined {
    const v = this.values(name);
    if (v === undefined) return undefined;
    return v
      .flatMap((x) => x.split(','))
      .map((x) => x.trim())
      .filter((x) => x !== '');
  }

  /** Repeated or comma-separated integers. */
  intList(name: string): number[] | undefined {
    return this.list(name)?.map((v) => {
      if (!/^-?\d{1,9}$/.test(v)) throw bad(`"${name}" takes integers; got "${v}".`);
      return Number(v);
    });
  }

  enumOne<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.one(name);
    return v === undefined ? undefined : this.member(name, v, values);
  }

  enumList<T extends string>(name: string, values: readonly T[]): T[] | undefined {
    return this.list(name)?.map((v) => this.member(name, v, values));
  }

  private member<T extends string>(name: string, value: string, values: readonly T[]): T {
    const key = enumKey(value);
    const found = values.find((x) => enumKey(x) === key);
    if (found === undefined) {
      throw bad(`"${name}" must be one of ${values.join(', ')} (any case); got "${value}".`);
    }
    return found;
  }
}

/** Drops undefined entries, and returns undefined when nothing is left (no filter at all). */
export function compact(obj: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(obj).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The values a parameter takes: the GraphQL enums', in their declared order. */
export const ENVIRONMENTS = Object.values(Environment);
export const SESSION_ORDERS = Object.values(SessionOrder);
export const SEARCH_ORDERS = Object.values(SearchOrder);
export { SEARCH_FIELDS } from '../index/home-index';
export const TIME_BUCKETS = Object.values(TimeBucket);
export const STEP_SOURCES = Object.values(StepSource);
export const STEP_STATUSES = Object.values(StepStatus);

/** The SessionFilter parameters, shared by /api/sessions, /api/search and /api/stats. */
export const SESSION_FILTER_PARAMS = [
  'environment',
  'flavor',
  'source',
  'createdAfter',
  'createdBefore',
  'updatedAfter',
  'hasErrors',
  'model',
  'tool',
  'hourOfWeek',
] as const;

/** A SessionFilter from the parameters (`q` is the request text where a route takes it so). */
export function sessionFilter(p: Params, query?: string): Record<string, unknown> | undefined {
  return compact({
    environment: p.enumList('environment', ENVIRONMENTS),
    flavor: p.list('flavor'),
    source: p.list('source'),
    createdAfter: p.one('createdAfter'),
    createdBefore: p.one('createdBefore'),
    updatedAfter: p.one('updatedAfter'),
    query,
    hasErrors: p.bool('hasErrors'),
    model: p.list('model'),
    tool: p.list('tool'),
    hourOfWeek: p.intList('hourOfWeek'),
  });
}
