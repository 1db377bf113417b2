import { REDACTED, type Detector } from './detector';
import { acceptAssignment } from './keys';
import { VALUE_MAX } from './values';

// --- tools' own ways of taking a password (review 19's lows) --------------------------------------
//
// `ipmitool … -P S3cret`, `security add-generic-password … -w S3cret` (macOS keychain), `net
// user bob S3cret /add` (Windows), `jdbc:oracle:thin:scott/S3cret@db:1521/x`.

/** An option's or an argument's value: "x", 'x' (maybe escaped quotes), bare; groups 1-3. */
const VALUE = `(?:\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"|\\\\*'([^'\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*'|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`;

function valueOf(m: RegExpExecArray, end: number): { value: string; end: number; quoted: boolean } {
  const quoted = m[3] === undefined;
  const value = m[1] ?? m[2] ?? m[3];
  const close = quoted ? m[0].length - m[0].lastIndexOf(value) - value.length : 0;
  return { value, end: end - close, quoted };
}
const isPassword = (v: string, quoted: boolean) =>
  !v.startsWith('$') &&
  !v.startsWith('%') &&
  !v.startsWith(REDACTED) &&
  acceptAssignment('password', v, quoted, '');

/** Where the line holding `at` starts, within `max`. */
function lineStart(text: string, at: number, max: number): number {
  const from = Math.max(0, at - max);
  for (let i = at - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i + 1;
    // An escaped line break (`\n` of a JSON string).
    if (c === 0x6e && text.charCodeAt(i - 1) === 0x5c) return i + 1;
  }
  return from;
}

const IPMITOOL = /(?<![\w.-])ipmitool(?:\.exe)?[ \t]/;
const KEYCHAIN = /(?<![\w.-])security[ \t]+add-(?:generic|internet)-password[ \t]/;
const OPTION = new RegExp(`(?<=[ \\t])-[Pw][ \\t]+${VALUE}`, 'y');

/** `ipmitool -U admin -P S3cret`, `security add-generic-password -a bob -s svc -w S3cret`. */
export const toolPasswordOption: Detector = {
  kind: 'password',
  anchors: '-',
  trigger: '-(?=[Pw][ \\t]+[^\\s-])(?<=[ \\t]-)',
  find(text, at, _state, out) {
    const head = text.slice(lineStart(text, at, 400), at);
    const command = text[at + 1] === 'P' ? IPMITOOL : KEYCHAIN;
    if (!command.test(head)) return -1;
    OPTION.lastIndex = at;
    const m = OPTION.exec(text);
    if (!m) return -1;
    const v = valueOf(m, OPTION.lastIndex);
    if (isPassword(v.value, v.quoted)) {
      out.push({ start: v.end - v.value.length, end: v.end, kind: 'password' });
    }
    return OPTION.lastIndex;
  },
};

/** `net user NAME PASSWORD`: the second argument, unless an option (`/add`) or `*` (a prompt). */
const NET_USER = new RegExp(
  `user[ \\t]+(?:\\\\*"[^"\\\\\\r\\n]{1,64}\\\\*"|[^\\s"'/\\\\]{1,64})[ \\t]+(?![/*])${VALUE}`,
  'y',
);
const NET_BEFORE = /(?:^|[^\w.-])net[ \t]$/;
export const netUserPassword: Detector = {
  kind: 'password',
  anchors: 'u',
  trigger: 'u(?<=(?<![\\w.-])net[ \\t]u)(?=ser[ \\t])',
  find(text, at, _state, out) {
    // The trigger's context (a detector is never looser than its trigger).
    if (!NET_BEFORE.test(text.slice(Math.max(0, at - 5), at))) return -1;
    NET_USER.lastIndex = at;
    const m = NET_USER.exec(text);
    if (!m) return -1;
    const v = valueOf(m, NET_USER.lastIndex);
    if (isPassword(v.value, v.quoted)) {
      out.push({ start: v.end - v.value.length, end: v.end, kind: 'password' });
    }
    return NET_USER.lastIndex;
  },
};

/** Oracle's thin driver URL: `jdbc:oracle:thin:user/password@host`; group 1 the password. */
const ORACLE = /:[^\s/:@"'\\]{1,128}\/([^\s/@"'\\]{1,1024})@/y;
export const oracleThinPassword: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=oracle:thin:)(?=[^\\s/:@"\'\\\\]{1,128}/)',
  find(text, at, _state, out) {
    if (!text.startsWith('oracle:thin', at - 11)) return -1;
    ORACLE.lastIndex = at;
    const m = ORACLE.exec(text);
    if (!m) return -1;
    const end = ORACLE.lastIndex - 1;
    if (isPassword(m[1], false)) out.push({ start: end - m[1].length, end, kind: 'password' });
    return ORACLE.lastIndex;
  },
};

export const TOOL_SECRETS: readonly Detector[] = [
  toolPasswordOption,
  netUserPassword,
  oracleThinPassword,
];
