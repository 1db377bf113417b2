import type { Detector, Span } from './detector';
import { acceptAssignment } from './keys';
import { VALUE_MAX } from './values';

// --- passwords in SQL and database connection strings ----------------------------------------

/**
 * `[WITH] [ENCRYPTED] PASSWORD 'x'` (ALTER/CREATE USER or ROLE, upper or lower case) and
 * `IDENTIFIED [WITH plugin] BY 'x'`: group 1 or 2.
 */
const SQL = new RegExp(
  '(?:(?:(?:WITH|with)[ \\t]+)?(?:(?:ENCRYPTED|encrypted)[ \\t]+)?(?:PASSWORD|password)' +
    '|(?:IDENTIFIED|identified)[ \\t]+(?:(?:WITH|with)[ \\t]+\\w{1,40}[ \\t]+)?(?:BY|by))' +
    `[ \\t]+(?:E?'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\\\\?"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\?")`,
  'dy',
);

/**
 * MySQL's `SET PASSWORD [FOR 'u'@'%'] = 'x'` (or `= PASSWORD('x')`), from its PASSWORD: group 1
 * or 2. SET before it is checked by the find (SET_BEFORE).
 */
const SET_PASSWORD = new RegExp(
  `(?:PASSWORD|password)(?:[ \\t]+(?:FOR|for)[ \\t]+[^=;\\r\\n]{1,200}?)?[ \\t]*=[ \\t]*` +
    `(?:(?:PASSWORD|password)\\([ \\t]*)?(?:'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\\\\?"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\?")`,
  'dy',
);
const SET_BEFORE = /(?<![A-Za-z])(?:SET|set)[ \t]+$/;
/**
 * Oracle's unquoted `IDENTIFIED BY tiger` (a letter, then letters, digits, `_`, `$`, `#`), from
 * its IDENTIFIED: group 1. Not `BY VALUES 'hash'` nor `BY PASSWORD 'hash'` (MySQL 5's form).
 */
const IDENTIFIED_BARE = new RegExp(
  '(?:IDENTIFIED|identified)[ \\t]+(?:BY|by)[ \\t]+(?!(?:VALUES|values|PASSWORD|password)(?![A-Za-z0-9_$#]))' +
    '([A-Za-z][A-Za-z0-9_$#]{0,127})(?![A-Za-z0-9_$#\'"\\\\])' +
    // The statement ends or goes on with a keyword (DEFAULT TABLESPACE): not prose.
    '(?=[ \\t]*(?:[;)"\'\\r\\n]|\\\\[nr"]|$)|[ \\t]+[A-Z]{3,}(?![A-Za-z]))',
  'dy',
);

/**
 * The value of the first of `regexes` that matches at `start`: its group 1 or 2, where the
 * match indices (`d`) say, quotes and escapes left outside.
 */
function sqlValue(
  text: string,
  start: number,
  regexes: readonly RegExp[],
): { value: string; end: number; next: number } | null {
  for (const re of regexes) {
    re.lastIndex = start;
    const m = re.exec(text);
    if (!m) continue;
    const g = m[1] !== undefined ? 1 : 2;
    return { value: m[g], end: m.indices![g][1], next: re.lastIndex };
  }
  return null;
}

/**
 * A detector's find from `back(at)`, where `before` (tested on the 80 characters before that
 * start) must hold as the trigger's look-behind does: a find is never looser than its trigger.
 * `more`: other forms tried at the same start (SET PASSWORD, Oracle's bare value).
 */
function sqlFind(
  back: (text: string, at: number) => number,
  before: RegExp,
  more: readonly { re: RegExp; before: RegExp }[] = [],
): Detector['find'] {
  return (text, at, _state, out) => {
    const start = back(text, at);
    if (start < 0) return -1;
    const head = text.slice(Math.max(0, start - 80), start);
    const regexes = [
      ...(before.test(head) ? [SQL] : []),
      ...more.filter((f) => f.before.test(head)).map((f) => f.re),
    ];
    const found = regexes.length > 0 ? sqlValue(text, start, regexes) : null;
    if (!found) return -1;
    if (acceptAssignment('password', found.value, true, '')) {
      out.push({ start: found.end - found.value.length, end: found.end, kind: 'password' });
    }
    return found.next;
  };
}

const NOT_AFTER_LETTER = /(?:^|[^A-Za-z])$/;
const LOWER_CONTEXT =
  /(?<![A-Za-z])(?:with|login|encrypted|(?:user|role)[ \t]+[\w"'.@%-]{1,64})[ \t]+$/;

/** A quoted string after the blank(s) that follow PASSWORD or BY. */
const QUOTE = `[ \\t]+(?:E?'|\\\\?")`;
/** After SET PASSWORD: `[FOR 'u'@'h'] = ['|PASSWORD(']` (SET_PASSWORD, cheaper). */
const SET_REST = (pw: string) =>
  `(?:[ \\t]+[^=;\\r\\n]{1,200}?)?[ \\t]*=[ \\t]*(?:${pw}\\([ \\t]*)?(?:'|\\\\?")`;

/**
 * `ALTER USER postgres PASSWORD 'S3cret'`, `CREATE ROLE app LOGIN ENCRYPTED PASSWORD '…'`,
 * `… WITH PASSWORD '…'`: anchored on the `W` of PASSWORD (upper case is SQL's keyword; a
 * quoted string after it is the password).
 */
export const sqlPasswordUpper: Detector = {
  kind: 'password',
  anchors: 'W',
  trigger: `W(?=ORD(?:${QUOTE}|${SET_REST('PASSWORD')}))(?<=(?<![A-Za-z])PASSW)`,
  find: sqlFind((_text, at) => at - 4, NOT_AFTER_LETTER, [
    { re: SET_PASSWORD, before: SET_BEFORE },
  ]),
};

/** `CREATE USER 'u'@'%' IDENTIFIED [WITH plugin] BY 'S3cret'` (MySQL, Oracle; Oracle's unquoted too). */
export const sqlIdentifiedBy: Detector = {
  kind: 'password',
  anchors: 'I',
  trigger: `I(?=DENTIFIED[ \\t]+(?:(?:WITH[ \\t]+\\w{1,40}[ \\t]+)?BY${QUOTE}|BY[ \\t]+[A-Za-z]))(?<![A-Za-z]I)`,
  find: sqlFind((_text, at) => at, NOT_AFTER_LETTER, [
    { re: IDENTIFIED_BARE, before: NOT_AFTER_LETTER },
  ]),
};

/**
 * Lower case: `alter user app with password '…'`, `create role app login password '…'`,
 * `set password for 'u'@'%' = '…'`,
 * anchored on the `w` of password after with, login, encrypted, or user/role and a name
 * (lower-case `identified by` has no character the prefilter can afford, see DETECTORS).
 */
export const sqlPasswordLower: Detector = {
  kind: 'password',
  anchors: 'w',
  // One alternation after the head: the prefilter groups triggers by their first character.
  trigger:
    `w(?:(?=ord${QUOTE})(?<=(?<![A-Za-z])(?:with|login|encrypted|(?:user|role)[ \\t]+[\\w"'.@%-]{1,64})[ \\t]+passw)` +
    `|(?=ord${SET_REST('password')})(?<=(?<![A-Za-z])set[ \\t]+passw))`,
  find: sqlFind((_text, at) => at - 4, LOWER_CONTEXT, [{ re: SET_PASSWORD, before: SET_BEFORE }]),
};

/** Before `@tcp(` of a Go DSN: `user:password`, from a quote, blank or `=`. */
const DSN_USER = /(?:^|["'`\s=(])[^\s"'`:@/]{1,128}:([^\s"'`@]{1,256})$/;

/**
 * `sql.Open("mysql", "root:S3cret@tcp(127.0.0.1:3306)/app")`: a Go MySQL DSN's password,
 * which is no URL (the URL detector wants `://`).
 */
export const goDsnPassword: Detector = {
  kind: 'password',
  anchors: '(',
  trigger: '', // callSecret's
  find(text, at, _state, out) {
    const atSign = text.startsWith('@tcp', at - 4) ? at - 4 : at - 5;
    if (atSign === at - 5 && !text.startsWith('@unix', at - 5)) return -1;
    const m = DSN_USER.exec(text.slice(Math.max(0, atSign - 400), atSign));
    if (!m || !acceptAssignment('password', m[1], true, '')) return -1;
    const span: Span = { start: atSign - m[1].length, end: atSign, kind: 'password' };
    out.push(span);
    return at + 1;
  },
};
