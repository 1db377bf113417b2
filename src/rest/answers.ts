import { HttpError, HttpErrorCode } from '../http/http-errors';
import { OperationError, type OperationErrorCode } from '../operations/operation-error';
import type { RunOperation } from '../operations/run';

const CODES: Record<OperationErrorCode, HttpErrorCode> = {
  BAD_USER_INPUT: HttpErrorCode.BAD_USER_INPUT,
  AMBIGUOUS_SESSION_ID: HttpErrorCode.AMBIGUOUS_SESSION_ID,
  UNAUTHENTICATED: HttpErrorCode.UNAUTHENTICATED,
  FORBIDDEN: HttpErrorCode.FORBIDDEN,
  QUERY_TOO_COMPLEX: HttpErrorCode.QUERY_TOO_COMPLEX,
  RATE_LIMITED: HttpErrorCode.RATE_LIMITED,
  INTERNAL_SERVER_ERROR: HttpErrorCode.INTERNAL_SERVER_ERROR,
  NOT_FOUND: HttpErrorCode.NOT_FOUND,
};

/** The HTTP error of an operation's failure: same code and message, with its details. */
export function httpErrorOf(error: unknown): unknown {
  if (!(error instanceof OperationError)) return error;
  return new HttpError(CODES[error.code], error.message, {
    ...(error.candidates ? { candidates: error.candidates } : {}),
    ...(error.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: error.retryAfterSeconds }
      : {}),
  });
}

/** Runs a document; failures become the HttpError the global filter writes. */
export async function ask<T>(
  run: RunOperation,
  document: string,
  variables: Record<string, unknown>,
): Promise<T> {
  try {
    return await run<T>(document, variables);
  } catch (error) {
    throw httpErrorOf(error);
  }
}

export interface Connection<T> {
  edges: { node: T }[];
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** A page as REST answers it: the nodes, the total, and the cursor of the next page (or null). */
export interface Page<T> {
  items: T[];
  totalCount: number;
  nextCursor: string | null;
}

export function page<T>(c: Connection<T>): Page<T> {
  return {
    items: c.edges.map((e) => e.node),
    totalCount: c.totalCount,
    nextCursor: c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null,
  };
}
