import { REDACTED, regexDetector } from './detector';
import { GUTTER } from './gutter';
import { VALUE_MAX } from './values';

/**
 * Blanks and line breaks between .netrc tokens, real or escaped (`\n` in JSON), each break
 * maybe followed by a line's gutter (`3: ` as view_file shows it, `+` in a diff).
 */
const SEP = `(?:[ \\t]|\\\\t|(?:[\\r\\n]|\\\\[nr])${GUTTER}){1,16}`;

/** A `machine`, `login` or `account` token and its value, before `password`. */
const CONTEXT = `(?<![A-Za-z])(?:machine|login|account)${SEP}[^\\s\\\\]{1,256}${SEP}`;

/**
 * `.netrc`: `machine host login bob password S3cret`, on one line or several. The word
 * after `password` is masked when a `machine`, `login` or `account` token comes before it
 * (`password` followed by a word in prose is not enough).
 */
export const netrcPassword = regexDetector({
  kind: 'password',
  anchors: 'w',
  // The context in the trigger: `password ` in prose and code stays in native code.
  // The cheap test first: most `w`s are not followed by `ord`.
  trigger: `w(?=ord${SEP})(?<=${CONTEXT}passw)`,
  back: 4,
  literal: 'password',
  // A quoted value (curl and Python read `"a b"` as one token), maybe JSON-escaped, or a word.
  source:
    `(?<=${CONTEXT})password${SEP}(?:\\\\?"([^"\\\\\\r\\n]{1,${VALUE_MAX}})(?=\\\\?")` +
    `|([^\\s\\\\]{1,${VALUE_MAX}}))`,
  pick: (m, end) => {
    const value = m[1] ?? m[2];
    return value.startsWith('$') || value.startsWith(REDACTED) ? -1 : end - value.length;
  },
});
