import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Principal } from '../auth/principal';
import type { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { apiError, ErrorCode, formatError } from '../graphql/errors';
import { queryCost } from '../graphql/limits/cost';
import { limitErrorFormatted, withoutSuggestions } from '../graphql/limits/format';
import { rateLimited } from '../graphql/limits/limits.plugin';
import type { RateLimiter } from '../graphql/limits/rate-limiter';
import { costRefusal } from '../graphql/limits/limit-error';
import { nestingRefusal } from '../graphql/limits/tokens';
import { limitRules, noMutationsRule } from '../graphql/limits/validation-rules';
import type { Redactor } from '../redaction/redactor';
import { LiveContext } from './live-context';
import type { Slots } from './slots';

/** Who subscribes and what they sent, whatever the transport. */
export interface LiveRequest {
  principal: Principal;
  /** `key:<name>` or `ip:<address>`: what the rate limit and the subscription cap count. */
  rateKey: string;
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export type Prepared =
  | { ok: true; args: ExecutionArgs & { contextValue: LiveContext } }
  | { ok: false; errors: GraphQLError[]; status: number };

/**
 * The one way into a live subscription, for graphql-ws and SSE alike: the document is parsed
 * and validated under the query limits (tokens, depth, aliases, directives, cost), must be a
 * subscription (queries go to POST /graphql, where every limit applies), is charged to the
 * caller's rate limit once, and takes one of the caller's MAX_SUBSCRIPTIONS slots, given
 * back when the subscription ends (LiveContext.close).
 */
export class LiveGate {
  constructor(
    private readonly config: AppConfig,
    private readonly store: BrainStore,
    private readonly redactor: Redactor,
    private readonly rates: RateLimiter,
    private readonly slots: Slots,
    private readonly schema: () => GraphQLSchema,
  ) {}

  prepare(req: LiveRequest): Prepared {
    const { limits } = this.config;
    const fail = (error: GraphQLError, status = 400): Prepared => ({
      ok: false,
      errors: [error],
      status,
    });
    if (typeof req.query !== 'string' || req.query === '') {
      return fail(apiError(ErrorCode.BAD_USER_INPUT, 'send a subscription as "query"'));
    }
    const tooNested = nestingRefusal(req.query, limits.maxTokens);
    if (tooNested) return fail(tooNested);
    let document: DocumentNode;
    try {
      document = parse(req.query, { maxTokens: limits.maxTokens });
    } catch (err) {
      return fail(err instanceof GraphQLError ? err : new GraphQLError(String(err)));
    }
    const schema = this.schema();
    const invalid = validate(schema, document, [
      ...specifiedRules,
      ...limitRules(limits),
      noMutationsRule,
    ]);
    if (invalid.length > 0) return { ok: false, errors: [...invalid], status: 400 };
    const operationName = typeof req.operationName === 'string' ? req.operationName : undefined;
    const operation = getOperationAST(document, operationName);
    if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
      return fail(
        apiError(
          ErrorCode.BAD_USER_INPUT,
          'only subscriptions are served here; send queries to POST /graphql',
        ),
      );
    }
    const variables = isObject(req.variables) ? req.variables : undefined;
    const cost = queryCost({ schema, document, operationName, variables });
    const refusal = costRefusal(limits, cost.total);
    if (refusal) return fail(refusal);
    // The cap first: a subscription refused for it is not charged.
    const release = this.slots.take(req.rateKey);
    if (!release) {
      const max = this.config.live.maxSubscriptions;
      return fail(
        apiError(
          ErrorCode.RATE_LIMITED,
          `At most ${max} open subscriptions per key (or client address); close one first.`,
          { limit: max },
        ),
        429,
      );
    }
    const verdict = this.rates.take(req.rateKey, Math.max(1, cost.total));
    if (!verdict.ok) {
      release();
      return fail(rateLimited(limits.ratePerMinute, cost.total, verdict.retryAfterSeconds), 429);
    }
    const contextValue = new LiveContext(
      this.store,
      this.redactor,
      limits,
      req.principal,
      req.rateKey,
      release,
    );
    return {
      ok: true,
      args: { schema, document, operationName, variableValues: variables, contextValue },
    };
  }

  /**
   * What a client may see of an error: the closed set of codes, no internals, no schema
   * suggestions without introspection. Parse and validation errors are the client's input.
   */
  format(error: GraphQLError): GraphQLFormattedError {
    const coded =
      error.extensions?.code === undefined && !error.path && !error.originalError
        ? new GraphQLError(error.message, {
            nodes: error.nodes,
            source: error.source,
            positions: error.positions,
            extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT },
          })
        : error;
    const formatted = formatError(limitErrorFormatted(coded.toJSON(), coded), coded, (text) =>
      this.redactor.enabled ? this.redactor.redactText(text) : text,
    );
    const extensions = { ...formatted.extensions };
    delete extensions.http;
    const result = { ...formatted, extensions };
    return this.config.introspection ? result : withoutSuggestions(result);
  }

  /**
   * One event as the client gets it: a limit crossed while resolving it (response bytes,
   * timeout) replaces it with that one error, as for a query; every error is formatted.
   */
  finishEvent(
    ctx: LiveContext | undefined,
    result: ExecutionResult,
  ): { data?: unknown; errors?: GraphQLFormattedError[] } {
    ctx?.limits.finish();
    const stopped = ctx?.limits.stoppedBy;
    if (stopped) return { data: null, errors: [this.format(stopped)] };
    const errors = result.errors?.map((e) => this.format(e));
    return errors ? { data: result.data, errors } : { data: result.data };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
