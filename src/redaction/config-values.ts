import type { Detector } from './detector';
import { KEY_LAST } from './assignments';
import { acceptAssignment, KEY_CLOSE, nameChar, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- values a config file writes where the key rules do not read them (review r19) -------------

/** Blanks, then at most one line break and the next line's indent. */
const BREAK = '[ \\t]*(?:\\r?\\n[ \\t]*)?';
/** `= """V"""`, `= '''V'''`, the value maybe on a line of its own: 2 the value. */
const TRIPLE = new RegExp(
  `=[ \\t]*(?:[rRbBuUfF]{1,2})?("""|''')${BREAK}([^\\s"'\\\\](?:[^\\r\\n"'\\\\]{0,${VALUE_MAX}}[^\\s"'\\\\])?)` +
    `${BREAK}\\1`,
  'y',
);

/** A string prefix's letter (`r"""…"""`, `b'''…'''`). */
const PREFIX = /^[rRbBuUfF]$/;

/** The name ending just before `at` past blanks (`password = `), or ''. */
function nameBefore(text: string, at: number): string {
  let end = at;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  let start = end;
  for (const stop = Math.max(0, end - 64); start > stop; start--) {
    if (!nameChar(text.charCodeAt(start - 1))) break;
  }
  return text.slice(start, end);
}

/**
 * Python's triple-quoted strings: `password = """V"""`, `API_KEY = '''V'''`, and the value on
 * a line of its own between them: the key rules read `""` (an empty string) and served V clear.
 */
export const tripleQuoted: Detector = {
  kind: 'password',
  anchors: '=',
  // After a name ending as a secret's does (the assignment trigger's look-behind).
  trigger: `=(?=[ \\t]{0,4}[rRbBuUfF]{0,2}(?:"""|'''))(?<=${KEY_LAST}${KEY_CLOSE}=)`,
  find(text, at, _state, out) {
    // The trigger's test (every `=` detector's find runs where any `=` trigger fired).
    let q = at + 1;
    while (q < at + 5 && (text.charCodeAt(q) === 0x20 || text.charCodeAt(q) === 0x09)) q++;
    while (q < at + 7 && PREFIX.test(text[q])) q++;
    if (!text.startsWith('"""', q) && !text.startsWith("'''", q)) return -1;
    const rule = secretKey(nameBefore(text, at));
    if (!rule) return -1;
    TRIPLE.lastIndex = at;
    const m = TRIPLE.exec(text);
    if (!m) return -1;
    if (acceptAssignment(rule.keyword, m[2], true, '')) {
      const start = at + m[0].indexOf(m[2], 1 + m[1].length);
      out.push({ start, end: start + m[2].length, kind: rule.kind });
    }
    return TRIPLE.lastIndex;
  },
};

/** How far back from `default =` its `variable "name" {` is looked for. */
const BLOCK_REACH = 400;
const VARIABLE = /variable[ \t]+"([\w-]{1,64})"[ \t]*\{[^{}]*$/;
const DEFAULT_VALUE = new RegExp(`=[ \\t]*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"`, 'y');

/**
 * Terraform's `variable "db_password" {` then `default = "V"` (maybe after `type = string`,
 * `sensitive = true`): the default of a variable named as a secret was served clear.
 */
export const terraformDefault: Detector = {
  kind: 'password',
  anchors: '=',
  trigger: '=(?<=default[ \\t]{0,8}=)',
  find(text, at, _state, out) {
    if (nameBefore(text, at) !== 'default') return -1;
    // Within BLOCK_REACH (lastIndexOf on the whole text would read it back at each `default =`).
    const start = Math.max(0, at - BLOCK_REACH);
    const from = text.slice(start, at).lastIndexOf('variable');
    if (from < 0) return -1;
    const block = VARIABLE.exec(text.slice(start + from, at));
    const rule = block ? secretKey(block[1]) : null;
    if (!rule) return -1;
    DEFAULT_VALUE.lastIndex = at;
    const m = DEFAULT_VALUE.exec(text);
    if (!m) return -1;
    if (acceptAssignment(rule.keyword, m[1], true, '')) {
      const end = DEFAULT_VALUE.lastIndex - 1;
      out.push({ start: end - m[1].length, end, kind: rule.kind });
    }
    return DEFAULT_VALUE.lastIndex;
  },
};
