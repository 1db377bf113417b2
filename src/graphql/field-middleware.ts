import {
  defaultFieldResolver,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { Redactor } from '../redaction/redactor';
import { policyOf, type FieldPolicy } from './field-policy';
import { afterField, beforeField } from './limits/field-limits';
import type { RequestLimits } from './limits/request-limits';
import type { Loaders } from './loaders';
import { fieldSessionOf, masksField, redactField, withSessionValues } from './redaction-field';

interface FieldContext {
  limits?: RequestLimits;
  redactor?: Redactor;
  loaders?: Loaders;
}

/**
 * Runs the limits (outermost: they count the bytes of the value the client finally gets) and
 * the redaction around every non-root field resolver, in place on the built schema (Nest's
 * `transformSchema`). Not Nest's `fieldMiddleware`: that wraps every field, plain properties
 * included, in nested async functions, so each field of a response cost promises and a race
 * with the deadline, and a list of thousands of small objects (a timeline by the hour) took
 * seconds. Here a field that resolves synchronously is checked synchronously; only a pending
 * value races the deadline. Root fields are left alone, as Nest's middleware left them (the
 * limits plugin covers the operation as a whole).
 */
export function withFieldMiddleware(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
      (t) => t !== null && t !== undefined,
    ),
  );
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || roots.has(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      field.resolve = guarded(field, field.resolve ?? defaultFieldResolver);
    }
  }
  return schema;
}

function guarded(
  field: GraphQLField<unknown, unknown>,
  resolve: GraphQLFieldResolver<unknown, unknown>,
): GraphQLFieldResolver<unknown, FieldContext, Record<string, unknown>> {
  const policy = policyOf(field);
  return (source, args, context, info) => {
    const { limits, redactor } = context;
    if (limits) beforeField(limits, field, policy, source, args, info);
    const counted = (shown: unknown) => {
      if (limits) afterField(limits, info, shown);
      return shown;
    };
    const finish = (value: unknown) => {
      const shown = sessionMasked(
        redactField(value, info, policy, redactor, limits),
        value,
        source,
        policy,
        info,
        context,
      );
      // Masked in a worker: counted once it is back, the deadline raced as any pending value.
      if (!isPromiseLike(shown)) return counted(shown);
      const pending = Promise.resolve(shown);
      return (limits ? limits.race(pending) : pending).then(counted);
    };
    const raw: unknown = resolve(source, args, context, info);
    if (!isPromiseLike(raw)) return finish(raw);
    const pending = Promise.resolve(raw);
    return (limits ? limits.race(pending) : pending).then(finish);
  };
}

/**
 * `shown` with the secret values of the session whose texts it shows masked too (a record's
 * fields, an artifact's, a session's summary texts: ./redaction-field fieldSessionOf;
 * ../steps/session-values). A session not learned within the wait stops the request with
 * RATE_LIMITED: none of its texts is answered clear meanwhile.
 */
function sessionMasked(
  shown: unknown,
  value: unknown,
  source: unknown,
  policy: FieldPolicy,
  info: GraphQLResolveInfo,
  { redactor, loaders }: FieldContext,
): unknown {
  // A field its service masks (StepOutput.text, on byte offsets) is a record's text as well.
  const own = policy.redaction === 'service' ? { ...policy, redaction: undefined } : policy;
  if (!redactor?.enabled || !loaders || !masksField(value, info, own)) return shown;
  const owner = fieldSessionOf(source, info);
  if (!owner) return shown;
  const learn = () => {
    const values = loaders.sessionValues(owner.entry, redactor);
    if (!isPromiseLike(values)) return withSessionValues(shown, redactor, values);
    return values.then((v) => withSessionValues(shown, redactor, v));
  };
  // A summary the home index stored was masked with the session's values then (echoMasked).
  if (!owner.listed) return learn();
  return loaders.summary
    .load(owner.listed)
    .then((summary) => (summary.echoMasked ? shown : learn()));
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
