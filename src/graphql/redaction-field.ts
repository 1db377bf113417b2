import { getNamedType, isScalarType, type GraphQLResolveInfo } from 'graphql';
import { offloadOf } from '../offload/redact-pool';
import type { Redactor } from '../redaction/redactor';
import type { FieldPolicy } from './field-policy';
import type { RequestLimits } from './limits/request-limits';

/**
 * Masks secrets in every text and JSON value the API returns (content, thinking, tool
 * arguments, artifacts, summaries, problem messages...), whichever resolver produced it, so no
 * new field can forget to. JSON values are also masked by structure (values under secret-named
 * keys, keys that are secrets: Redactor.redactJson). Skipped: IDs, and fields whose policy says
 * `redaction: 'none'` (cursors: generated here) or `'service'` (StepOutput.text: masked on raw
 * byte offsets by its service, see redactRange); `'diff'` fields are masked as unified diffs.
 * A promise for a large string masked in a worker (../offload/redact-pool).
 */
export function redactField(
  value: unknown,
  info: GraphQLResolveInfo,
  policy: FieldPolicy,
  redactor: Redactor | undefined,
  limits: RequestLimits | undefined,
): unknown {
  if (!redactor?.enabled || value === null || value === undefined || typeof value === 'number') {
    return value;
  }
  const type = getNamedType(info.returnType);
  if (!isScalarType(type) || type.name === 'ID' || type.name === 'Boolean' || type.name === 'Int') {
    return value;
  }
  if (policy.redaction === 'service' || policy.redaction === 'none') return value;
  if (typeof value === 'string') {
    // A string far larger than what is left of the response fails now, before masking it costs
    // seconds of CPU (each UTF-16 unit is at least one JSON byte; masking rarely shrinks much).
    limits?.reserve(value.length);
    // A large one in a worker (review 15: seconds of keyword-dense text held the event loop).
    const pool = offloadOf(redactor);
    if (pool?.takes(value.length, limits))
      return pool.redactText(value, policy.redaction === 'diff');
    return policy.redaction === 'diff' ? redactor.redactDiff(value) : redactor.redactText(value);
  }
  if (Array.isArray(value) || typeof value === 'object') {
    return value instanceof Date ? value : redactor.redactJson(value);
  }
  return value;
}
