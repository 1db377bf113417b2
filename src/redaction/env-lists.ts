import type { Detector } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

/**
 * A Kubernetes (or compose) env list in YAML: `- name: DB_PASSWORD` and, on the next line,
 * `value: …` (review r15 M4c: served clear while the JSON form `{"name": "DB_PASSWORD",
 * "value": "…"}` was masked). The value is masked when the name on the line before is a
 * secret's (./keys secretKey: `DB_PASSWORD2`, `API_TOKEN`, `SECRET_KEY`) and the value is one
 * (acceptAssignment: not `changeme`, `$(VAR)`, `{{ … }}`). Either line may carry a viewer's
 * gutter (`12: `) or a diff's `+`/`-`.
 */

/** The line before `value:`: a list item's `name:`, maybe quoted, ending its line. */
const NAME_LINE =
  /(?:^|[ \t+\-:|>\d])-[ \t]+name[ \t]*:[ \t]*(["']?)([A-Za-z_][\w.-]{0,127})\1[ \t]*\r?$/;
/** What may stand before `value:` on its line: blanks, a gutter's number and `:`, a diff mark. */
const VALUE_INDENT = /^[ \t]*(?:[+-]|\d{1,9}:)?[ \t]*$/;
/** After `value:`: a quoted value or a bare one to the line's end (before a ` #` comment). */
const VALUE = new RegExp(
  `[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\r\\n]{1,${VALUE_MAX}})'|([^\\s"'#][^\\r\\n]{0,${VALUE_MAX}}?))[ \\t]*(?=$|\\r?\\n| #)`,
  'y',
);
/** How far before `value` its line and the line before are read. */
const LINE_MAX = 200;

/** The start of the line holding `at`, or `at - reach` when it starts further back. */
function lineBefore(text: string, at: number, reach: number): number {
  let i = at;
  const stop = Math.max(0, at - reach);
  while (i > stop && text.charCodeAt(i - 1) !== 0x0a) i--;
  return i;
}

export const envListValue: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=(?<![\\w-])value[ \\t]*:)',
  find(text, at, _state, out) {
    let v = at;
    while (v > 0 && (text.charCodeAt(v - 1) === 0x20 || text.charCodeAt(v - 1) === 0x09)) v--;
    v -= 5; // `value`
    // Bounded look-backs (lastIndexOf on a long line at every `value:` is quadratic).
    const lineStart = lineBefore(text, v, LINE_MAX);
    if (lineStart <= 0 || text.charCodeAt(lineStart - 1) !== 0x0a) return -1;
    if (!VALUE_INDENT.test(text.slice(lineStart, v))) return -1;
    const prevStart = lineBefore(text, lineStart - 1, LINE_MAX);
    const name = NAME_LINE.exec(text.slice(prevStart, lineStart - 1));
    const rule = name && secretKey(name[2]);
    if (!rule) return -1;
    VALUE.lastIndex = at + 1;
    const m = VALUE.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    const quoted = m[3] === undefined;
    if (!acceptAssignment(rule.keyword, value, quoted, '', true)) return -1;
    let end = VALUE.lastIndex;
    while (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09) end--;
    if (quoted) end--;
    out.push({ start: end - value.length, end, kind: rule.kind });
    return VALUE.lastIndex;
  },
};
