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
  'y',
);

/**
 * A detector's find from `back(at)`, where `before` (tested on the 80 characters before that
 * start) must hold as the trigger's look-behind does: a find is never looser than its trigger.
 */
function sqlFind(back: (text: string, at: number) => number, before: RegExp): Detector['find'] {
  return (text, at, _state, out) => {
    const start = back(text, at);
    if (start < 0 || !before.test(text.slice(Math.max(0, start - 80), start))) return -1;
    SQL.lastIndex = start;
    const m = SQL.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2];
    const end = SQL.lastIndex - (m[1] !== undefined ? 1 : text[SQL.lastIndex - 2] === '\\' ? 2 : 1);
    if (acceptAssignment('password', value, true, '')) {
      out.push({ start: end - value.length, end, kind: 'password' });
    }
    return SQL.lastIndex;
  };
}

const NOT_AFTER_LETTER = /(?:^|[^A-Za-z])$/;
const LOWER_CONTEXT =
  /(?<![A-Za-z])(?:with|login|encrypted|(?:user|role)[ \t]+[\w"'.@%-]{1,64})[ \t]+$/;

/** A quoted string after the blank(s) that follow PASSWORD or BY. */
const QUOTE = `[ \\t]+(?:E?'|\\\\?")`;

/**
 * `ALTER USER postgres PASSWORD 'S3cret'`, `CREATE ROLE app LOGIN ENCRYPTED PASSWORD '…'`,
 * `… WITH PASSWORD '…'`: anchored on the `W` of PASSWORD (upper case is SQL's keyword; a
 * quoted string after it is the password).
 */
export const sqlPasswordUpper: Detector = {
  kind: 'password',
  anchors: 'W',
  trigger: `W(?=ORD${QUOTE})(?<=(?<![A-Za-z])PASSW)`,
  find: sqlFind((_text, at) => at - 4, NOT_AFTER_LETTER),
};

/** `CREATE USER 'u'@'%' IDENTIFIED [WITH plugin] BY 'S3cret'` (MySQL, Oracle). */
export const sqlIdentifiedBy: Detector = {
  kind: 'password',
  anchors: 'I',
  trigger: `I(?=DENTIFIED[ \\t]+(?:WITH[ \\t]+\\w{1,40}[ \\t]+)?BY${QUOTE})(?<![A-Za-z]I)`,
  find: sqlFind((_text, at) => at, NOT_AFTER_LETTER),
};

/**
 * Lower case: `alter user app with password '…'`, `create role app login password '…'`,
 * anchored on the `w` of password after with, login, encrypted, or user/role and a name
 * (lower-case `identified by` has no character the prefilter can afford, see DETECTORS).
 */
export const sqlPasswordLower: Detector = {
  kind: 'password',
  anchors: 'w',
  trigger: `w(?=ord${QUOTE})(?<=(?<![A-Za-z])(?:with|login|encrypted|(?:user|role)[ \\t]+[\\w"'.@%-]{1,64})[ \\t]+passw)`,
  find: sqlFind((_text, at) => at - 4, LOWER_CONTEXT),
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
