/**
 * Exit codes of the contract, and the one error type commands throw: main prints its message
 * (and candidates) on stderr and exits with its code.
 */
export const Exit = {
  OK: 0,
  /** Not found, a check failed, or wait timed out. */
  FAILED: 1,
  USAGE: 2,
  AMBIGUOUS: 3,
  /** The server or its authentication refused, or could not be reached. */
  SERVER: 4,
} as const;
export type ExitCode = (typeof Exit)[keyof typeof Exit];

export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly candidates: readonly string[] = [],
  ) {
    super(message);
  }
}

/** The exit code for a GraphQL or REST error code (extensions.code / error.code). */
export function exitFor(code: string | undefined): ExitCode {
  switch (code ?? '') {
    case 'NOT_FOUND':
      return Exit.FAILED;
    case 'BAD_USER_INPUT':
      return Exit.USAGE;
    case 'AMBIGUOUS_SESSION_ID':
      return Exit.AMBIGUOUS;
    default:
      return Exit.SERVER;
  }
}

/** A failed operation, from its code, message and (ambiguous ids) candidates. */
export function errorFromCode(
  code: string | undefined,
  message: string,
  candidates: readonly string[] = [],
): CliError {
  return new CliError(exitFor(code), code ? `${message} (${code})` : message, candidates);
}

export const notFound = (what: string): CliError => new CliError(Exit.FAILED, `${what} not found`);
export const usage = (message: string): CliError => new CliError(Exit.USAGE, message);
