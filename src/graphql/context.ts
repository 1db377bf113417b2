import type { Request } from 'express';
import { principalOf, type Principal } from '../auth/principal';
import type { BrainStore } from '../brain/store';
import type { QueryLimits } from '../config/config';
import type { Redactor } from '../redaction/redactor';
import type { InFlightBytes } from '../ops/in-flight-bytes';
import { rateKeyOf } from './limits/rate-limit.module';
import { RequestLimits, type AnswerBudget, type LimitedContext } from './limits/request-limits';
import { Loaders } from './loaders';

/** What every GraphQL context is built from: the process's singletons. */
export interface ContextDeps {
  store: BrainStore;
  redactor: Redactor;
  limits: QueryLimits;
  /** The large values in flight (LARGE_VALUES_MB); absent: not counted. */
  largeValues?: InFlightBytes;
}

/**
 * One query's context: who asks, fresh per-request loaders and the request's limits charged to
 * `rateKey`. The HTTP route and in-process callers (REST, the CLI) build it here alike, so the
 * same scope, redaction and limits apply whichever way a document arrives. A `budget` makes the
 * query one part of a larger answer: its deadline and response bytes are the answer's.
 */
export function graphqlContext(
  deps: ContextDeps,
  principal: Principal,
  rateKey: string,
  req: object = {},
  budget?: AnswerBudget,
): LimitedContext {
  const limits = new RequestLimits(deps.limits, rateKey, budget?.startedAt);
  limits.largeValues = deps.largeValues ?? null;
  if (budget) {
    limits.bytes = budget.bytes;
    limits.hold = budget.hold;
  }
  return {
    req,
    loaders: new Loaders(deps.store, limits),
    principal,
    redactor: deps.redactor,
    limits,
  };
}

/** The context of an HTTP request: the principal authentication attached, its rate key. */
export function requestContext(
  deps: ContextDeps,
  req: Request,
  budget?: AnswerBudget,
): LimitedContext {
  const principal = principalOf(req);
  return graphqlContext(deps, principal, rateKeyOf(req, principal), req, budget);
}
