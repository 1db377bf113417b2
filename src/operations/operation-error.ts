import type { GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../graphql/errors';

/** The codes an operation fails with: GraphQL's closed set, plus NOT_FOUND for an absent session. */
export type OperationErrorCode = ErrorCode | 'NOT_FOUND';

const CODES: ReadonlySet<string> = new Set([...Object.values(ErrorCode), 'NOT_FOUND']);

/**
 * Why a fixed document did not answer, in the terms of the GraphQL error it came from, so REST
 * and the CLI say the same as GraphQL does (code, message, candidates, retry time).
 */
export class OperationError extends Error {
  constructor(
    readonly code: OperationErrorCode,
    message: string,
    /** AMBIGUOUS_SESSION_ID: the visible sessions the prefix matches. */
    readonly candidates?: readonly string[],
    /** RATE_LIMITED: seconds until the query could run. */
    readonly retryAfterSeconds?: number,
    /** QUERY_TOO_COMPLEX: which limit, and what was measured against it. */
    readonly limit?: { kind: string; limit: number; measured: number },
  ) {
    super(message);
    this.name = 'OperationError';
  }

  /** From a formatted GraphQL error; an unknown code is an internal error. */
  static fromGraphql(error: GraphQLFormattedError): OperationError {
    const ext = error.extensions ?? {};
    const raw = typeof ext.code === 'string' ? ext.code : '';
    const code = (CODES.has(raw) ? raw : ErrorCode.INTERNAL_SERVER_ERROR) as OperationErrorCode;
    const candidates = Array.isArray(ext.candidates)
      ? ext.candidates.filter((c): c is string => typeof c === 'string')
      : undefined;
    const retry = typeof ext.retryAfterSeconds === 'number' ? ext.retryAfterSeconds : undefined;
    const limit =
      code === ErrorCode.QUERY_TOO_COMPLEX &&
      typeof ext.kind === 'string' &&
      typeof ext.limit === 'number' &&
      typeof ext.measured === 'number'
        ? { kind: ext.kind, limit: ext.limit, measured: ext.measured }
        : undefined;
    const message =
      code === ErrorCode.INTERNAL_SERVER_ERROR && !CODES.has(raw)
        ? 'Internal server error'
        : error.message;
    return new OperationError(code, message, candidates, retry, limit);
  }

  /** A session lookup answered null: the id names no session the caller may see. */
  static sessionNotFound(): OperationError {
    // Word for word the file route's, whatever was asked: a hidden session must look absent.
    return new OperationError('NOT_FOUND', 'No session matches this id.');
  }
}

/** `session`, or NOT_FOUND when the lookup answered null. */
export function requireSession<T>(session: T | null | undefined): T {
  if (session === null || session === undefined) throw OperationError.sessionNotFound();
  return session;
}
