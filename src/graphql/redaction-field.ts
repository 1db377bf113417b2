import { getNamedType, isScalarType, type GraphQLResolveInfo } from 'graphql';
import type { SessionEntry } from '../brain/types';
import { offloadOf } from '../offload/redact-pool';
import type { Redactor } from '../redaction/redactor';
import { maskValues, maskValuesDeep } from '../redaction/tier-values';
import type { ListedSession } from '../brain/catalog';
import type { FieldPolicy } from './field-policy';
import type { RequestLimits } from './limits/request-limits';

/** Whether the middleware masks this value of this field (see redactField). */
export function masksField(value: unknown, info: GraphQLResolveInfo, policy: FieldPolicy): boolean {
  if (value === null || value === undefined || typeof value === 'number') return false;
  const type = getNamedType(info.returnType);
  if (!isScalarType(type) || type.name === 'ID' || type.name === 'Boolean' || type.name === 'Int') {
    return false;
  }
  if (policy.redaction === 'service' || policy.redaction === 'none') return false;
  return typeof value === 'string' || (typeof value === 'object' && !(value instanceof Date));
}

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
  if (!redactor?.enabled || !masksField(value, info, policy)) return value;
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
  return redactor.redactJson(value);
}

/** Session fields read from its summary: texts taken from its records. */
const SUMMARY_TEXTS = new Set([
  'userRequest',
  'model',
  'localTime',
  'mentionedFiles',
  'workspaceRoot',
]);

/**
 * The session whose texts a field's parent shows, whose secret values the field masks too: a
 * Step (`session` and `record`), or what hangs off one (`step`: a tool call, an output, a
 * command, a file change); an artifact or its version, a session file (`entry`); a Session's
 * summary texts (`listed`, told by its `key`: its summary may have been stored masked with them
 * already); a search hit's or secret finding's `artifact` (`session`). Else null.
 */
export function fieldSessionOf(
  source: unknown,
  info: GraphQLResolveInfo,
): { entry: SessionEntry; listed?: ListedSession } | null {
  if (typeof source !== 'object' || source === null) return null;
  const s = source as {
    record?: unknown;
    session?: { entry?: SessionEntry };
    step?: { record?: unknown; session?: { entry?: SessionEntry } };
    entry?: SessionEntry;
    info?: unknown;
    key?: unknown;
  };
  if (s.record !== undefined && s.session?.entry) return { entry: s.session.entry };
  // A search hit's or a secret finding's file name (review 26 H1: `notes-V.md` was served
  // whole there while Session.artifacts listed it masked).
  if (info.fieldName === 'artifact' && s.session?.entry) return { entry: s.session.entry };
  if (s.step?.record !== undefined && s.step.session?.entry) return { entry: s.step.session.entry };
  if (!s.entry || typeof s.entry.realDir !== 'string') return null;
  if (typeof s.key !== 'string') return { entry: s.entry };
  return SUMMARY_TEXTS.has(info.fieldName)
    ? { entry: s.entry, listed: source as ListedSession }
    : null;
}

/**
 * `shown` (a masked field value, or a promise of one) with the session's secret values masked
 * too (../steps/session-values): an echo of a secret another record holds.
 */
export function withSessionValues(
  shown: unknown,
  redactor: Redactor,
  values: ReadonlyMap<string, string>,
): unknown {
  if (values.size === 0) return shown;
  if (typeof shown === 'string') return maskValues(redactor, shown, values);
  if (shown instanceof Promise) return shown.then((s) => withSessionValues(s, redactor, values));
  return maskValuesDeep(redactor, shown, values);
}
