/**
 * Text helpers for derived activity: the contract's "lines of a text", and reading what is
 * left of a compact argument value that was cut (its JSON text, head only, plus a marker).
 */

/** A compact argument value that was cut: the marker ends it (no tail is kept). */
const CUT = /\n<truncated \d+ bytes>$/;

/** Lines of a text: split on `\n`, a final empty piece dropped; the empty text has none. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** An argument's text and whether it was cut (only compact values without a twin can be). */
export interface ArgText {
  text: string;
  cut: boolean;
}

export function isCut(value: unknown): value is string {
  return typeof value === 'string' && CUT.test(value);
}

/** What is left of a cut value's JSON text, without the marker. */
export function cutHead(value: string): string {
  return value.replace(CUT, '');
}

/**
 * Decodes the head of a JSON string literal (`"abc\n...`, no closing quote) as far as it is
 * complete: an escape cut in the middle is dropped. Anything else comes back as it is.
 */
export function decodeHead(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const body = raw.slice(1);
  // At most `\uXXX` (5 characters) of a cut escape can hang at the end.
  for (let drop = 0; drop <= Math.min(5, body.length); drop++) {
    try {
      const decoded: unknown = JSON.parse(`"${body.slice(0, body.length - drop)}"`);
      if (typeof decoded === 'string') return decoded;
    } catch {
      // an incomplete escape at the end: drop one more character
    }
  }
  return body;
}

/**
 * The text of a text argument (CodeContent, TargetContent...): a string as it is, a cut one
 * decoded as far as it goes, a missing one empty, any other JSON value as its JSON text.
 * `mayBeCut`: the value is a compact one from a record whose tool calls were truncated (a
 * full-tier string that happens to end like a marker is text like any other).
 */
export function argText(value: unknown, mayBeCut: boolean): ArgText {
  if (mayBeCut && isCut(value)) return { text: decodeHead(cutHead(value)), cut: true };
  if (typeof value === 'string') return { text: value, cut: false };
  if (value === undefined || value === null) return { text: '', cut: false };
  return { text: JSON.stringify(value), cut: false };
}

/**
 * The complete elements (objects and arrays) of a JSON array whose text was cut: each is
 * parsed on its own; a scalar element or the cut last one is left out.
 */
export function completeElements(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{' || ch === '[') {
      depth++;
      if (depth === 2) start = i;
    } else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 1 && start >= 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // not JSON after all: left out
        }
        start = -1;
      } else if (depth <= 0) {
        break;
      }
    }
  }
  return out;
}
