import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule, type GraphQLWsSubscriptionsConfig } from '@nestjs/graphql';
import type { Request } from 'express';
import { BrainStore } from '../brain/store';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { requestContext } from './context';
import { formatError } from './errors';
import { withFieldMiddleware } from './field-middleware';
import { withStrictDateTime } from './strict-date-time';
import { limitErrorFormatted, withoutSuggestions } from './limits/format';
import { limitsPlugin, sizeCheckedStringify } from './limits/limits.plugin';
import { nestingRefusal } from './limits/tokens';
import { InFlightBytes } from '../ops/in-flight-bytes';
import { RateLimiter } from './limits/rate-limiter';
import { RateLimitModule } from './limits/rate-limit.module';
import type { LimitedContext } from './limits/request-limits';
import { limitRules, noMutationsRule } from './limits/validation-rules';
import { LIVE_WS_OPTIONS, LiveModule } from '../live/live.module';
import { Redactor } from '../redaction/redactor';
import { visibleSessionCount } from '../sessions/sessions.service';

/**
 * Apollo behind Nest, code-first. The schema is built in memory (no file written at start, so
 * the service runs on a read-only file system); `npm run schema` prints it to schema.gql.
 *
 * Query limits (src/graphql/limits/, values from AppConfig.limits), in the order a request
 * meets them: tokens (parser), depth / aliases / directives (validation rules), cost and rate
 * (plugin, before execution), timeout and response bytes (field-middleware.ts while executing,
 * and the serialized response at the end). Batched requests are refused, CSRF prevention is on,
 * introspection and "Did you mean" suggestions follow config.introspection.
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [RateLimitModule, LiveModule],
      inject: [BrainStore, APP_CONFIG, Redactor, RateLimiter, InFlightBytes, LIVE_WS_OPTIONS],
      useFactory: (
        store: BrainStore,
        config: AppConfig,
        redactor: Redactor,
        rates: RateLimiter,
        largeValues: InFlightBytes,
        liveWs: GraphQLWsSubscriptionsConfig,
      ): ApolloDriverConfig => {
        const { limits } = config;
        return {
          autoSchemaFile: true,
          sortSchema: true,
          path: '/graphql',
          // Live subscriptions over WebSocket (src/live/ws-transport.ts).
          subscriptions: { 'graphql-ws': liveWs },
          playground: false,
          introspection: config.introspection,
          // Apollo strips suggestions from validation errors only; formatError below also
          // covers variable coercion messages.
          hideSchemaDetailsFromClientErrors: !config.introspection,
          includeStacktraceInErrorResponses: false,
          allowBatchedHttpRequests: false,
          // Nest would reset to 200 any answer with a `data` key; a request the limits stopped
          // answers `data: null` with 400, or 429 and Retry-After (limits.plugin.ts).
          preserveHttpStatusForExecutionErrors: false,
          csrfPrevention: true,
          parseOptions: { maxTokens: limits.maxTokens },
          validationRules: [...limitRules(limits), noMutationsRule],
          plugins: [
            // No cache hints are set: computing a policy per resolved field buys nothing.
            ApolloServerPluginCacheControlDisabled(),
            limitsPlugin(limits, rates, async ({ principal }) => ({
              visibleSessions: visibleSessionCount(await store.catalog(), principal),
            })),
          ],
          stringifyResult: sizeCheckedStringify(limits.maxResponseBytes),
          transformSchema: (schema) => withFieldMiddleware(withStrictDateTime(schema)),
          formatError: (formatted, error) => {
            const result = formatError(limitErrorFormatted(formatted, error), error, (text) =>
              redactor.enabled ? redactor.redactText(text) : text,
            );
            return config.introspection ? result : withoutSuggestions(result);
          },
          context: ({ req }: { req: Request }): LimitedContext => {
            // Before graphql-js parses the document (recursively: brackets nested thousands
            // deep overflowed its stack). Apollo answers an error thrown here with its HTTP 400.
            const tooNested = nestingRefusal(documentOf(req), limits.maxTokens);
            if (tooNested) throw tooNested;
            return requestContext({ store, redactor, limits, largeValues }, req);
          },
        };
      },
    }),
  ],
})
export class ApiGraphqlModule {}

/** The GraphQL document of a POST body or a GET query string ('' when there is none). */
function documentOf(req: Request): string {
  const body: unknown = req.body;
  const fromBody =
    body && typeof body === 'object' ? (body as { query?: unknown }).query : undefined;
  const query = typeof fromBody === 'string' ? fromBody : (req.query as { query?: unknown }).query;
  return typeof query === 'string' ? query : '';
}
