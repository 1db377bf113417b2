import type { FieldMiddleware } from '@nestjs/graphql';
import { ownCost, policyOf } from '../field-policy';
import type { LimitedContext } from './request-limits';
import { fieldBytes } from './response-size';

/**
 * Enforces the response-bytes cap and the timeout field by field (every field but the root
 * ones, which Nest does not route through field middleware):
 * - before a field starts: the request must not be stopped or past its deadline, and a value of
 *   known size must fit in what is left of MAX_RESPONSE_BYTES; its cost points are metered (the
 *   rate limit charges what was actually resolved);
 * - while it resolves: the deadline may fail it (the read itself is not interrupted);
 * - once resolved: its bytes are counted, and crossing the cap stops the request.
 */
export const limitsFieldMiddleware: FieldMiddleware = async (
  { info, args, context, source },
  next,
) => {
  const limits = (context as Partial<LimitedContext>).limits;
  if (!limits || !info) return next() as unknown;
  limits.check();
  const field = info.parentType.getFields()[info.fieldName];
  limits.spent += ownCost(info.fieldName, field, args);
  const { minBytes } = policyOf(field);
  if (minBytes) limits.reserve(minBytes(source, args));
  const value: unknown = await limits.race(Promise.resolve(next()));
  limits.throwIfStopped();
  limits.add(fieldBytes(info, value));
  return value;
};
