import type { FieldMiddleware } from '@nestjs/graphql';
import { fieldOwnCost } from './cost';
import type { LimitedContext } from './request-limits';
import { fieldBytes } from './response-size';

/**
 * Fields whose value is at least as large as a size known before reading (file bytes; decoding
 * and JSON escaping only add): such a field fails before its file is read when it cannot fit.
 */
const KNOWN_SIZE: Record<string, (source: unknown, args: Record<string, unknown>) => number> = {
  'StepOutput.text': (source, args) => {
    const size = sizeOf(source);
    const offset = typeof args.offset === 'number' ? args.offset : 0;
    const length = typeof args.length === 'number' ? args.length : 1048576;
    return Math.max(0, Math.min(length, size - offset));
  },
  'Artifact.content': (source) => sizeOf(source),
  'ArtifactVersion.content': (source) => sizeOf(source),
};

function sizeOf(source: unknown): number {
  const size = (source as { info?: { size?: unknown } } | null)?.info?.size;
  return typeof size === 'number' && size > 0 ? size : 0;
}

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
  limits.spent += fieldOwnCost(info.parentType.name, info.fieldName, args);
  const known = KNOWN_SIZE[`${info.parentType.name}.${info.fieldName}`];
  if (known) limits.reserve(known(source, args));
  const value: unknown = await limits.race(Promise.resolve(next()));
  limits.throwIfStopped();
  limits.add(fieldBytes(info, value));
  return value;
};
