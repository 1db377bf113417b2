import type { Detector, Span } from './detector';
import { acceptAssignment, type KeyRule, ruleStart, secretKey } from './keys';
import { VALUE_MAX } from './values';
import { backslashesBefore } from './backslashes';

/**
 * A name/value list item whose name is a secret's: Kubernetes' (or compose's) env list in YAML,
 * `- name: DB_PASSWORD` then `value: …` (review r15 M4c), and the spellings review r16 M3 found
 * served clear: a blank or comment line between, a comment after the name, a block scalar
 * (`value: >-` and the value on the next line), the value first (`- value: …` then `name:`),
 * flow style (`- {name: DB_PASSWORD, value: …}`), CloudFormation's `ParameterKey` /
 * `ParameterValue` (YAML and JSON), ECS's capitalised `Name` / `Value` (YAML and JSON) and
 * Terraform's HCL `env { name = "…" value = "…" }`. The value is masked when the name is a
 * secret's (./keys secretKey: `DB_PASSWORD2`, `API_TOKEN`, `SECRET_KEY`) and the value is one
 * (acceptAssignment: not `changeme`, `$(VAR)`, `{{ … }}`; nor, after a name that only refers to
 * a secret, a lower-case word: referenceValue). A line may carry a viewer's gutter (`12: `) or
 * a diff's `+`/`-`.
 */

/** What may open a line before its YAML: blanks, a gutter's number and `:`, a diff mark. */
const GUTTER = '[ \\t]*(?:[+-]|\\d{1,9}:)?[ \\t]*';
/** A name key and its name, maybe quoted, maybe with a comment after it, ending its line. */
const NAME =
  '(?:name|Name|ParameterKey|Key)[ \\t]*:[ \\t]*(?<q>["\']?)([A-Za-z_][\\w.-]{0,127})\\k<q>';
/** A list item's name line, the item's `- ` on it or not (value first: the line after). */
const NAME_LINE = new RegExp(`^${GUTTER}(-[ \\t]+)?${NAME}[ \\t]*(?:#.*)?\\r?$`);
/** Flow style, before `value` on its line: `{name: DB_PASSWORD, `. */
const FLOW_NAME = new RegExp(`[{,][ \\t]*${NAME}[ \\t]*,[ \\t]*$`);
/** HCL: `name = "DB_PASSWORD"` alone on its line. */
const HCL_NAME = new RegExp(`^${GUTTER}name[ \\t]*=[ \\t]*"([A-Za-z_][\\w.-]{0,127})"[ \\t]*\\r?$`);
const HCL_INDENT = new RegExp(`^${GUTTER}$`);
/** A line's gutter (a diff mark, a viewer's `12:`), then its indentation. */
const LEAD = /^((?:[ \t]*(?:[+-]|\d{1,9}:))?)([ \t]*)/;
/** Before `value:` on its line: the gutter, and a list item's `- ` (value first). */
const VALUE_INDENT = new RegExp(`^${GUTTER}(?:-[ \\t]+)?$`);
const ITEM_END = /-[ \t]+$/;
/** A line with nothing to read: blank, or a comment. */
const SKIPPED = new RegExp(`^${GUTTER}(?:#.*)?\\r?$`);
/** After `value:`: a quoted value or a bare one to the line's end (before a ` #` comment). */
const VALUE = new RegExp(
  `[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\r\\n]{1,${VALUE_MAX}})'|([^\\s"'#][^\\r\\n]{0,${VALUE_MAX}}?))[ \\t]*(?=$|\\r?\\n| #)`,
  'y',
);
/** In flow style the value ends at `,` or `}`. */
const FLOW_VALUE = new RegExp(
  `[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\r\\n]{1,${VALUE_MAX}})'|([^\\s"'#,{}][^,{}\\r\\n]{0,${VALUE_MAX}}?))[ \\t]*(?=[,}])`,
  'y',
);
/** A block scalar's header (`>-`, `|`, `|+`): the value is on the lines after. */
const BLOCK = /[ \t]*[|>][+-]?[ \t]*(?:#[^\r\n]*)?\r?\n/y;
/**
 * JSON: a member naming the item (`"Name": "DB_PASSWORD"`), maybe with escaped quotes, its
 * string maybe JSON text itself (a compact tool argument, `"name": "\\"DB_PASSWORD\\""`).
 */
const JSON_NAME =
  /\\*"(?:name|Name|ParameterKey|Key)\\*"[ \t]*:[ \t]*\\*"(?:\\+")?([A-Za-z_][\w.-]{0,127})\\*"/;
const JSON_VALUE = new RegExp(
  `[ \\t]*\\\\*"(?:\\\\+")?([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"`,
  'y',
);
/**
 * A Python dict's (a list's `repr`, boto3's output, a script's literal): `{'name': 'API_TOKEN',
 * 'value': '…'}` (review 21: served clear decoded and inside JSON strings, whose `'` stay).
 */
const PY_NAME = /'(?:name|Name|ParameterKey|Key)'[ \t]*:[ \t]*'([A-Za-z_][\w.-]{0,127})'/;
const PY_VALUE = new RegExp(`[ \\t]*'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'`, 'y');
/** The names a list item's name member may have (JSON_NAME's), for a parsed object (./json). */
export const ITEM_NAME_KEYS = ['name', 'Name', 'ParameterKey', 'Key'];
/** The keys of its value (envListValue's trigger). */
export const ITEM_VALUE_KEYS = ['value', 'Value', 'ParameterValue'];
/** A name JSON_NAME reads. */
export const ITEM_NAME = /^[A-Za-z_][\w.-]{0,127}$/;
/** How far before `value` its line and the lines before are read. */
const LINE_MAX = 200;
/** Lines skipped (blank, comments) between the name and the value. */
const SKIP_MAX = 4;
/** How far each way a JSON member reads for its object's braces. */
const OBJECT_REACH = 512;

/** The start of the line holding `at`, or `at - reach` when it starts further back. */
function lineBefore(text: string, at: number, reach: number): number {
  let i = at;
  const stop = Math.max(0, at - reach);
  while (i > stop && text.charCodeAt(i - 1) !== 0x0a) i--;
  return i;
}

/** The end of the line holding `at` (its `\n` or the text's end), at most `reach` on. */
function lineAfter(text: string, at: number, reach: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 || end - at > reach ? Math.min(text.length, at + reach) : end;
}

/**
 * Names that only refer to a secret or switch something (`PASSWORD_AUTH`, `DB_PASSWORD_SECRET`:
 * a toggle, a secretKeyRef's name): a secret word, then one of these last.
 */
const REFERENCE_NAME = /(?:pass|pwd|token|key|secret)\w*[_.-](?:auth|secrets?|credentials?|ref)$/i;
/** What such a name holds when it is no secret: a lower-case word or kebab name, no digit. */
const REFERENCE_VALUE = /^[a-z]{2,24}(?:-[a-z]{1,24}){0,4}$/;

/** Whether the value under `name` is a reference or a switch, not a secret (review r16 M3). */
function referenceValue(name: string, value: string): boolean {
  return REFERENCE_NAME.test(name) && REFERENCE_VALUE.test(value);
}

/** envListValue's trigger, read back from its anchor `at` (within 64 characters). */
const VALUE_TRIGGER = /(?<![\w-])(?:[vV]alue|ParameterValue)(?:\\*"|')?[ \t]*[:=]$/;
function valueTrigger(text: string, at: number): boolean {
  const from = Math.max(0, at - 64);
  const m = VALUE_TRIGGER.exec(text.slice(from, at + 1));
  // A match at the slice's start: the character before it is the text's (the lookbehind's).
  return m !== null && (m.index > 0 || from === 0 || !/[\w-]/.test(text[from - 1]));
}
export const envListValue: Detector = {
  kind: 'password',
  anchors: ':=',
  // `'value':` too: a Python dict (review 21).
  trigger: '[:=](?<=(?<![\\w-])(?:[vV]alue|ParameterValue)(?:\\\\*"|\')?[ \\t]*[:=])',
  find(text, at, _state, out) {
    // Its trigger, checked here (as ./lines slashOptions does: another ':' trigger hitting at
    // every ':' of a bait ran this for each, a 200-character walk apiece).
    if (!valueTrigger(text, at)) return -1;
    let v = at;
    while (v > 0 && (text.charCodeAt(v - 1) === 0x20 || text.charCodeAt(v - 1) === 0x09)) v--;
    if (text.charCodeAt(v - 1) === 0x22) return jsonValue(text, at, out, JSON_NAME, JSON_VALUE);
    if (text.charCodeAt(v - 1) === 0x27) {
      return text.charCodeAt(at) === 0x3a ? jsonValue(text, at, out, PY_NAME, PY_VALUE) : -1;
    }
    v -= text.startsWith('ParameterValue', v - 14) ? 14 : 5;
    const lineStart = lineBefore(text, v, LINE_MAX);
    if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) return -1;
    const prefix = text.slice(lineStart, v);
    if (text.charCodeAt(at) === 0x3d) {
      if (!HCL_INDENT.test(prefix)) return -1;
      const name = nameBefore(text, lineStart, HCL_NAME);
      return name === null ? -1 : masked(text, at, name[1], VALUE, out);
    }
    const flow = FLOW_NAME.exec(prefix);
    if (flow) return masked(text, at, flow[2], FLOW_VALUE, out);
    if (!VALUE_INDENT.test(prefix)) return -1;
    // The name on the line before; or value first (`- value: …`), on a line after, of the same
    // item (no `- `). A diff's removed line (`-  value:`) reads as an item too: both are tried.
    let name = nameBefore(text, lineStart, NAME_LINE)?.[3] ?? null;
    if (name === null && ITEM_END.test(prefix)) name = nameAfter(text, at);
    if (name === null) return -1;
    BLOCK.lastIndex = at + 1;
    if (BLOCK.test(text)) return blockValue(text, BLOCK.lastIndex, indentOf(prefix), name, out);
    return masked(text, at, name, VALUE, out);
  },
};

/** How far a line is indented past its gutter. */
function indentOf(line: string): number {
  return LEAD.exec(line)?.[2].length ?? 0;
}

/** The name line before the line at `lineStart`, past blank and comment lines; its match. */
function nameBefore(text: string, lineStart: number, re: RegExp): RegExpExecArray | null {
  let end = lineStart - 1;
  for (let k = 0; k <= SKIP_MAX && end > 0; k++) {
    const start = lineBefore(text, end, LINE_MAX);
    const line = text.slice(start, end);
    const m = re.exec(line);
    if (m) return m;
    if (!SKIPPED.test(line) || (start > 0 && text.charCodeAt(start - 1) !== 0x0a)) return null;
    end = start - 1;
  }
  return null;
}

/** The name on a line after the value's (value first), past blank and comment lines. */
function nameAfter(text: string, at: number): string | null {
  let start = lineAfter(text, at, LINE_MAX) + 1;
  for (let k = 0; k <= SKIP_MAX && start < text.length; k++) {
    const end = lineAfter(text, start, LINE_MAX);
    const line = text.slice(start, end);
    const m = NAME_LINE.exec(line);
    if (m) return m[1] === undefined ? m[3] : null;
    if (!SKIPPED.test(line)) return null;
    start = end + 1;
  }
  return null;
}

/** Masks the value `re` reads after the separator at `at`, if `name` names a secret's. */
function masked(text: string, at: number, name: string, re: RegExp, out: Span[]): number {
  const rule = secretKey(name);
  if (!rule) return -1;
  re.lastIndex = at + 1;
  const m = re.exec(text);
  if (!m) return -1;
  const value = m[1] ?? m[2] ?? m[3];
  const quoted = m[3] === undefined;
  if (!accepted(rule, name, value, quoted)) return -1;
  let end = re.lastIndex;
  while (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09) end--;
  if (quoted) end--;
  out.push({ start: end - value.length, end, kind: rule.kind });
  return re.lastIndex;
}

export function accepted(rule: KeyRule, name: string, value: string, quoted: boolean): boolean {
  return acceptAssignment(rule.keyword, value, quoted, '', true) && !referenceValue(name, value);
}

/**
 * A block scalar's lines from `from`: those indented deeper than the key (`indent`
 * characters before it), each masked on its own, when the name names a secret's.
 */
function blockValue(text: string, from: number, indent: number, name: string, out: Span[]): number {
  const rule = secretKey(name);
  if (!rule) return -1;
  const lines: [number, number][] = [];
  let start = from;
  while (start < text.length && lines.length < 64) {
    const end = lineAfter(text, start, VALUE_MAX);
    const line = text.slice(start, end);
    const lead = LEAD.exec(line)?.[0].length ?? 0;
    const body = line.trimEnd();
    if (body.length > lead) {
      if (indentOf(line) <= indent) break;
      lines.push([start + lead, start + body.length]);
    }
    start = end + 1;
  }
  if (lines.length === 0) return -1;
  const value = lines.map(([a, b]) => text.slice(a, b)).join(' ');
  if (!accepted(rule, name, value, true)) return -1;
  for (const [a, b] of lines) out.push({ start: a, end: b, kind: rule.kind });
  return lines[lines.length - 1][1];
}

/**
 * JSON: `{"Name": "DB_PASSWORD", "Value": "…"}` (ECS), `{"ParameterKey": "DbPassword",
 * "ParameterValue": "…"}` (CloudFormation): the value's object holds a name member (before or
 * after it, maybe past a nested object or array: review 20) naming a secret's.
 */
function jsonValue(text: string, at: number, out: Span[], names: RegExp, values: RegExp): number {
  // A string value first: most `"value":` in JSON text hold none (`"value": {`, a number).
  values.lastIndex = at + 1;
  const m = values.exec(text);
  if (!m) return -1;
  let open = at;
  for (let depth = 0, stop = Math.max(0, at - OBJECT_REACH); open >= stop; open--) {
    const c = text.charCodeAt(open);
    if (c === 0x7d || c === 0x5d) depth++;
    else if (c === 0x7b || c === 0x5b) {
      if (depth === 0) break;
      depth--;
    }
  }
  if (text.charCodeAt(open) !== 0x7b) return -1;
  let close = at;
  for (let depth = 0, stop = Math.min(text.length, at + OBJECT_REACH); close < stop; close++) {
    const c = text.charCodeAt(close);
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) break;
      depth--;
    }
  }
  const name = names.exec(topLevel(text, open, close));
  if (!name) return -1;
  const rule = secretKey(name[1]);
  if (!rule || !accepted(rule, name[1], m[1], true)) return -1;
  const quote = values.lastIndex - 1;
  const end = quote - backslashesBefore(text, quote); // the closing quote's escapes
  const { start, kind } = ruleStart(rule, m[1]);
  if (start < m[1].length) out.push({ start: end - m[1].length + start, end, kind });
  return values.lastIndex;
}

/**
 * The members of the object `text.slice(open, close)` opens, without what its nested objects
 * and arrays hold (a nested `"name"` is not the item's: `{"Value": "…", "meta": {"name": …}}`).
 * Brackets inside strings are counted too: a miscount only hides a member.
 */
function topLevel(text: string, open: number, close: number): string {
  let out = '';
  let from = open;
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (depth++ === 0) out += text.slice(from, i);
    } else if ((c === 0x7d || c === 0x5d) && depth > 0 && --depth === 0) {
      from = i + 1;
    }
  }
  return depth === 0 ? out + text.slice(from, close + 1) : out;
}
