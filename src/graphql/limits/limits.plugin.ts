import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import { GraphQLError, OperationTypeNode, type FormattedExecutionResult } from 'graphql';
import type { ServerResponse } from 'node:http';
import type { QueryLimits } from '../../config/config';
import { ErrorCode, SUBSCRIPTION_OVER_HTTP } from '../errors';
import { queryCost, type HomeSize } from './cost';
import { costRefusal, tooComplex } from './limit-error';
import type { RateLimiter } from './rate-limiter';
import type { LimitedContext } from './request-limits';
import { onlyTheLimitError } from './validation-rules';

export function rateLimited(perMinute: number, cost: number, retryAfterSeconds: number) {
  return new GraphQLError(
    // The estimate, not the final charge: a `first: 500` page of 16 steps is estimated at 500
    // items and settled at 16 once run, so "costs" alone misled (a query estimated at 1,739
    // whose run takes 13 looked as if it would always take 1,739).
    `Rate limit: ${perMinute} cost points per minute per key; this query is estimated at ` +
      `${cost} before it runs (then charged what it read; a smaller \`first\` needs fewer). ` +
      `Retry in ${retryAfterSeconds} s.`,
    {
      extensions: {
        code: ErrorCode.RATE_LIMITED,
        retryAfterSeconds,
        limit: perMinute,
        cost,
        http: { status: 429, headers: new HeaderMap([['retry-after', String(retryAfterSeconds)]]) },
      },
    },
  );
}

/**
 * The request-level limits, in Apollo's request pipeline:
 * - once the operation is known (parsed and validated): its estimated cost (with the size of
 *   the home the caller sees, from `homeOf`) against MAX_QUERY_COST and the rate-limit bucket
 *   (QUERY_TOO_COMPLEX: no wait would let it run), then the caller's rate limit takes that
 *   estimate (over: RATE_LIMITED, HTTP 429, Retry-After);
 * - after execution, the caller's bucket is settled to what the query actually cost (fields
 *   metered as they resolved: a `first: 500` page of 16 steps pays for 16);
 * - before the response is sent: a request stopped by the response-bytes cap, the timeout or
 *   the large values in flight answers `data: null` and that one error, never a partial
 *   result, with HTTP 400 (429 and Retry-After for RATE_LIMITED), as the limits checked before
 *   execution do.
 */
export function limitsPlugin(
  limits: QueryLimits,
  rates: RateLimiter,
  homeOf?: (context: LimitedContext) => Promise<HomeSize>,
): ApolloServerPlugin<LimitedContext> {
  return {
    // eslint-disable-next-line @typescript-eslint/require-await
    async requestDidStart(): Promise<GraphQLRequestListener<LimitedContext>> {
      return {
        // eslint-disable-next-line @typescript-eslint/require-await
        async validationDidStart() {
          // eslint-disable-next-line @typescript-eslint/require-await
          return async (errors) => onlyTheLimitError(errors);
        },
        async didResolveOperation({ schema, document, request, contextValue, operation }) {
          // Subscriptions have their own routes; over HTTP one would run once, as a query.
          if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
            throw new GraphQLError(SUBSCRIPTION_OVER_HTTP, {
              extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } },
            });
          }
          const costOf = (home?: HomeSize) =>
            queryCost({
              schema,
              document,
              operationName: request.operationName,
              variables: request.variables,
              home,
            });
          let cost = costOf();
          // Only then is the home's size needed (it may wait for the first scan).
          if (cost.readsHome && homeOf) cost = costOf(await homeOf(contextValue));
          const { limits: state } = contextValue;
          // A `first` out of range fails before anything runs, with 400 as the other limits.
          if (cost.badFirst) {
            throw new GraphQLError(cost.badFirst.message, {
              extensions: { ...cost.badFirst.extensions, http: { status: 400 } },
            });
          }
          const refusal = costRefusal(limits, cost.total, { http: true });
          if (refusal) throw refusal;
          const charge = Math.max(1, cost.total);
          const verdict = rates.take(state.rateKey, charge);
          if (!verdict.ok)
            throw rateLimited(limits.ratePerMinute, cost.total, verdict.retryAfterSeconds);
          state.cost = cost;
          state.charged = charge;
        },
        // eslint-disable-next-line @typescript-eslint/require-await
        async willSendResponse({ response, contextValue }) {
          const state = contextValue.limits;
          state.finish();
          releaseOnceSent(contextValue);
          if (state.charged > 0)
            rates.settle(state.rateKey, state.charged - Math.max(1, state.used));
          const stopped = state.stoppedBy;
          if (stopped && response.body.kind === 'single') {
            response.body.singleResult = { data: null, errors: [stopped.toJSON()] };
            const retry = stopped.extensions.retryAfterSeconds;
            if (typeof retry === 'number') {
              response.http.status = 429;
              response.http.headers.set('retry-after', String(retry));
            } else {
              response.http.status = 400;
            }
          }
        },
      };
    },
  };
}

/**
 * Gives back the large values the answer held (LARGE_VALUES_MB) once its bytes are out, as
 * `releaseWhenSent` says (request-limits.ts).
 */
function releaseOnceSent(context: LimitedContext): void {
  const state = context.limits;
  if (state.releaseWhenSent === 'caller') return;
  const res = (context.req as { res?: ServerResponse }).res;
  if (
    state.releaseWhenSent === 'response-close' &&
    res &&
    !res.writableFinished &&
    !res.destroyed
  ) {
    res.once('close', () => state.releaseLargeValues());
  } else {
    state.releaseLargeValues();
  }
}

/**
 * Apollo's `stringifyResult` with the last word on size: the serialized response itself is
 * measured, and one over MAX_RESPONSE_BYTES is replaced by QUERY_TOO_COMPLEX. Field counting
 * (field-limits.ts) stops large responses long before; this catches what it does
 * not see (root fields, introspection, error lists).
 */
export function sizeCheckedStringify(maxBytes: number) {
  return (value: FormattedExecutionResult): string => {
    let text: string;
    let bytes: number;
    try {
      text = JSON.stringify(value) + '\n';
      bytes = Buffer.byteLength(text, 'utf8');
    } catch {
      // Longer than a JavaScript string can be: far over any cap the configuration allows.
      text = '';
      bytes = maxBytes + 1;
    }
    if (bytes <= maxBytes) return text;
    const error = tooComplex('responseBytes', maxBytes, bytes).toJSON();
    return (
      JSON.stringify('data' in value ? { data: null, errors: [error] } : { errors: [error] }) + '\n'
    );
  };
}
