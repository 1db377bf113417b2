import { ci, REDACTED, regexDetector } from './detector';
import { NOT_SECRETS } from './keys';
import { VALUE_MAX, valueEnd } from './values';

/** npm's credential settings: `_authToken`, `_auth` (base64 user:password), `_password`. */
const NPM_KEY = `(?:${ci('authtoken')}|${ci('auth')}|${ci('password')})`;
const BEFORE = `(?::|${ci('set')}[ \\t]{1,4})`;

/**
 * `npm config set //registry.npmjs.org/:_authToken <token>`, `npm config set _auth <b64>`:
 * the value after a blank (`key=value` in .npmrc is an assignment, ./assignments). The key
 * must follow `:` (a registry-scoped key) or `set `.
 */
export const npmCredential = regexDetector({
  kind: 'password',
  anchors: '_',
  trigger: `_(?<=${BEFORE}_)(?=${NPM_KEY}[ \\t]+[^\\s])`,
  back: 0,
  source:
    `(?<=${BEFORE})_${NPM_KEY}[ \\t]+(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})(?=')|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})(?=")` +
    `|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`,
  extend: (m, end) => (m[3]?.length === VALUE_MAX ? valueEnd(m.input, end, -1) : end),
  pick: (m, end) => {
    const value = m[1] ?? m[2] ?? m[3];
    const c = value[0];
    if (c === '$' || c === '-' || value.startsWith(REDACTED)) return -1;
    if (NOT_SECRETS.has(value.toLowerCase())) return -1;
    return end - value.length;
  },
});
