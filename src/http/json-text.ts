import type { Redactor } from '../redaction/redactor';

/**
 * JSON and JSONL downloads masked by structure, as GraphQL masks JSON fields: a secret written
 * with escapes (`\u0067hp_...`, `https:\/\/hooks...`, `"pass\u0077ord": ...`) is invisible to
 * the text detectors but not to the decoded values. A document or line whose masking changed
 * something is re-serialized; everything is then text-masked as well.
 */

function parse(text: string): { value: unknown } | null {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return null;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
}

/** The indentation of a pretty-printed document (that of its first indented line), or none. */
function indentOf(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? '';
}

/** `value` masked and re-serialized, or null when masking changed nothing. */
function remasked(r: Redactor, value: unknown, indent: string): string | null {
  const masked = r.redactJson(value);
  return masked === value ? null : JSON.stringify(masked, null, indent);
}

/** The masked text of a UTF-8 file that may hold JSON or JSONL. */
export function maskJsonText(r: Redactor, text: string): string {
  const whole = parse(text);
  if (whole) {
    const out = remasked(r, whole.value, indentOf(text));
    if (out === null) return r.redactText(text);
    const tail = /\s*$/.exec(text)?.[0] ?? '';
    return r.redactText(out + tail);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = parse(lines[i]);
    const out = line && remasked(r, line.value, '');
    if (out !== null && out !== undefined) lines[i] = out + (lines[i].endsWith('\r') ? '\r' : '');
  }
  return r.redactText(lines.join('\n'));
}
