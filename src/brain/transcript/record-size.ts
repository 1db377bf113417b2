import type { StepRecord, TruncatedField } from '../types';
import type { ViewSource } from './view';

/**
 * What parsed records cost in memory, for the cache budget, and how a record of a view with no
 * compact tier is kept small: its large values stay on disk and are read again when asked for.
 */

/** Values longer than this (in UTF-16 units) are left on disk by `elide`. */
export const KEEP_CHARS = 2048;

// Rough V8 sizes on 64-bit Node (no pointer compression), rounded up.
const OBJECT = 32;
const PROPERTY = 16;
const ARRAY = 32;
const ELEMENT = 8;
const STRING = 24;
const BOXED = 16;
/** A record's own fields, its Date and its small arrays. */
export const RECORD_BYTES = 400;
/** The note of what `elide` left out and where (its object, array and view reference). */
const ELIDED_BYTES = 160;
/** A unit past Latin-1: V8 then stores the string with two bytes per unit. */
const WIDE = /[\u0100-\uffff]/;

/** Heap of a string: one byte per unit when it is Latin-1, else two. */
export function stringBytes(s: string): number {
  return STRING + (s.length <= 64 || WIDE.test(s) ? 2 : 1) * s.length;
}

/** Approximate heap of a JSON-like value; iterative, so any nesting is safe. */
export function valueBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += stringBytes(v);
    else if (typeof v === 'number') total += BOXED;
    else if (Array.isArray(v)) {
      total += ARRAY + ELEMENT * v.length;
      for (const item of v)
        if (typeof item === 'object' || typeof item === 'string') stack.push(item);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      total += OBJECT + PROPERTY * entries.length;
      for (const [key, item] of entries) {
        total += key.length;
        if (typeof item === 'object' || typeof item === 'string') stack.push(item);
      }
    }
  }
  return total;
}

/** Approximate heap held by one record. */
export function recordBytes(r: StepRecord): number {
  let total = RECORD_BYTES + stringBytes(r.type) + (r.elided ? ELIDED_BYTES : 0);
  if (r.content !== null) total += stringBytes(r.content);
  if (r.thinking !== null) total += stringBytes(r.thinking);
  if (r.error !== null) total += stringBytes(r.error);
  if (r.extra !== undefined) total += valueBytes(r.extra);
  for (const call of r.toolCalls) {
    total += OBJECT + 5 * PROPERTY + stringBytes(call.name) + valueBytes(call.args);
    if (call.toolAction !== null) total += stringBytes(call.toolAction);
    if (call.toolSummary !== null) total += stringBytes(call.toolSummary);
  }
  return total;
}

function isSmall(value: unknown): boolean {
  return typeof value === 'string'
    ? value.length <= KEEP_CHARS
    : value === null || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Leaves out of `record` (in place) every content or thinking longer than KEEP_CHARS and every
 * tool-call argument that is not a short scalar, and notes where its line is so they can be
 * read again. What summaries and filters use stays: type, status, times, tool names, and short
 * arguments such as `Cwd`.
 */
export function elide(
  record: StepRecord,
  view: ViewSource,
  start: number,
  end: number,
): StepRecord {
  const fields: TruncatedField[] = [];
  if (record.content !== null && record.content.length > KEEP_CHARS) {
    record.content = null;
    fields.push('content');
  }
  if (record.thinking !== null && record.thinking.length > KEEP_CHARS) {
    record.thinking = null;
    fields.push('thinking');
  }
  let dropped = false;
  for (const call of record.toolCalls) {
    for (const [key, value] of Object.entries(call.args)) {
      if (isSmall(value)) continue;
      delete call.args[key];
      dropped = true;
    }
  }
  if (dropped) fields.push('tool_calls');
  if (fields.length > 0) record.elided = { fields, view, start, end };
  return record;
}

/** True when `field` of this in-memory record was left on disk. */
export function isElided(record: StepRecord, field: TruncatedField): boolean {
  return record.elided?.fields.includes(field) ?? false;
}
