import { REDACTED, regexDetector } from './detector';
import { GUTTER } from './gutter';
import { VALUE_MAX } from './values';

/**
 * Blanks and line breaks between .netrc tokens, real or escaped (`\n` in JSON), each break
 * maybe followed by a line's gutter (`3: ` as view_file shows it, `+` in a diff).
 */
const SEP = `(?:[ \\t]|\\\\t|(?:[\\r\\n]|\\\\[nr])${GUTTER}){1,16}`;

/**
 * What may come before `password`: a `machine`, `login` or `account` token and its value; in a
 * diff, the removed `password` line it replaces (`-  password OLD` then `+  password NEW`); or,
 * captured (group 1), the start of a line indented as .netrc's are (`  password X` as grep, a
 * partial view or a diff's hunk shows it, maybe after `path:`, `3:` or a sign; or at the start of
 * a JSON string, `"TargetContent":"  password X"` as a raw transcript line holds it), whose
 * value must then end the line.
 */
const CONTEXT =
  `(?:(?<![A-Za-z])(?:machine|login|account)${SEP}[^\\s\\\\]{1,256}${SEP}` +
  `|(?<![A-Za-z])password[ \\t]+[^\\s\\\\]{1,256}[ \\t]*(?:\\r?\\n|\\\\r?\\\\n)\\+[ \\t]*` +
  `|((?:^|[\\r\\n]|\\\\[nr]|")(?:[^\\s:"\\\\]{1,200}:)?(?:[ \\t]*\\d{1,9}:|[+-])?[ \\t]{2,}))`;
/**
 * A `"` that closes a JSON string (followed by `,` `:` `}` `]` or the end): in a raw transcript
 * line the value ends there, and masking through it would break the line's JSON.
 */
const JSON_CLOSE = '"[ \\t]*(?:[,:}\\]]|$)';
/** After a value read on an indented line alone: the line's end, or its JSON string's. */
const LINE_END = new RegExp(`^[ \\t]*(?:$|[\\r\\n]|\\\\[nr]|${JSON_CLOSE})`);

/**
 * `.netrc`: `machine host login bob password S3cret`, on one line or several. The word
 * after `password` is masked when CONTEXT comes before it (`password` followed by a word in
 * prose is not enough).
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
    `|((?:[^\\s\\\\"]|"(?!${JSON_CLOSE.slice(1)})){1,${VALUE_MAX}}))`,
  pick: (m, end) => {
    const value = m[2] ?? m[3];
    if (m[1] !== undefined && !LINE_END.test(m.input.slice(end, end + 12))) return -1;
    return value.startsWith('$') || value.startsWith(REDACTED) ? -1 : end - value.length;
  },
});
