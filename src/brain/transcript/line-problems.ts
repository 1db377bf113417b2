import type { Problem } from '../types';
import type { LineVerdict } from './records';
import type { UnreadableViewError } from './scanner';

/** The problems a view's lines can have, as ParsedView reports them. */

export function tooLongProblem(file: string, line: number, bytes: number, max: number): Problem {
  return {
    code: 'LINE_TOO_LONG',
    message: `the line is ${bytes} bytes long, over the limit of ${max} bytes: not read`,
    file,
    line,
  };
}

/** A line that is not a record; the last line without a newline may still be being written. */
export function malformedProblem(
  verdict: Extract<LineVerdict, { kind: 'malformed' }>,
  file: string,
  line: number,
  last: boolean,
): Problem {
  // A last line that parses but is not a record is complete: MALFORMED_LINE.
  const partial = last && !verdict.json;
  return {
    code: partial ? 'PARTIAL_LAST_LINE' : 'MALFORMED_LINE',
    message: partial
      ? 'the last line has no newline and does not parse (still being written?)'
      : verdict.reason,
    file,
    line,
  };
}

export function duplicateProblem(file: string, step: number, line: number, first: number): Problem {
  return {
    code: 'DUPLICATE_STEP_INDEX',
    message: `step_index ${step} already appeared on line ${first}`,
    file,
    line,
  };
}

export function unreadableProblem(err: UnreadableViewError): Problem {
  return { code: 'UNREADABLE_FILE', message: err.message, file: err.relPath, line: null };
}
