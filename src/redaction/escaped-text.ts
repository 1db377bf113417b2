import type { Redactor } from './redactor';

/**
 * Text masked through JSON string escapes: a secret written with escapes (`\u0067hp_...`,
 * `https:\/\/hooks...`, `"pass\u0077ord": ...`) is invisible to the text detectors. Each line's
 * string literals that hold a backslash are decoded (twice, for JSON kept inside a JSON string)
 * and written back with only the escapes JSON needs; when that shows the detectors a secret,
 * the line is served in that form, masked. Numbers, whitespace and lines without a secret stay
 * byte for byte. Works on any text (JSON, JSONL, logs, scripts), parseable or not.
 */

/** A double-quoted literal on one line, escapes included. */
const LITERAL = /"(?:[^"\\\n]|\\.)*"/g;
const DEPTH = 2;

function unescapeLiterals(text: string, depth: number): string {
  if (!text.includes('\\')) return text;
  return text.replace(LITERAL, (literal) => {
    if (!literal.includes('\\')) return literal;
    let decoded: unknown;
    try {
      decoded = JSON.parse(literal);
    } catch {
      return literal; // not a JSON literal (a shell quote, a regex...)
    }
    if (typeof decoded !== 'string') return literal;
    const inner = depth < DEPTH ? unescapeLiterals(decoded, depth + 1) : decoded;
    return JSON.stringify(inner);
  });
}

/** The masked text; lines whose escapes hid a secret come back unescaped and masked. */
export function maskEscapedText(r: Redactor, text: string): string {
  if (!text.includes('\\')) return r.redactText(text);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const plain = unescapeLiterals(lines[i], 1);
    if (plain !== lines[i] && r.redactText(plain) !== plain) lines[i] = plain;
  }
  return r.redactText(lines.join('\n'));
}
