import { isInt32 } from '../int32';
import { topLevelNumberText } from './raw-number';
import type {
  StepRecord,
  StepSource,
  StepStatus,
  TokenUsage,
  ToolCall,
  TruncatedField,
} from '../types';

/**
 * Turns one transcript line into a record, following the contract's Meanings: an object with
 * an integer `step_index`; open `type`; enums mapped with UNKNOWN; compact argument values
 * JSON-decoded when they decode; truncation from the key and from the in-band markers.
 */

const SOURCES: ReadonlySet<string> = new Set(['USER_EXPLICIT', 'MODEL', 'SYSTEM']);
const STATUSES: ReadonlySet<string> = new Set(['DONE', 'RUNNING', 'ERROR', 'CANCELLED']);
const FIELDS: readonly TruncatedField[] = ['content', 'thinking', 'tool_calls'];
const MARKER = /\n<truncated \d+ bytes>(\n|$)/;
const VALID_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The deepest nesting of objects and arrays the store serves. V8 parses far deeper JSON
 * without complaint, but serializing it again (the GraphQL JSON scalar of tool-call args,
 * JSON.stringify of an `error` object, any recursive walk) would overflow the stack. A line
 * nested deeper is MALFORMED_LINE; a compact argument whose decoded value would be is kept as
 * its raw string. So no record nests deeper than this, counting the record itself as level 1.
 */
export const MAX_NESTING = 256;
/** Levels above an argument value: record > tool_calls > call > args. */
const ARG_LEVELS = 4;

/**
 * True when `value` nests objects/arrays more than `limit` levels deep (a bare object or
 * array is 1 level). Iterative, so it cannot overflow the stack itself; stops at the first
 * container past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child as object, depth + 1]);
    }
  }
  return false;
}

export type LineVerdict =
  | { kind: 'blank' }
  | { kind: 'record'; record: StepRecord }
  /** `json`: the line parsed as JSON (it is complete) but is not a record. */
  | { kind: 'malformed'; reason: string; json: boolean };

/**
 * ISO-8601 with `Z` or `±hh:mm`; anything else (no zone, garbage) is not a valid time. A day the
 * month does not have (2026-02-30) is refused too: `Date` would roll it over into March.
 */
export function parseTime(value: unknown): Date | null {
  const parts = typeof value === 'string' ? VALID_TIME.exec(value) : null;
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leapYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const leapDay = month === 2 && day === 29 && !leapYear;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || leapDay) return null;
  const date = new Date(value as string);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function hasMarker(text: string | null): boolean {
  return text !== null && MARKER.test(text);
}

const isSpace = (b: number): boolean => b === 32 || b === 9 || b === 13 || b === 10;

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) {
    if (!isSpace(b)) return false;
  }
  return true;
}

/**
 * What a complete line can be without parsing it: blank, shaped like a JSON object (`{`…`}`
 * inside JSON whitespace: parse it to know), or anything else, which is never a record and
 * always a MALFORMED_LINE. Parsing a line that fails costs microseconds (the engine builds a
 * SyntaxError), which millions of bad lines turn into seconds; this costs a few byte reads.
 */
export function lineShape(buf: Buffer, from = 0, to = buf.length): 'blank' | 'object' | 'other' {
  let i = from;
  while (i < to && isSpace(buf[i])) i++;
  if (i === to) return 'blank';
  let j = to - 1;
  while (isSpace(buf[j])) j--;
  return buf[i] === 123 && buf[j] === 125 && j > i ? 'object' : 'other';
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * A token count: a whole number from 0 that the API's Int can carry; anything else (a float,
 * a negative, `99999999999999999999`) is no count (it broke every export of its session).
 */
function count(value: unknown): number | null {
  return typeof value === 'number' && isInt32(value) && value >= 0 ? value : null;
}

/**
 * Compact values are JSON text; a truncated one no longer parses and stays raw, and so does
 * one whose value would nest the record deeper than MAX_NESTING.
 */
function decodeArg(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  let decoded: unknown;
  try {
    decoded = JSON.parse(value);
  } catch {
    return value;
  }
  return nestsDeeperThan(decoded, MAX_NESTING - ARG_LEVELS) ? value : decoded;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toolCalls(value: unknown, encoded: boolean): { calls: ToolCall[]; marked: boolean } {
  if (!Array.isArray(value)) return { calls: [], marked: false };
  let marked = false;
  const calls = value.filter(isObject).map((call, position): ToolCall => {
    const rawArgs = isObject(call.args) ? call.args : {};
    const args: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(rawArgs)) {
      if (encoded && typeof raw === 'string' && MARKER.test(raw)) marked = true;
      const value = encoded ? decodeArg(raw) : raw;
      // An argument named `__proto__` must stay an own key: assigning it would replace the
      // object's prototype and drop the argument.
      if (key === '__proto__') {
        Object.defineProperty(args, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        args[key] = value;
      }
    }
    return {
      position,
      name: str(call.name) ?? '',
      args,
      toolAction: str(args.toolAction),
      toolSummary: str(args.toolSummary),
    };
  });
  return { calls, marked };
}

function tokens(obj: Record<string, unknown>): TokenUsage | null {
  const usage = {
    input: count(obj.input_tokens),
    output: count(obj.output_tokens),
    cacheRead: count(obj.cache_read_tokens),
  };
  return usage.input === null && usage.output === null && usage.cacheRead === null ? null : usage;
}

/**
 * Builds a record from a parsed object, or explains why it is not one. `encoded` is true for
 * compact views, whose argument values are JSON text and whose strings may carry markers.
 * `text` is the line as written, for naming a number in a message with its own digits.
 */
export function toRecord(
  obj: unknown,
  encoded: boolean,
  position: number,
  line: number,
  text?: string,
): StepRecord | string {
  if (!isObject(obj)) return 'the line is JSON but not an object';
  const step = obj.step_index;
  if (typeof step !== 'number' || !Number.isInteger(step)) {
    return 'the object has no integer step_index';
  }
  // Step.index is a GraphQL Int: a larger value could not be served, and failing to serialize
  // it would null the whole steps connection, not one step.
  if (!isInt32(step)) {
    // As written: the parsed number is rounded past 2^53 (…993 would read …992).
    const written =
      (text === undefined ? null : topLevelNumberText(text, 'step_index')) ?? String(step);
    return `the step_index ${written} is outside the 32-bit integer range`;
  }
  const content = str(obj.content);
  const thinking = str(obj.thinking);
  const { calls, marked } = toolCalls(obj.tool_calls, encoded);
  const declared = Array.isArray(obj.truncated_fields) ? obj.truncated_fields : [];
  const truncated = new Set<TruncatedField>();
  for (const field of FIELDS) if (declared.includes(field)) truncated.add(field);
  if (encoded && hasMarker(content)) truncated.add('content');
  if (encoded && hasMarker(thinking)) truncated.add('thinking');
  if (marked) truncated.add('tool_calls');
  const source = str(obj.source);
  const status = str(obj.status);
  const error = obj.error === undefined || obj.error === null ? null : obj.error;
  const createdAt = parseTime(obj.created_at);
  const extra = extraValues(obj, source, status, createdAt);
  return {
    index: step,
    position,
    line,
    occurrence: 0,
    source: source !== null && SOURCES.has(source) ? (source as StepSource) : 'UNKNOWN',
    type: str(obj.type) ?? 'UNKNOWN',
    status: status !== null && STATUSES.has(status) ? (status as StepStatus) : 'UNKNOWN',
    createdAt,
    content,
    thinking,
    error: typeof error === 'string' || error === null ? error : JSON.stringify(error),
    toolCalls: calls,
    truncatedFields: FIELDS.filter((f) => truncated.has(f)),
    tokens: tokens(obj),
    ...(extra === null ? {} : { extra }),
  };
}

const TOKEN_KEYS = ['input_tokens', 'output_tokens', 'cache_read_tokens'] as const;
/** The keys a record's fields are read from. */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'step_index',
  'source',
  'type',
  'status',
  'created_at',
  'content',
  'thinking',
  'error',
  'tool_calls',
  'truncated_fields',
  ...TOKEN_KEYS,
]);
/** A step type as the agent writes them (`PLANNER_RESPONSE`): no text to mask. */
const TYPE_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The values of `obj` that hold text no field of the record serves (StepRecord.extra). */
function extraValues(
  obj: Record<string, unknown>,
  source: string | null,
  status: string | null,
  createdAt: Date | null,
): Record<string, unknown> | null {
  let extra: Record<string, unknown> | null = null;
  const keep = (key: string) => ((extra ??= {})[key] = obj[key]);
  for (const key of Object.keys(obj)) if (!KNOWN_KEYS.has(key)) keep(key);
  if (obj.type !== undefined && !(typeof obj.type === 'string' && TYPE_NAME.test(obj.type))) {
    keep('type');
  }
  if (obj.source !== undefined && obj.source !== null && !SOURCES.has(source ?? '')) keep('source');
  if (obj.status !== undefined && obj.status !== null && !STATUSES.has(status ?? ''))
    keep('status');
  if (obj.created_at !== undefined && obj.created_at !== null && createdAt === null) {
    keep('created_at');
  }
  for (const key of TOKEN_KEYS) {
    // A number that is no count (a float, a negative) holds no text.
    const v = obj[key];
    if (v !== undefined && v !== null && typeof v !== 'number') keep(key);
  }
  // A call's `args` that is no object (a plain string): no ToolCall holds it, the raw line
  // serves it (review 11: counted with no step). Its args only: the name is the call's.
  if (Array.isArray(obj.tool_calls)) {
    const loose = obj.tool_calls
      .filter((c) => isObject(c) && c.args !== undefined && c.args !== null && !isObject(c.args))
      .map((c) => ({ args: (c as Record<string, unknown>).args }));
    if (loose.length > 0) (extra ??= {})['tool_calls'] = loose;
  }
  return extra;
}

/** Classifies one line (without its newline). Invalid UTF-8 decodes as U+FFFD. */
export function parseLine(
  bytes: Buffer,
  encoded: boolean,
  position: number,
  line: number,
): LineVerdict {
  if (isBlank(bytes)) return { kind: 'blank' };
  let parsed: unknown;
  const text = bytes.toString('utf8');
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason =
      err instanceof RangeError ? 'the line nests too deeply' : 'the line is not valid JSON';
    return { kind: 'malformed', reason, json: false };
  }
  // Complete JSON, but nothing could serve it safely: a malformed line wherever it stands.
  if (nestsDeeperThan(parsed, MAX_NESTING)) {
    return {
      kind: 'malformed',
      reason: `the line nests deeper than ${MAX_NESTING} levels`,
      json: true,
    };
  }
  const record = toRecord(parsed, encoded, position, line, text);
  return typeof record === 'string'
    ? { kind: 'malformed', reason: record, json: true }
    : { kind: 'record', record };
}
