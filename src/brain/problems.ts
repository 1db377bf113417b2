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

/**
 * Orders problems by file, then line, then code, and drops duplicates: the same code for the
 * same file and line is one problem (the file walk and the artifact listing both meet an
 * escaping artifact).
 */
export function sortProblems(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const p of problems) {
    const key = `${p.code}\0${p.file ?? ''}\0${p.line ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out.sort(
    (a, b) =>
      compareStrings(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareStrings(a.code, b.code),
  );
}

/** Plain code-unit comparison (not locale-aware), the order the contract means by "sorted". */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
