import type { FieldMiddleware } from '@nestjs/graphql';
import { getNamedType, isScalarType } from 'graphql';
import type { Redactor } from '../redaction/redactor';

/**
 * Masks secrets in every text and JSON value the API returns (content, thinking, tool
 * arguments, artifacts, summaries, problem messages...), whichever resolver produced it, so no
 * new field can forget to. JSON values are also masked by structure (values under secret-named
 * keys, keys that are secrets: Redactor.redactJson). Skipped: ids and cursors (generated here,
 * never brain text), and StepOutput.text, which is redacted on raw byte offsets by its service
 * (see redactRange).
 */
const SKIP = new Set([
  'StepOutput.text',
  'SessionEdge.cursor',
  'StepEdge.cursor',
  'PageInfo.endCursor',
]);

export const redactionFieldMiddleware: FieldMiddleware = async ({ info, context }, next) => {
  const value: unknown = await next();
  const redactor = (context as { redactor?: Redactor }).redactor;
  if (
    !info ||
    !redactor?.enabled ||
    value === null ||
    value === undefined ||
    typeof value === 'number'
  ) {
    return value;
  }
  const type = getNamedType(info.returnType);
  if (!isScalarType(type) || type.name === 'ID' || type.name === 'Boolean' || type.name === 'Int') {
    return value;
  }
  if (SKIP.has(`${info.parentType.name}.${info.fieldName}`)) return value;
  if (typeof value === 'string') return redactor.redactText(value);
  if (Array.isArray(value) || typeof value === 'object') {
    return value instanceof Date ? value : redactor.redactJson(value);
  }
  return value;
};
