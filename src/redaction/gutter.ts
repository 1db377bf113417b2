/**
 * What a viewer or a diff puts before each line of a file: `12: ` (Antigravity's view_file),
 * `    12\t` (cat -n), `+`, `-` or ` ` (a diff; the blank is a blank). Detectors that read a
 * file's lines (.netrc, cookie files, PuTTY keys) take one after each line break, so the same
 * file is masked whether it is written, viewed, numbered or changed.
 */
export const GUTTER = '(?:[ \\t]*\\d{1,9}(?::[ \\t]?|\\t)|[+-])?';

/** A whole gutter, as the start of a line before a file's first field. */
export const LINE_GUTTER = new RegExp(`^${GUTTER}[ \\t]*$`);
