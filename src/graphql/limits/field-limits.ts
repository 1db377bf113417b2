import type { GraphQLField, GraphQLResolveInfo } from 'graphql';
import { ownCost, type FieldPolicy } from '../field-policy';
import type { RequestLimits } from './request-limits';
import { fieldBytes } from './response-size';

/**
 * The response-bytes cap and the timeout, field by field (every field but the root ones):
 * - before a field starts: the request must not be stopped or past its deadline, and a value of
 *   known size must fit in what is left of MAX_RESPONSE_BYTES; its cost points are metered (the
 *   rate limit charges what was actually resolved);
 * - while it resolves (a pending value only): the deadline may fail it (the read itself is not
 *   interrupted);
 * - once resolved: its bytes are counted, and crossing the cap stops the request.
 */

export function beforeField(
  limits: RequestLimits,
  field: GraphQLField<unknown, unknown>,
  policy: FieldPolicy,
  source: unknown,
  args: Record<string, unknown>,
  info: GraphQLResolveInfo,
): void {
  limits.check();
  limits.spent += ownCost(info.fieldName, field, args);
  if (policy.minBytes) limits.reserve(policy.minBytes(source, args));
}

export function afterField(limits: RequestLimits, info: GraphQLResolveInfo, value: unknown): void {
  limits.throwIfStopped();
  limits.add(fieldBytes(info, value));
}
