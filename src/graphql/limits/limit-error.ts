import { GraphQLError } from 'graphql';
import type { QueryLimits } from '../../config/config';
import { ErrorCode } from '../errors';

/** What a QUERY_TOO_COMPLEX error measured; sent as `extensions.kind`. */
export type LimitKind =
  | 'depth'
  | 'aliases'
  | 'directives'
  | 'fields'
  | 'tokens'
  | 'nesting'
  | 'cost'
  | 'ratePoints'
  | 'responseBytes'
  | 'timeout';

const WHAT: Record<LimitKind, (limit: number, measured: number) => string> = {
  depth: (l, m) => `The query is nested ${m} fields deep; the limit is ${l}.`,
  aliases: (l, m) => `The document uses ${m} aliases; the limit is ${l}.`,
  directives: (l, m) => `The document uses ${m} directives; the limit is ${l}.`,
  fields: (l, m) => `The document selects ${m} fields; the limit is ${l}.`,
  tokens: (l, m) => `The document has ${m} tokens; the limit is ${l}.`,
  nesting: (l, m) => `The document nests brackets ({, [, () ${m} deep; the limit is ${l}.`,
  cost: (l, m) => `The query costs ${m} points; the limit is ${l}. Ask for fewer items.`,
  ratePoints: (l, m) =>
    `The query costs ${m} points, more than the ${l} points per minute a key's rate limit ` +
    'holds (RATE_LIMIT_POINTS): it could never run. Ask for fewer items.',
  responseBytes: (l, m) =>
    `The response exceeds the limit of ${l} bytes (${m} bytes counted). ` +
    'Ask for fewer items or shorter fields.',
  timeout: (l, m) => `The query ran for ${m} ms; the limit is ${l} ms.`,
};

/**
 * The one shape of every query-limit error: code QUERY_TOO_COMPLEX with `kind`, `limit` and
 * `measured` in the extensions. Errors raised before execution answer HTTP 400.
 */
export function tooComplex(
  kind: LimitKind,
  limit: number,
  measured: number,
  opts: { http?: boolean } = {},
): GraphQLError {
  return new GraphQLError(WHAT[kind](limit, measured), {
    extensions: {
      code: ErrorCode.QUERY_TOO_COMPLEX,
      kind,
      limit,
      measured,
      ...(opts.http ? { http: { status: 400 } } : {}),
    },
  });
}

/**
 * The one rule on a query's estimated cost before it runs: over MAX_QUERY_COST, or over the
 * whole rate-limit bucket (RATE_LIMIT_POINTS), which no wait would ever fill enough. Null when
 * the cost is acceptable (the rate limit may still make it wait).
 */
export function costRefusal(
  limits: Pick<QueryLimits, 'maxCost' | 'ratePerMinute'>,
  cost: number,
  opts: { http?: boolean } = {},
): GraphQLError | null {
  if (cost > limits.maxCost) return tooComplex('cost', limits.maxCost, cost, opts);
  if (cost > limits.ratePerMinute)
    return tooComplex('ratePoints', limits.ratePerMinute, cost, opts);
  return null;
}

/**
 * The answer when large values already in flight (LARGE_VALUES_MB) left no room for this one's
 * within its wait: RATE_LIMITED with a retry time (HTTP 429 and Retry-After: limits.plugin.ts).
 */
export function largeValuesBusy(capacityBytes: number, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(
    `The server is sending other large values (up to ${capacityBytes} bytes at once, ` +
      `LARGE_VALUES_MB); this answer's did not fit in time. Retry in ${retryAfterSeconds} s.`,
    { extensions: { code: ErrorCode.RATE_LIMITED, retryAfterSeconds, limit: capacityBytes } },
  );
}

/**
 * The answer while the session's secret values are still being learned (../../steps/
 * session-values): RATE_LIMITED with the retry time the learning left is estimated to take.
 */
export function stillLearning(message: string, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.RATE_LIMITED, retryAfterSeconds },
  });
}
