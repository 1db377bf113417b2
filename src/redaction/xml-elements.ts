import { ci, type Detector, type Span } from './detector';
import { acceptAssignment, secretKey, type KeyRule } from './keys';
import { VALUE_MAX } from './values';

/**
 * Secrets in XML, in every shape a config file writes them (review r16 H2, M2): an element
 * named like a secret (`<password>`, `<DB_PASSWORD>`, `<wsse:Password Type="…">`) holding text,
 * maybe on lines of its own (Maven's settings.xml puts `<password>` and its value on separate
 * lines) or in CDATA; an element whose `key`/`name` attribute names one (`<entry key=
 * "db.password">`, Android's `<string name="api_key">`); .NET's `<add key="ApiKey" value="…"/>`.
 * The value is masked, never the tags. Leading and trailing blanks and line breaks are not the
 * value: the decoded text must mask what the raw JSON line masks, where `\n` is two characters
 * that look glued to the tag.
 */

/** Names ending like a secret's (any case); secretKey judges the whole name. */
const SECRET_NAME =
  `(?:[A-Za-z][\\w.:-]{0,40})?(?:${ci('pass')}(?:${ci('word')}|${ci('wd')}|${ci('phrase')})?` +
  `|${ci('secret')}|${ci('token')}|${ci('key')}|${ci('credential')}s?)` +
  '(?:[_-]?(?:\\d{1,4}|[A-Za-z][A-Za-z]{1,11})){0,2}';
/** Elements whose `key` or `name` attribute names what they hold. */
const KEYED = 'entry|string|add|property|setting|param|parameter|env|server';
/** One attribute, with its value quoted. */
const ATTR = `\\s+[\\w:.-]{1,60}\\s*=\\s*(?:"[^"<>]{0,300}"|'[^'<>]{0,300}')`;
/**
 * Blanks and line breaks around the text, also as JSON escapes at any depth (`\n`, `\\t`: the
 * raw transcript line, JSON inside JSON, must mask what its decoded text masks, no more), a
 * line break maybe followed by a viewer's line number (`5:     `, view_file's gutter).
 */
const BLANKS =
  '(?:[ \\t\\r\\f\\v]|(?:\\n|\\\\+n)(?:[ \\t]*\\d{1,9}(?::[ \\t]?|\\t))?|\\\\+[rt]){0,200}';
/**
 * Element text (group 4, maybe in CDATA: group 3), blanks and line breaks around it. The text
 * may go on over lines (`<apiKey>V` then `  rotated 2026-01</apiKey>`, a CDATA section with the
 * value on a line of its own): a raw JSON line reads it as one line, `\n` two characters, and
 * masks it; the decoded text must mask it too (review r17 H1). Group 4 is the text's first
 * line, what goes on below it is not the value. A line a diff marks (`+`, `-`) goes on no text:
 * a diff's element is read on each side (./diff).
 */
const LINE_BREAK = '(?:\\r?\\n|\\r)(?![+-])';
// The first line ends on a character not blank (blanks before its line break are no value's,
// review r17: `<password>V \n x</password>`): BLANKS is tried after each of its words, not
// at each blank of a run (`<password>a` then 300 blanks cost BLANKS' 200 steps a blank).
// `(?=(x))\\N` reads x once, as an atomic group would: a lazy run tried before `BLANKS</` at
// each of its characters costs BLANKS' 200 steps a character (`<password>a\n` then blanks).
const TEXT =
  `${BLANKS}(?:<!\\[CDATA\\[(?=((?:[^\\]\\r\\n]|${LINE_BREAK}){1,${VALUE_MAX}}))\\3\\]\\]>` +
  `|((?:[^<\\s\\\\]|\\\\+[^nrt\\\\])(?:[^<\\r\\n]{0,${VALUE_MAX}}?[^<\\s])?)` +
  `(?:[ \\t]*${LINE_BREAK}(?=([^<]{0,${VALUE_MAX}}))\\5(?=</))?)${BLANKS}</`;
/** `<name attrs>text</`: group 1 the name, 2 the attributes (with indices). */
const ELEMENT = new RegExp(`<([A-Za-z][\\w.:-]{0,80})((?:${ATTR}){0,8})\\s*>${TEXT}`, 'yd');
/**
 * The same with the text in a `<value>` element of its own (Spring's `<property name=
 * "password">` then `<value>V</value>`, `<password><value>V</value></password>`), on the same
 * line or the next: the value was served clear (review r19).
 */
const NESTED = new RegExp(
  `<([A-Za-z][\\w.:-]{0,80})((?:${ATTR}){0,8})\\s*>${BLANKS}<value\\s*>${TEXT}`,
  'yd',
);
/** `<add key="ApiKey" value="…"/>` (.NET appSettings): group 1 the attributes. */
const SELF_CLOSING = new RegExp(`<(?:${KEYED})((?:${ATTR}){1,8})\\s*/>`, 'yd');
/** An attribute's name and value: groups 1 and 2 or 3. */
const ATTRS = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const KEYED_NAME = new RegExp(`^(?:${KEYED})$`);

export const xmlSecretElement: Detector = {
  kind: 'password',
  anchors: '<',
  // Only names ending like a secret's, and the keyed elements, in native code: every HTML tag
  // is a `<` with a name.
  trigger: `<(?=${SECRET_NAME}[\\s>]|(?:${KEYED})\\s)`,
  find(text, at, _state, out) {
    ELEMENT.lastIndex = at;
    let m = ELEMENT.exec(text);
    let end = ELEMENT.lastIndex;
    let own = m?.[1];
    if (!m?.indices) {
      NESTED.lastIndex = at;
      m = NESTED.exec(text);
      if (!m?.indices) return selfClosing(text, at, out);
      end = NESTED.lastIndex;
      own = 'value';
    }
    // The closing tag must be the element's own.
    if (!new RegExp(`^${own!.replace(/[.]/g, '\\.')}\\s*>`).test(text.slice(end, end + 90))) {
      return -1;
    }
    const keyed = KEYED_NAME.test(m[1]);
    const rule = keyed ? attrRule(attributes(m[2])) : secretKey(m[1]);
    if (!rule) return -1;
    const g = m[3] !== undefined ? 3 : 4;
    const value = m[g];
    // Android's string resources are labels (`Enter your password`): a key there is one word.
    if (m[1] === 'string' && /\s/.test(value)) return end;
    // CDATA over lines: the value is its text past the line breaks and blanks around it.
    const lead = g === 3 ? /^\s*/.exec(value)![0].length : 0;
    const v = g === 3 ? value.trim() : value;
    if (acceptAssignment(rule.keyword, v.trim(), true, '')) {
      const start = m.indices[g][0] + (lead === value.length ? 0 : lead);
      out.push({ start, end: start + (v === '' ? value.length : v.length), kind: rule.kind });
    }
    return end;
  },
};

function selfClosing(text: string, at: number, out: Span[]): number {
  SELF_CLOSING.lastIndex = at;
  const m = SELF_CLOSING.exec(text);
  if (!m?.indices) return -1;
  const attrs = attributes(m[1]);
  const rule = attrRule(attrs);
  const value = attrs.get('value');
  if (!rule || value === undefined || value.v === '') return -1;
  if (acceptAssignment(rule.keyword, value.v, true, '')) {
    const start = m.indices[1][0] + value.at;
    out.push({ start, end: start + value.v.length, kind: rule.kind });
  }
  return SELF_CLOSING.lastIndex;
}

interface AttrValue {
  v: string;
  /** Offset of the value in the attributes' text. */
  at: number;
}

/** Attributes by lower-case name. */
function attributes(source: string): Map<string, AttrValue> {
  const map = new Map<string, AttrValue>();
  for (const a of source.matchAll(ATTRS)) {
    const v = a[2] ?? a[3];
    map.set(a[1].toLowerCase(), { v, at: (a.index ?? 0) + a[0].length - 1 - v.length });
  }
  return map;
}

/** The secret a keyed element's `key` or `name` attribute names. */
function attrRule(attrs: Map<string, AttrValue>): KeyRule | null {
  const name = attrs.get('key') ?? attrs.get('name');
  return name ? secretKey(name.v) : null;
}
