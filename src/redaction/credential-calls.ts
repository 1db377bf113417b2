import type { Detector } from './detector';
import { acceptAssignment } from './keys';
import { VALUE_MAX } from './values';

// --- secrets a constructor or a connect call takes by position (review 19) ----------------------
//
// `new NetworkCredential("bob", "…")`, `new PasswordAuthentication("bob", "…".toCharArray())`,
// `new ClientSecretCredential(tenantId, clientId, "…")`, `new mysqli('db', 'root', '…', 'app')`,
// `new ethers.Wallet("0x…", provider)`: the quoted argument at the secret's position. Anchored
// on the call's `(` (one look-behind over the names, shared with nothing else).

/** An argument before the secret: a quoted string (maybe JSON-escaped quotes) or an expression. */
const ARG = `(?:\\\\*"[^"\\r\\n]{0,256}"|\\\\*'[^'\\r\\n]{0,256}'|[^,()"'\\r\\n]{1,256})`;
/** The secret: quoted; group 2 its text. */
const VALUE = `\\\\*(["'])([^"'\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*\\1`;

const args = (skip: number) =>
  new RegExp(`\\([ \\t]*(?:${ARG}[ \\t]*,[ \\t]*){${skip}}${VALUE}`, 'y');

interface Call {
  name: RegExp;
  re: RegExp;
  kind: string;
  accept: (value: string) => boolean;
  /** What the first argument must be (sticky, from the `(`): Twilio's account SID. */
  first?: RegExp;
}
const password = (v: string) => acceptAssignment('password', v, true, '');
/** An Ethereum private key: 32 bytes in hex, maybe `0x`. */
const HEX_KEY = /^(?:0x)?[0-9a-fA-F]{64}$/;

const CALLS: Call[] = [
  { name: /ClientSecretCredential$/, re: args(2), kind: 'password', accept: password },
  {
    name: /(?:NetworkCredential|PasswordAuthentication)$/,
    re: args(1),
    kind: 'password',
    accept: password,
  },
  // PHP: `new mysqli(host, user, password, db)`, `mysqli_connect(…)`.
  { name: /(?<![\w$])mysqli(?:_connect)?$/, re: args(2), kind: 'password', accept: password },
  { name: /(?<![\w$])Wallet$/, re: args(0), kind: 'private-key', accept: (v) => HEX_KEY.test(v) },
  // Twilio's `Client('AC…', '<auth token>')` (Python, PHP, C#) and `twilio('AC…', '…')` (Node):
  // the auth token, 32 hex, after an account SID (review 20).
  {
    name: /(?<![\w$])(?:Client|[tT]wilio)$/,
    re: args(1),
    kind: 'twilio-key',
    accept: (v) => HEX32.test(v),
    first: /\([ \t]*\\*["']AC[0-9a-f]{32}\\*["']/y,
  },
  // Algolia's `algoliasearch('APP_ID', '<admin or search key>')`: 32 hex (review 20).
  {
    name: /(?<![\w$])algoliasearch$/,
    re: args(1),
    kind: 'algolia-key',
    accept: (v) => HEX32.test(v),
  },
  // jsonwebtoken's `jwt.sign(payload, 'secret', …)`: the signing secret (review 25).
  { name: /(?<![\w$])jwt\.sign$/, re: args(1), kind: 'password', accept: password },
];
const HEX32 = /^[0-9a-f]{32}$/;

export const credentialCall: Detector = {
  kind: 'password',
  anchors: '(',
  trigger:
    '\\((?<=(?:ClientSecretCredential|NetworkCredential|PasswordAuthentication|mysqli|mysqli_connect|Wallet' +
    '|Client|[tT]wilio|algoliasearch|jwt\\.sign)\\()',
  find(text, at, _state, out) {
    const before = text.slice(Math.max(0, at - 24), at);
    const call = CALLS.find((c) => c.name.test(before));
    if (!call) return -1;
    if (call.first) {
      call.first.lastIndex = at;
      if (!call.first.test(text)) return -1;
    }
    call.re.lastIndex = at;
    const m = call.re.exec(text);
    if (!m) return -1;
    const value = m[2];
    if (!call.accept(value)) return call.re.lastIndex;
    const close = m[0].length - m[0].lastIndexOf(value) - value.length;
    const end = call.re.lastIndex - close;
    out.push({ start: end - value.length, end, kind: call.kind });
    return call.re.lastIndex;
  },
};
