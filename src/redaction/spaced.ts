import type { Detector, Span } from './detector';
import { acceptAssignment } from './keys';
import { VALUE_MAX } from './values';

// --- passwords given after a word and a blank, not `=` or `:` ----------------------------------

/** A quoted value (maybe JSON-escaped quotes: 1 the quote, 2 the text) or a bare one (3). */
const VALUE =
  `(?:\\\\*(["'])((?:(?!\\1)[^\\\\\\r\\n]){1,${VALUE_MAX}})\\\\*\\1` +
  `|([^\\s"'\`\\\\;&|<>(){}]{1,${VALUE_MAX}}))`;
/** `storePassword "x"`, `keyPassword('x')` (Gradle's Groovy DSL; `= "x"` is an assignment). */
const GRADLE = new RegExp(`(?:store|key)Password(?:[ \\t]+|[ \\t]*\\([ \\t]*)${VALUE}`, 'y');
/** `password x` after the command words (mysqladmin's, rclone's key value pairs). */
const WORD = new RegExp(`password[ \\t]+${VALUE}`, 'y');
/**
 * The commands whose `password` word takes the next argument, on the same line before it
 * (`nmcli dev wifi connect NET password …`: review 19).
 */
const COMMAND =
  '(?<![\\w.-])(?:mysqladmin|mariadb-admin|rclone[ \\t]+config[ \\t]+(?:create|update)|nmcli)[ \\t][^\\r\\n;|&]{0,300}';
const COMMAND_BEFORE = new RegExp(`${COMMAND}$`);
/** How far before `password` the command is looked for (COMMAND's longest). */
const REACH = 340;

/** Pushes the value of `m` (ending the match at `end`) unless it is a placeholder. */
function push(m: RegExpExecArray, end: number, out: Span[]): void {
  const value = m[2] ?? m[3];
  let valueEnd = end;
  if (m[2] !== undefined) {
    valueEnd--; // the closing quote, then its escapes
    while (m.input[valueEnd - 1] === '\\') valueEnd--;
  }
  const quoted = m[2] !== undefined;
  if (!acceptAssignment('password', value, quoted, quoted ? '' : (m.input[end] ?? ''))) return;
  out.push({ start: valueEnd - value.length, end: valueEnd, kind: 'password' });
}

/**
 * Passwords after the word and a blank, anchored on the `w` of Password: Gradle's signing
 * configs (`storePassword "S3cret"`, `keyPassword 'S3cret'`: a method call without
 * parentheses), `mysqladmin -u root password NewPass` (the command sets the new password) and
 * rclone's key value pairs (`rclone config create NAME sftp user me password S3cret`). The
 * command is read back on the same line by the trigger's look-behind, which runs at
 * ` password ` only.
 */
export const wordPassword: Detector = {
  kind: 'password',
  anchors: 'w',
  trigger:
    // One look-ahead for both (`w` is frequent in prose): then the look-behinds.
    `w(?=ord[ \\t(])(?:(?<=(?<![A-Za-z])(?:store|key)Passw)` +
    `|(?<=[ \\t]passw)(?<=${COMMAND}passw))`,
  find(text, at, _state, out) {
    let re: RegExp;
    if (text.startsWith('passw', at - 4)) {
      if (text[at - 5] !== ' ' && text[at - 5] !== '\t') return -1;
      const head = text.slice(Math.max(0, at - 4 - REACH), at - 4);
      if (!COMMAND_BEFORE.test(head)) return -1;
      re = WORD;
      re.lastIndex = at - 4;
    } else {
      const back = text.startsWith('storePassw', at - 9) ? 9 : 7;
      if (back === 7 && !text.startsWith('keyPassw', at - 7)) return -1;
      if (/[A-Za-z]/.test(text[at - back - 1] ?? '')) return -1;
      re = GRADLE;
      re.lastIndex = at - back;
    }
    const m = re.exec(text);
    if (!m) return -1;
    // Gradle's bare words are code (`storePassword System.getenv("PW")`): quoted values only.
    const code = re === GRADLE && m[2] === undefined;
    if (!code && !(m[3] ?? m[2]).startsWith('$')) push(m, re.lastIndex, out);
    return re.lastIndex;
  },
};

/** rclone's secret keys with a `_` (s3's, drive's, webdav's, swift's, sftp's key file's). */
const RCLONE_KEY =
  '(?:secret_access_key|session_token|client_secret|bearer_token|auth_token|key_file_pass)';
const RCLONE = '(?<![\\w.-])rclone[ \\t]+config[ \\t]+(?:create|update)[ \\t][^\\r\\n;|&]{0,300}';
const RCLONE_BEFORE = new RegExp(`${RCLONE}[ \\t]$`);
const RCLONE_PAIR = new RegExp(`${RCLONE_KEY}[ \\t]+${VALUE}`, 'y');

/**
 * rclone's space-separated key value pairs under a secret key with a `_`: `rclone config create
 * r s3 access_key_id AKIA… secret_access_key S3cret`, `… client_secret S3cret`. Anchored on the
 * key's first `_`; `password` is wordPassword's (rclone's `pass` has no character the prefilter
 * can afford, see DETECTORS).
 */
export const rclonePair: Detector = {
  kind: 'password',
  anchors: '_',
  trigger:
    '_(?=(?:access_key|token|secret|file_pass)[ \\t])(?<=[ \\t](?:secret|session|client|bearer|auth|key)_)' +
    `(?<=${RCLONE}[a-z]{3,7}_)`,
  find(text, at, _state, out) {
    // The key's first word, 3 to 7 letters after a blank (the trigger's look-behind).
    const start = at - (/[a-z]{0,7}$/.exec(text.slice(Math.max(0, at - 7), at))?.[0].length ?? 0);
    if (!RCLONE_BEFORE.test(text.slice(Math.max(0, start - REACH), start))) return -1;
    RCLONE_PAIR.lastIndex = start;
    const m = RCLONE_PAIR.exec(text);
    if (!m) return -1;
    const value = m[2] ?? m[3];
    if (value.startsWith('$')) return RCLONE_PAIR.lastIndex;
    const spans: Span[] = [];
    push(m, RCLONE_PAIR.lastIndex, spans);
    for (const s of spans) {
      const aws = m[0].startsWith('secret_access_key') && /^[A-Za-z0-9/+=]{40}$/.test(value);
      out.push(aws ? { ...s, kind: 'aws-secret-key' } : s);
    }
    return RCLONE_PAIR.lastIndex;
  },
};
