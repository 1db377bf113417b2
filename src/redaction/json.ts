import { acceptAssignment, ruleStart, secretKey, type KeyRule } from './keys';
import type { Span } from './detector';
import type { Redactor } from './redactor';
import { mergeSpans } from './spans';
import { impliedRules, isCookie } from './json-fields';
import { echoSpans, learnValues } from './echoes';

/** Found secrets' values by their kinds (./echoes). */
type EchoValues = Map<string, string>;

/**
 * Redaction by structure: in a JSON value (tool call arguments, artifact metadata, any JSON
 * field) a value whose key names a secret (./keys) is masked whole, and so is every string
 * and number below such a key in arrays and objects (`"credentials": {...}`), except inside a
 * JSON Schema (`"password": {"type": "string"}` describes a secret, holds none). Other strings
 * get the text detectors; keys too (`{"ghp_...": 1}`). Copy on write.
 */

export const SCHEMA_TYPES = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'null',
]);

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isSchema(v: Record<string, unknown>): boolean {
  return (typeof v.type === 'string' && SCHEMA_TYPES.has(v.type)) || '$ref' in v;
}

/**
 * The spans to mask in a string under a secret key: the value whole (Authorization keeps its
 * scheme), with the formats inside it giving their more specific kind; without a key rule,
 * or for a placeholder, what the text detectors find.
 */
export function stringSpans(r: Redactor, value: string, rule: KeyRule | null): Span[] {
  if (!rule) return r.findSpans(value);
  const path = /^[/~.]/.test(value) && /^pwd$/i.test(rule.keyword);
  if (path || !acceptAssignment(rule.keyword, value.trim(), true, '')) return r.findSpans(value);
  const { start, kind } = ruleStart(rule, value);
  if (start >= value.length) return r.findSpans(value);
  return mergeSpans([...r.findSpans(value), { start, end: value.length, kind }]);
}

/** The span to mask in a number under a secret key (its decimal text), if any. */
export function numberSpans(text: string, rule: KeyRule | null): Span[] {
  if (!rule || !acceptAssignment(rule.keyword, text, false, '')) return [];
  return [{ start: 0, end: text.length, kind: rule.kind }];
}

function maskNumber(r: Redactor, value: number, rule: KeyRule): unknown {
  const text = String(value);
  const spans = numberSpans(text, rule);
  return spans.length === 0 ? value : r.mask(text, spans);
}

/** Sets `key` as an own property, `__proto__` included. */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Longest string value whose clean verdict the redactor remembers (see Redactor.redactShort). */
const SHORT_VALUE = 64;

/**
 * `value` redacted; `rule` is that of the nearest secret-named key above it, if any. `found`:
 * the values of the secrets masked in its strings and numbers are added to it (./echoes).
 */
export function redactJsonValue(
  r: Redactor,
  value: unknown,
  rule: KeyRule | null,
  found: EchoValues | null = null,
): unknown {
  if (typeof value === 'string') {
    if (rule === null && value.length <= SHORT_VALUE) {
      const out = r.redactShort(value);
      // Rarely reached (a short value holding a secret): its spans are found again.
      if (found && out !== value) learnValues(value, r.findSpans(value), found);
      return out;
    }
    const spans = stringSpans(r, value, rule);
    if (found) learnValues(value, spans, found);
    return r.mask(value, spans);
  }
  if (typeof value === 'number') {
    if (!rule) return value;
    const out = maskNumber(r, value, rule);
    if (found && out !== value) learnValues(String(value), numberSpans(String(value), rule), found);
    return out;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const x = redactJsonValue(r, value[i], rule, found);
      if (x !== value[i]) (out ??= value.slice())[i] = x;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  // A cookie's name and domain are no secret: its value only is (./json-fields cookieValue).
  const inherited = rule && !isSchema(value) && !isCookie(value) ? rule : null;
  // A `value` or `text` whose object says it is secret (a password field's, a sensitive one, a
  // list item's under a secret's name).
  const implied =
    'value' in value || 'text' in value || 'Value' in value || 'ParameterValue' in value
      ? impliedRules(value)
      : null;
  const keys = Object.keys(value);
  // Copy on write: the arrays exist only once something changed.
  let values: unknown[] | null = null;
  let names: string[] | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const x = redactJsonValue(
      r,
      value[key],
      secretKey(key) ?? implied?.get(key) ?? inherited,
      found,
    );
    const name = r.redactKey(key);
    if (values === null && (x !== value[key] || name !== key)) {
      values = keys.slice(0, i).map((k) => value[k]);
      names = keys.slice(0, i);
    }
    values?.push(x);
    names?.push(name);
  }
  if (values === null || names === null) return value;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    // Two keys masked alike would collide: number the later ones.
    let name = names[i];
    for (let n = 2; Object.hasOwn(out, name); n++) name = `${names[i]}#${n}`;
    put(out, name, values[i]);
  }
  return out;
}

/**
 * A JSON value redacted as one text is (review 18, H5): a secret found in one of its strings is
 * also masked where another string of the same value shows it again (`TargetContent`
 * "DB_PASSWORD=Mn2b…" and `ReplacementContent` "# old was Mn2b…" of one call), as the
 * record's raw line, one text, masks it. Strings only (a key showing a value stays as
 * redactKey leaves it); the values of its first MAX_VALUES secrets (./echoes learnValues).
 */
export function redactJsonWithEchoes(
  r: Redactor,
  value: unknown,
  /** Gets the values of the secrets found (the home index masks them session-wide too). */
  found: EchoValues = new Map(),
): unknown {
  const out = redactJsonValue(r, value, null, found);
  if (found.size === 0 || out === null || typeof out !== 'object') {
    return out;
  }
  return maskEchoes(r, out, found);
}

const MARKER = /\[REDACTED:[a-z0-9-]*\]/g;

function markerSpans(text: string): Span[] {
  return [...text.matchAll(MARKER)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    kind: '',
  }));
}

/** `value` (already redacted) with the echoes of `found` in its strings masked; copy on write. */
function maskEchoes(r: Redactor, value: unknown, found: EchoValues): unknown {
  if (typeof value === 'string') {
    // Not inside a marker the string shows (a value `REDACTED` would find itself there).
    const echoes = echoSpans(value, found, value.includes('[REDACTED:') ? markerSpans(value) : []);
    return echoes.length === 0 ? value : r.mask(value, mergeSpans(echoes));
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const x = maskEchoes(r, value[i], found);
      if (x !== value[i]) (out ??= value.slice())[i] = x;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const x = maskEchoes(r, value[key], found);
    if (x === value[key]) continue;
    if (!out) {
      out = {};
      for (const k of Object.keys(value)) put(out, k, value[k]);
    }
    put(out, key, x);
  }
  return out ?? value;
}
