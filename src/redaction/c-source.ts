import type { Detector } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- C and Arduino sources (review 21) ------------------------------------------------------------

/** From the `#`: `#define NAME "…"` (maybe JSON-escaped quotes); group 1 the name, 2 the value. */
const DEFINE = new RegExp(
  `#[ \\t]*define[ \\t]+([A-Za-z_]\\w{0,79})[ \\t]+\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"`,
  'y',
);

/**
 * `#define API_KEY "…"`, `#define GITHUB_TOKEN "…"`, `#define SECRET_KEY "…"`, `#define TOKEN
 * "…"`, `#define api_key "…"`, `#define wifi_password "…"`: a macro named for a secret (the
 * names of ./keys: `API_KEY_HEADER`, `TOKEN_MAX` name none) defined as a string. Anchored on the
 * `#` (review 22: the `_` of review 21's rule missed a name without one, and lower case).
 */
export const cDefine: Detector = {
  kind: 'password',
  anchors: '#',
  trigger: '#(?=[ \\t]*define[ \\t])',
  find(text, at, _state, out) {
    DEFINE.lastIndex = at;
    const m = DEFINE.exec(text);
    const rule = m && secretKey(m[1]);
    if (!m || !rule) return -1;
    const value = m[2];
    if (acceptAssignment(rule.keyword, value, true, '')) {
      const end = text.lastIndexOf(value, DEFINE.lastIndex) + value.length;
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return DEFINE.lastIndex;
  },
};

/** `char NAME[] =` right before the `=`: group 1 the name. */
const CHAR_ARRAY =
  /(?<![\w$])(?:const[ \t]+)?char[ \t]+\*?[ \t]*([A-Za-z_]\w{0,60})[ \t]*\[\w{0,8}\][ \t]*=$/;
const CHAR_VALUE = new RegExp(`=[ \\t]*\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"`, 'y');

/**
 * `char pass[] = "…";`, `const char password[64] = "…";` (C, Arduino): a character array named
 * for a secret initialised with a string.
 */
export const charArray: Detector = {
  kind: 'password',
  anchors: '=',
  trigger: '=(?<=\\][ \\t]{0,4}=)(?=[ \\t]*\\\\*")',
  find(text, at, _state, out) {
    const head = CHAR_ARRAY.exec(text.slice(Math.max(0, at - 100), at + 1));
    const rule = head && secretKey(head[1]);
    if (!rule) return -1;
    CHAR_VALUE.lastIndex = at;
    const m = CHAR_VALUE.exec(text);
    if (!m) return -1;
    const value = m[1];
    if (acceptAssignment('password', value, true, '')) {
      const end = text.lastIndexOf(value, CHAR_VALUE.lastIndex) + value.length;
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return CHAR_VALUE.lastIndex;
  },
};
