import type { Detector } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- C and Arduino sources (review 21) ------------------------------------------------------------

/** `#define NAME` right before the name's first `_` (the trigger): group 1 the name's head. */
const DEFINE_BEFORE = /#[ \t]*define[ \t]+([A-Z0-9]{1,39})$/;
/** From the `_`: the name's tail, blanks, a quoted value (maybe JSON-escaped quotes). */
const DEFINE_VALUE = new RegExp(
  `_([A-Z0-9_]{0,40})[ \\t]+\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"`,
  'y',
);

/**
 * `#define API_KEY "…"`, `#define GITHUB_TOKEN "…"`, `#define SECRET_KEY "…"`: a macro named for
 * a secret (the names of ./keys) defined as a string. Anchored on the `_` before the name's
 * first `_` (`#define DB_PASSWORD "…"` is sqlPasswordUpper's `PASSWORD "…"`).
 */
export const cDefine: Detector = {
  kind: 'password',
  anchors: '_',
  // The name's first `_` after a blank (as NEAR's nameAfterBlank), then a name ending in KEY,
  // TOKEN or SECRET and a quote.
  trigger: '_(?<=define[ \\t][A-Z0-9]{1,39}_)(?=[A-Z0-9_]{0,40}(?:KEY|TOKEN|SECRET)[ \\t]+\\\\*")',
  find(text, at, _state, out) {
    const head = DEFINE_BEFORE.exec(text.slice(Math.max(0, at - 80), at));
    if (!head) return -1;
    DEFINE_VALUE.lastIndex = at;
    const m = DEFINE_VALUE.exec(text);
    const rule = m && secretKey(`${head[1]}_${m[1]}`);
    if (!m || !rule) return -1;
    const value = m[2];
    if (acceptAssignment(rule.keyword, value, true, '')) {
      const end = text.lastIndexOf(value, DEFINE_VALUE.lastIndex) + value.length;
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return DEFINE_VALUE.lastIndex;
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
