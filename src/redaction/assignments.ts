import { ci, REDACTED, regexDetector } from './detector';

// --- password=..., "token": "...", DB_PASSWORD=..., api_key: ... ----------------------------

/** Key names whose value is a secret; the name must END with one (`max_tokens=` is not). */
const KEYWORDS = [
  ci('password'),
  ci('passwd'),
  ci('passphrase'),
  // `pass` alone only as its own word (`DB_PASS`, `dbPass`), not in `bypass`, `compass`.
  `(?<!(?<!\\\\)[A-Za-z])${ci('pass')}`,
  '(?<=[a-z])Pass',
  ci('pwd'),
  ci('secret'),
  ci('token'),
  `${ci('api')}[_-]?${ci('key')}`,
  `${ci('access')}[_-]?${ci('key')}`,
  `${ci('private')}[_-]?${ci('key')}`,
].join('|');
/** `SECRET_KEY`, `secret_access_key`, `SECRET_KEY_BASE`. */
const KEY_SUFFIX = `(?:[_-]?(?:${ci('access')}[_-]?)?${ci('key')})?(?:[_-]?${ci('base')})?`;
/** Between the key name and the separator: closing quotes (maybe escaped) and blanks. */
const KEY_CLOSE = `["'\\\\]*[ \\t]*`;
const AUTHZ = ci('authorization');
/**
 * The last two letters of KEYWORDS, KEY_SUFFIX and AUTHZ (rd wd se ss et en ey on): a cheap
 * first test at every `:` and `=`, which JSON keys and code are full of.
 */
const KEY_LAST = '(?:[rRwW][dD]|[sS][eEsS]|[eE][tTnNyY]|[oO][nN])';
const KEY_LAST_CODES = new Set([...'destny'].map((c) => c.charCodeAt(0)));
const LAST_N = 0x6e; // authorizatioN
const LAST_Y = 0x79; // secret_access_keY

/** The last letter of the key before the `:`/`=` at `at`, past quotes and blanks, lower case. */
function keyLast(text: string, at: number): number {
  let i = at - 1;
  for (; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c !== 0x22 && c !== 0x27 && c !== 0x5c && c !== 0x20 && c !== 0x09) break;
  }
  return i < 0 ? 0 : text.charCodeAt(i) | 0x20;
}

/**
 * Values that are code or placeholders, not secrets: types, literals, keywords (quoted
 * too: `"password": "string"` in a schema example is a placeholder).
 */
const NOT_SECRETS = new Set(
  (
    'null none nil undefined true false yes no string str number int integer float bool ' +
    'boolean any unknown bytes object optional required secret password passwd token pwd ' +
    'await new this self typeof function async yield return const let var void env changeme'
  ).split(' '),
);
const REFERENCE = /^(?:\$|%\w+%$|\{\{)/;
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const LOWER_IDENTIFIER = /^[a-z_$][\w$]*$/;

/**
 * Whether an assigned value is masked. Not: placeholders (NOT_SECRETS, `****`), references
 * (`$VAR`, `${{ secrets.X }}`, `%VAR%`, `{{ .Values.x }}`), markers; and when unquoted, code:
 * calls and indexing (`getPassword()`, `tokens[i]`), the key name itself
 * (`password = password`), member paths (`process.env.X`), identifiers built on the key name
 * (`hashedPassword`, `nextToken`), and paths after `PWD=`.
 */
function acceptAssignment(keyword: string, value: string, quoted: boolean, next: string): boolean {
  if (!quoted && (next === '(' || next === '[')) return false;
  const c = value[0];
  const special = c === '$' || c === '%' || c === '{' || c === '[';
  if (special && (REFERENCE.test(value) || value.startsWith(REDACTED))) return false;
  if (value.length <= 9 && NOT_SECRETS.has(value.toLowerCase())) return false;
  if (!/[A-Za-z0-9]/.test(value)) return false;
  if (quoted) return true;
  // Bare values after the looser key words (token, secret, api key...) must look generated:
  // prose like `Refresh Token: Refresh` or `refresh_token:1` is not a secret.
  const passwordKey = /pass|pwd/i.test(keyword);
  if (!passwordKey && value.length < 20 && !(value.length >= 6 && /\d/.test(value))) return false;
  if (value.length === keyword.length && value.toLowerCase() === keyword.toLowerCase()) {
    return false;
  }
  if (value.includes('.') && MEMBER_PATH.test(value)) return false;
  const cap = keyword[0].toUpperCase() + keyword.slice(1).toLowerCase();
  if (value.includes(cap) && LOWER_IDENTIFIER.test(value)) return false;
  if ((c === '/' || c === '~' || c === '.') && /^pwd$/i.test(keyword)) return false;
  return true;
}

/**
 * `password=...`, `"password": "..."`, `DB_PASSWORD=...`, `api_key: ...`, `'pass' => '...'`,
 * `token := "..."`: masks the value only. Groups: 1 key word, 2 "value", 3 'value',
 * 4 `value`, 5 bare value; the value ends the match.
 */
export const assignment = regexDetector({
  kind: 'password',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=(${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE})(?::=|=>|[:=])[ \\t]*` +
    '(?:\\\\*"([^"\\\\\\r\\n]+)|\\\\*\'([^\'\\\\\\r\\n]+)|`([^`\\\\\\r\\n]+)' +
    '|(?!=)([^\\s"\'`\\\\,;&|<>(){}\\[\\]]+))',
  quick: (text, at) => KEY_LAST_CODES.has(keyLast(text, at)),
  pick: (m, end) => {
    const value = m[2] ?? m[3] ?? m[4] ?? m[5];
    const ok = acceptAssignment(m[1], value, m[5] === undefined, m.input[end] ?? '');
    return ok ? end - value.length : -1;
  },
});

/** `aws_secret_access_key = <40>` and `"SecretAccessKey": "<40>"` (aws sts output). */
export const awsSecretKey = regexDetector({
  kind: 'aws-secret-key',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${ci('secret')}[_-]?${ci('access')}[_-]?${ci('key')}${KEY_CLOSE})(?::=|=>|[:=])` +
    `[ \\t]*\\\\*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  quick: (text, at) => keyLast(text, at) === LAST_Y,
  pick: (m, end) => end - m[1].length,
});

/**
 * `Authorization: Bearer <token>` (and lower case, in JSON, in curl `-H`), `Basic <base64>`,
 * `token <token>` (GitHub), or a bare credential of 8+ characters with a digit. Masks the
 * credential only.
 */
export const authorization = regexDetector({
  kind: 'bearer',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${AUTHZ}${KEY_CLOSE})[:=][ \\t]*\\\\*["'\`]?[ \\t]*` +
    `(?:(${ci('bearer')}|${ci('basic')}|${ci('token')})[ \\t]+)?` +
    '([A-Za-z0-9._~+/-]+=*)',
  quick: (text, at) => keyLast(text, at) === LAST_N,
  pick: (m, end) => {
    const cred = m[2];
    if (m[1] === undefined && !(cred.length >= 8 && /\d/.test(cred))) return -1;
    return end - cred.length;
  },
  kindOf: (m) => (/^basic$/i.test(m[1] ?? '') ? 'basic-auth' : 'bearer'),
});

/**
 * For the key names, the prefilter also looks at the value (never stricter than
 * `assignment`, only cheaper): something must follow the separator, and not a bare word of
 * NOT_SECRETS (`password: str`, `token = await ...`): code mentions stay in native code.
 */
const VALUE_START = '(?=[=>]?[ \\t]*(?:\\\\*["\'`][^\\\\\\r\\n]|[^\\s"\'`\\\\,;&|<>(){}\\[\\]=]))';
const NOT_A_WORD = `(?![=>]?[ \\t]*(?:${[...NOT_SECRETS].map(ci).join('|')})(?![^\\s"'\`\\\\,;&|<>(){}\\[\\]]))`;
export const ASSIGNMENT_TRIGGER =
  `[:=](?<=${KEY_LAST}${KEY_CLOSE}[:=])(?:(?<=${AUTHZ}${KEY_CLOSE}[:=])` +
  `|(?<=(?:${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE}[:=])${VALUE_START}${NOT_A_WORD})`;
