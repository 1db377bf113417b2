import type { Problem, ProblemCode } from './types';
import type { Refusal } from './safe-path';

/** Builds a Problem; `file` is '/'-separated and relative to the session directory. */
export function problem(
  code: ProblemCode,
  message: string,
  file: string | null = null,
  line: number | null = null,
): Problem {
  return { code, message, file, line };
}

/**
 * The Problem a refusal of the containment gate deserves, or null when it deserves none:
 * an absent file or a non-regular one (directory, FIFO) is simply not there for the reader.
 */
export function refusalProblem(refusal: Refusal, message: string, file: string): Problem | null {
  switch (refusal) {
    case 'UNSAFE_PATH':
      return problem('UNSAFE_PATH', message, file);
    case 'UNREADABLE':
      return problem('UNREADABLE_FILE', message, file);
    case 'BAD_NAME':
    case 'ABSENT':
    case 'NOT_REGULAR':
      return null;
  }
}

/** The most problems listed for one view, and for one session; the rest are only counted. */
export const MAX_PROBLEMS = 1000;

/** The one problem that stands for `omitted` others, counted but not listed. */
export function tooManyProblems(
  omitted: number,
  file: string | null,
  line: number | null,
): Problem {
  const more = omitted === 1 ? '1 more problem is' : `${omitted} more problems are`;
  return {
    code: 'TOO_MANY_PROBLEMS',
    message: `${more} not listed: the list stops at ${MAX_PROBLEMS}`,
    file,
    line,
    omitted,
  };
}

/**
 * The problems of one view in the order found: the first MAX_PROBLEMS are kept and the rest
 * only counted, so a file of millions of bad lines costs a counter, not millions of objects.
 */
export class ProblemList {
  readonly listed: Problem[] = [];
  omitted = 0;
  /** Line of the first problem counted but not listed. */
  firstOmittedLine: number | null = null;

  get full(): boolean {
    return this.listed.length >= MAX_PROBLEMS;
  }

  add(p: Problem): void {
    if (this.full) this.count(p.line);
    else this.listed.push(p);
  }

  /** Counts a problem past the cap without building it. */
  count(line: number | null): void {
    if (this.omitted++ === 0) this.firstOmittedLine = line;
  }

  /**
   * The listed problems, then `extra` (problems of the moment, such as an unfinished last
   * line) while there is room, then one TOO_MANY_PROBLEMS for the rest.
   */
  snapshot(file: string, extra: readonly Problem[] = []): Problem[] {
    const out = this.listed.slice();
    let omitted = this.omitted;
    let first = this.firstOmittedLine;
    for (const p of extra) {
      if (out.length < MAX_PROBLEMS && omitted === 0) out.push(p);
      else if (omitted++ === 0) first = p.line;
    }
    if (omitted > 0) out.push(tooManyProblems(omitted, file, first));
    return out;
  }
}

/**
 * Orders problems by file, then line, then code, drops duplicates (the same code for the same
 * file and line is one problem: the file walk and the artifact listing both meet an escaping
 * artifact), and lists at most MAX_PROBLEMS: the rest, with those the views already left out,
 * become one TOO_MANY_PROBLEMS at the end. It names a file (and the first line not listed)
 * when every problem left out is in that file.
 */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  const unique: Problem[] = [];
  const counted: Problem[] = [];
  for (const p of problems) {
    if (p.code === 'TOO_MANY_PROBLEMS') {
      counted.push(p);
      continue;
    }
    const key = `${p.code}\0${p.file ?? ''}\0${p.line ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(p);
  }
  unique.sort(
    (a, b) =>
      compareStrings(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareStrings(a.code, b.code),
  );
  if (unique.length <= MAX_PROBLEMS && counted.length === 0) return unique;
  let omitted = 0;
  let file: string | null | undefined;
  let line: number | null = null;
  const note = (p: Problem, n: number): void => {
    omitted += n;
    if (file === undefined) {
      file = p.file;
      line = p.line;
    } else if (file !== p.file) {
      file = null;
    } else if (p.line !== null && (line === null || p.line < line)) {
      line = p.line;
    }
  };
  for (const p of counted) note(p, p.omitted ?? 1);
  for (let i = MAX_PROBLEMS; i < unique.length; i++) note(unique[i], 1);
  const out = unique.slice(0, MAX_PROBLEMS);
  out.push(tooManyProblems(omitted, file ?? null, file == null ? null : line));
  return out;
}

/** Plain code-unit comparison (not locale-aware), the order the contract means by "sorted". */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
