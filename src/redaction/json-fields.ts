import type { Detector, Span } from './detector';
import { acceptAssignment, ruleStart, secretKey, type KeyRule } from './keys';
import { VALUE_MAX } from './values';
import { accepted, ITEM_NAME, ITEM_NAME_KEYS, ITEM_VALUE_KEYS } from './env-lists';

// --- values a JSON object's other members say are secret ----------------------------------------

/** Most characters read each way from a member to the braces of its object. */
const OBJECT_REACH = 1024;

/**
 * The object around `at` in JSON text (maybe escaped, pretty-printed, behind gutters or diff
 * signs): [start of `{`, end after `}`], or null when its braces are not within OBJECT_REACH.
 * Braces inside strings are counted too: a miscount only finds no object, or a smaller one.
 */
function objectAround(text: string, at: number): [number, number] | null {
  let start = -1;
  for (let i = at, depth = 0, stop = Math.max(0, at - OBJECT_REACH); i >= stop; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x7d) depth++;
    else if (c === 0x7b && depth-- === 0) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  for (let i = at, depth = 0, stop = Math.min(text.length, at + OBJECT_REACH); i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) depth++;
    else if (c === 0x7d && depth-- === 0) return [start, i + 1];
  }
  return null;
}

/** Blanks and line breaks between JSON tokens, real or escaped, each break maybe gutted. */
const WS = '(?:[ \\t]|(?:[\\r\\n]|\\\\+[nr])(?:[ \\t]*\\d{1,9}:[ \\t]?|[+-])?|\\\\+t){0,64}';
/** A member `"key": "string"` at its object's top level or deeper: 1 the key, 2 the string. */
const STRING_MEMBER = new RegExp(
  `\\\\*"([\\w-]{1,64})\\\\*"${WS}:${WS}\\\\*"((?:[^"\\\\\\r\\n]|\\\\+[^"\\\\])` +
    `{0,${VALUE_MAX}})\\\\*"`,
  'g',
);

/** Masks the string values of `keys` among the members of `text.slice(from, to)`. */
function maskMembers(
  text: string,
  [from, to]: [number, number],
  keys: RegExp,
  out: Span[],
): number {
  const object = text.slice(from, to);
  let found = 0;
  for (const m of object.matchAll(STRING_MEMBER)) {
    if (!keys.test(m[1]) || !acceptAssignment('password', m[2], true, '')) continue;
    let end = from + (m.index ?? 0) + m[0].length - 1;
    while (text[end - 1] === '\\') end--; // the closing quote's escapes
    out.push({ start: end - m[2].length, end, kind: 'password' });
    found++;
  }
  return found;
}

const SENSITIVE_KEY = /[sS]ensitive\\*"[ \t]*:[ \t]*true/;

/**
 * Terraform's `terraform output -json` and state: `{"sensitive": true, "type": "string",
 * "value": "S3cret"}` (or `"value"` first, as state files have it), in command output or a
 * file, compact or pretty-printed, escaped or not: the string value of an object marked
 * sensitive, whatever its output is named. Anchored on the `:` after `"sensitive"`.
 */
export const sensitiveValue: Detector = {
  kind: 'password',
  anchors: ':',
  // The look-ahead first: it fails at once after nearly every `:`.
  // One alternative for both JSON detectors (browserJsonFill's keys too): each alternative
  // costs every `:` of every JSON text a test.
  // ssmParameterValue's `"Value":` too (review 20).
  trigger: `:(?<=(?:[sS]ensitive|[vV]alue|text|input|keys)\\\\*"[ \\t]*:)`,
  find(text, at, _state, out) {
    // The trigger's test, as every `:` detector's find runs where any `:` trigger fired.
    const around = text.slice(Math.max(0, at - 24), at + 12);
    if (!SENSITIVE_KEY.test(around)) return -1;
    const object = objectAround(text, at);
    if (!object) return -1;
    maskMembers(text, object, /^value$/, out);
    return at + 1;
  },
};

/** The keys a browser tool's step names its field with. */
export const FIELD_KEYS =
  /^(?:selector|ref|element|target|locator|field|name|label|id|xpath|css|placeholder|aria-label)$/i;
/** A field named as a password field (a word, not `bypass` or `passenger`). */
export const PASSWORD_FIELD =
  /(?<![a-z])(?:pass(?:word|wd|phrase)?|pwd|passwort|kennwort|mot[_ -]?de[_ -]?passe|contrase(?:ñ|n)a|senha)(?![a-z])|password/i;
/**
 * After a string's opening quote: the escaped quote that opens a string inside it, when the
 * string is JSON text itself (a compact tool argument: `"value": "\\"S3cret\\""`, review 20).
 */
const INNER_QUOTE = '(?:\\\\+")?';
/** Each `"key": "string"` of an object, for the field's name. */
const FIELD_MEMBER = new RegExp(
  `\\\\*"([\\w-]{1,64})\\\\*"${WS}:${WS}\\\\*"${INNER_QUOTE}([^"\\\\\\r\\n]{0,256})\\\\*"`,
  'g',
);
/** From the `:`: the typed string (1), maybe behind escaped quotes. */
const TYPED = new RegExp(`:${WS}\\\\*"${INNER_QUOTE}([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"`, 'y');
/** How far before the typed value its object's `{` and field name are looked for (the trigger's). */
const FIELD_REACH = 256;
const TYPED_KEY = /(?:value|text|input|keys)\\*"[ \t]*$/;
/** A password word before it (cheaper than reading the members, which most objects fail). */
const PASSWORD_WORD = /pass|pwd|kennwort|senha|contrase/i;

/**
 * A browser automation tool's step as JSON: `{"action": "fill", "selector": "#password",
 * "value": "S3cret"}`, `{"type": "input", "ref": "e12-password", "text": "S3cret"}`: what is
 * typed into a field whose selector, ref or name (before it in the object) names a password.
 * Anchored on the `:` after `"value"` or `"text"` (sensitiveValue's trigger); a password word
 * within 256 characters before is tested first (most `"value":` have none).
 */
export const browserJsonFill: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: '', // sensitiveValue's
  find(text, at, _state, out) {
    // The trigger's key, as every `:` detector's find runs where any `:` trigger fired.
    if (!TYPED_KEY.test(text.slice(Math.max(0, at - 24), at))) return -1;
    if (!PASSWORD_WORD.test(text.slice(Math.max(0, at - FIELD_REACH), at))) return -1;
    let open = at;
    for (const stop = Math.max(0, at - FIELD_REACH); open >= stop; open--) {
      const c = text.charCodeAt(open);
      if (c === 0x7b) break;
      if (c === 0x7d) return -1;
    }
    if (text.charCodeAt(open) !== 0x7b) return -1;
    let field = false;
    for (const m of text.slice(open, at).matchAll(FIELD_MEMBER)) {
      if (FIELD_KEYS.test(m[1]) && PASSWORD_FIELD.test(m[2])) field = true;
    }
    if (!field) return -1;
    return maskValueAt(text, at, TYPED_RULE, out);
  },
};

/** A `"key": "name"` member (Postman, HTTPie, Insomnia): 1 the name. */
const KEY_MEMBER = new RegExp(
  `\\\\*"key\\\\*"${WS}:${WS}\\\\*"${INNER_QUOTE}([^"\\\\\\r\\n]{1,128})\\\\*"`,
);
const VALUE_KEY = /value\\*"[ \t]*$/;
/** How far from `"value":` its object's `"key"` member is looked for (cheap test first). */
const PAIR_REACH = 256;

/**
 * Masks the JSON string value after the `:` at `at` under `rule` (its placeholders and
 * references accepted as an assignment's; an Authorization value keeps its scheme, as in a
 * parsed value: ./json), for the detectors below that have judged its object; returns where
 * the scan goes on, -1 when no string value follows.
 */
function maskValueAt(text: string, at: number, rule: KeyRule, out: Span[]): number {
  TYPED.lastIndex = at;
  const m = TYPED.exec(text);
  if (!m) return -1;
  let end = TYPED.lastIndex - 1;
  while (text[end - 1] === '\\') end--; // the closing quote's escapes
  if (acceptAssignment(rule.keyword, m[1], true, '')) {
    const { start, kind } = ruleStart(rule, m[1]);
    if (start < m[1].length) out.push({ start: end - m[1].length + start, end, kind });
  }
  return TYPED.lastIndex;
}

/**
 * A Postman or HTTPie variable, header or form field: `{"key": "password", "value": "S3cret"}`
 * (maybe `"type": "text"` between, `"value"` first, pretty-printed): the value of an object
 * whose `key` member names a secret was served clear (review r19). Anchored on the `:` after
 * `"value"` (sensitiveValue's trigger); a `"key` within 256 characters is tested first.
 */
export const keyValuePair: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: '', // sensitiveValue's
  find(text, at, _state, out) {
    if (!VALUE_KEY.test(text.slice(Math.max(0, at - 12), at))) return -1;
    // Within PAIR_REACH each way (indexOf on the whole text would read it at each `"value":`).
    if (!text.slice(Math.max(0, at - PAIR_REACH), at + PAIR_REACH).includes('"key')) return -1;
    const object = objectAround(text, at);
    if (!object) return -1;
    const k = KEY_MEMBER.exec(text.slice(object[0], object[1]));
    const rule = k ? secretKey(k[1]) : null;
    if (!rule) return -1;
    return maskValueAt(text, at, rule, out);
  },
};

/** `"value":` as a member's whole key (not `"defaultValue":`). */
const VALUE_MEMBER = /"value\\*"[ \t]*$/;
const COOKIE_RULE: KeyRule = { keyword: 'cookie', kind: 'cookie' };
/**
 * The names of session and login cookies, whose value is a cookie's without a `domain` beside
 * it (review 21: `{"name": "sessionid", "value": "…"}` of a HAR entry or a `document.cookie`
 * dump was served clear): `sessionid`, `session`, `sess`, `sid`, `connect.sid`, `PHPSESSID`,
 * `JSESSIONID`, `ASP.NET_SessionId`, `laravel_session`, `_gh_sess`, `session_token`,
 * `next-auth.session-token`, `auth_token`, `remember_user_token`, `access_token`,
 * `refresh_token`, maybe behind `__Secure-` or `__Host-`. Not `theme`, `lang`, `csrftoken`.
 */
export const SESSION_COOKIE =
  /^(?:__(?:secure|host)-)?(?:[\w.-]{0,40}[._-])?(?:session(?:[-_.]?(?:id|token|key))?|sess(?:id)?|sid|phpsessid|jsessionid|auth[-_]?token|remember[-_]?(?:user[-_]?)?token|access[-_]?token|refresh[-_]?token)$/i;
/**
 * A session cookie without a `domain` (isCookie): its name SESSION_COOKIE's, its value a session
 * id's (12 or more characters with a digit and no blank: `{"name": "session", "value":
 * "morning"}` is no cookie's).
 */
const sessionCookie = (name: unknown, value: unknown): boolean =>
  typeof name === 'string' &&
  name.length <= 64 &&
  SESSION_COOKIE.test(name) &&
  typeof value === 'string' &&
  SESSION_VALUE.test(value);
const SESSION_VALUE = /^(?=\D*\d)\S{12,}$/;
/** What a session cookie's name holds (cookieValue's cheap test without a `"domain`). */
const SESSION_WORD = /ses|sid|token/i;

/**
 * A browser cookie as JSON (Playwright's storage state and `addCookies`, the DevTools
 * protocol's `Network.setCookie`, a cookie export): `{"name": "sessionid", "value": "S3cret",
 * "domain": "x.com", …}`. A parsed value under `"cookies"` was masked (./json), its raw line
 * served the value clear (review 20); now the value of an object with a `name` and a `domain`
 * string (and no `type` one: a DNS record's) is masked in both, and the name and domain stay
 * (they are no secret); without a `domain`, when the name is a session cookie's
 * (SESSION_COOKIE, review 21). Anchored on the
 * `:` after `"value"` (sensitiveValue's trigger); a `"domain` within 256 characters first.
 */
export const cookieValue: Detector = {
  kind: 'cookie',
  anchors: ':',
  trigger: '', // sensitiveValue's
  find(text, at, _state, out) {
    if (!VALUE_MEMBER.test(text.slice(Math.max(0, at - 12), at))) return -1;
    const near = text.slice(Math.max(0, at - PAIR_REACH), at + PAIR_REACH);
    if (!near.includes('"domain') && !SESSION_WORD.test(near)) return -1;
    const object = objectAround(text, at);
    if (!object) return -1;
    let name: string | null = null;
    let value: string | null = null;
    let domain = false;
    for (const m of text.slice(object[0], object[1]).matchAll(STRING_MEMBER)) {
      if (m[1] === 'name') name = m[2];
      else if (m[1] === 'value') value = m[2];
      else if (m[1] === 'domain') domain = true;
      else if (m[1] === 'type') return -1; // a DNS record's (`"type": "A"`), not a cookie
    }
    if (name === null || !(domain || sessionCookie(name, value))) return -1;
    return maskValueAt(text, at, COOKIE_RULE, out);
  },
};

/** An SSM parameter's `"Name"` (1) and `"Type": "SecureString"` members. */
const SSM_NAME = new RegExp(`\\\\*"Name\\\\*"${WS}:${WS}\\\\*"([^"\\\\\\r\\n]{1,1024})\\\\*"`);
const SSM_SECURE = new RegExp(`\\\\*"Type\\\\*"${WS}:${WS}\\\\*"SecureString\\\\*"`);
/** A parameter's name that names a secret by its end (`/prod/db/password`, `…/API_TOKEN`). */
const SECRET_NAME = /(?:password|passwd|secret|token|key)s?$/i;
const SSM_VALUE_KEY = /"Value\\*"[ \t]*$/;
const SSM_RULE: KeyRule = { keyword: 'secret', kind: 'password' };
/** Whether an SSM parameter's `Value` is secret: its type `SecureString` or its name a secret's. */
const ssmSecret = (name: unknown, type: unknown) =>
  type === 'SecureString' || (typeof name === 'string' && SECRET_NAME.test(name));

/**
 * `aws ssm get-parameter --with-decryption` prints `{"Parameter": {"Name": "/prod/db/password",
 * "Type": "SecureString", "Value": "…", …}}` (also `get-parameters`, `get-parameters-by-path`):
 * the `Value` of a parameter whose type is `SecureString` or whose name ends as a secret's
 * (review 20: served clear). Anchored on the `:` after `"Value"`.
 */
export const ssmParameterValue: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: '', // sensitiveValue's
  find(text, at, _state, out) {
    if (!SSM_VALUE_KEY.test(text.slice(Math.max(0, at - 12), at))) return -1;
    const object = objectAround(text, at);
    if (!object) return -1;
    const body = text.slice(object[0], object[1]);
    const name = SSM_NAME.exec(body);
    if (!ssmSecret(name?.[1], SSM_SECURE.test(body) ? 'SecureString' : null)) return -1;
    return maskValueAt(text, at, SSM_RULE, out);
  },
};

/** Whether a parsed object is a cookie as cookieValue reads one (its members then stay clear). */
export function isCookie(o: Record<string, unknown>): boolean {
  return (
    typeof o.value === 'string' &&
    typeof o.name === 'string' &&
    (typeof o.domain === 'string' || sessionCookie(o.name, o.value)) &&
    typeof o.type !== 'string'
  );
}

const TYPED_KEYS = ['value', 'text', 'input', 'keys'];
const TYPED_RULE: KeyRule = { keyword: 'password', kind: 'password' };

/**
 * The rule a list item's name gives its value (./env-lists envListValue's JSON: `{"Name":
 * "API_TOKEN", "Value": "…"}`, `{"ParameterKey": "DbPassword", "ParameterValue": "…"}`,
 * `{"name": "Authorization", "value": "Bearer …"}`), for the first name member; null when the
 * name is no secret's or the value is none (a reference, a placeholder).
 */
function itemRule(o: Record<string, unknown>): [string, KeyRule] | null {
  for (const n of ITEM_NAME_KEYS) {
    const name = o[n];
    if (typeof name !== 'string') continue;
    const rule = ITEM_NAME.test(name) ? secretKey(name) : null;
    if (!rule) return null;
    for (const k of ITEM_VALUE_KEYS) {
      const v = o[k];
      if (typeof v === 'string' && v !== '' && accepted(rule, name, v, true)) return [k, rule];
    }
    return null;
  }
  return null;
}

/**
 * What the text detectors above find, for a parsed object (./json walks tool arguments as
 * values, not text): the keys whose string is secret because of the object's other members,
 * the typed value of a password field's step, a list item's value under a secret's name
 * (./env-lists), a cookie's value, and `value` of an object marked `sensitive: true`. Review
 * 20: a rule the text path has and this one had not served the value clear on one of them.
 */
export function impliedRules(o: Record<string, unknown>): Map<string, KeyRule> | null {
  let out: Map<string, KeyRule> | null = null;
  // Every rule that applies, as every text detector runs: where two give one key a rule, the
  // kind a merged span takes wins (./patterns priorityOf: bearer, then cookie, then password).
  const add = (key: string, rule: KeyRule): void => {
    const had = (out ??= new Map<string, KeyRule>()).get(key);
    if (!had || RANK[rule.kind] > RANK[had.kind]) out.set(key, rule);
  };
  if (typeof o.Value === 'string' && ssmSecret(o.Name, o.Type)) {
    // `{"Name": "/prod/db/password", "Type": "SecureString", "Value": "…"}` (ssmParameterValue)
    add('Value', SSM_RULE);
  }
  if (o.sensitive === true && typeof o.value === 'string') add('value', TYPED_RULE);
  if (typeof o.key === 'string' && typeof o.value === 'string') {
    // `{"key": "password", "value": "…"}` (keyValuePair)
    const rule = secretKey(o.key);
    if (rule) add('value', rule);
  }
  let field = false;
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'string' && FIELD_KEYS.test(k) && PASSWORD_FIELD.test(v)) field = true;
  }
  if (field) for (const k of TYPED_KEYS) if (typeof o[k] === 'string') add(k, TYPED_RULE);
  if (isCookie(o)) add('value', COOKIE_RULE);
  const item = itemRule(o);
  if (item) add(item[0], item[1]);
  return out;
}

/** The kinds of key rules in the order of ./patterns PRIORITY (not imported: it imports this). */
const RANK: Record<KeyRule['kind'], number> = { password: 0, cookie: 1, bearer: 2 };
