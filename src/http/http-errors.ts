import type { Response } from 'express';
import { ErrorCode } from '../graphql/errors';

/**
 * The closed set of codes of answers outside GraphQL, and the status each one has. GraphQL
 * shares the codes it also uses; NOT_FOUND, PAYLOAD_TOO_LARGE and MISDIRECTED_REQUEST only
 * exist here (GraphQL answers an absent thing with null).
 */
export const HttpErrorCode = {
  BAD_USER_INPUT: ErrorCode.BAD_USER_INPUT,
  UNAUTHENTICATED: ErrorCode.UNAUTHENTICATED,
  FORBIDDEN: ErrorCode.FORBIDDEN,
  NOT_FOUND: 'NOT_FOUND',
  AMBIGUOUS_SESSION_ID: ErrorCode.AMBIGUOUS_SESSION_ID,
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  MISDIRECTED_REQUEST: 'MISDIRECTED_REQUEST',
  /** A push's offset is not the size the server holds (error.size says it). */
  OFFSET_MISMATCH: 'OFFSET_MISMATCH',
  /** A push would pass the source's MAX_INGEST_MB, or the disk is full. */
  INSUFFICIENT_STORAGE: 'INSUFFICIENT_STORAGE',
  RATE_LIMITED: ErrorCode.RATE_LIMITED,
  QUERY_TOO_COMPLEX: ErrorCode.QUERY_TOO_COMPLEX,
  INTERNAL_SERVER_ERROR: ErrorCode.INTERNAL_SERVER_ERROR,
} as const;
export type HttpErrorCode = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

export const HTTP_STATUS: Readonly<Record<HttpErrorCode, number>> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  AMBIGUOUS_SESSION_ID: 409,
  PAYLOAD_TOO_LARGE: 413,
  MISDIRECTED_REQUEST: 421,
  OFFSET_MISMATCH: 409,
  RATE_LIMITED: 429,
  // A REST route asked for more than MAX_QUERY_COST, the timeout or MAX_RESPONSE_BYTES allow:
  // the client's request, so a 4xx, with GraphQL's code.
  QUERY_TOO_COMPLEX: 400,
  INTERNAL_SERVER_ERROR: 500,
  INSUFFICIENT_STORAGE: 507,
};

/** What an error may carry besides code and message. */
export interface HttpErrorDetails {
  /** AMBIGUOUS_SESSION_ID: the (visible) sessions the prefix matches. */
  candidates?: readonly string[];
  /** RATE_LIMITED: sent as the Retry-After header. */
  retryAfterSeconds?: number;
  /** UNAUTHENTICATED: sent as the WWW-Authenticate header. */
  challenge?: string;
  /** OFFSET_MISMATCH: the size the server holds, where the client may go on. */
  size?: number;
}

/** An error a route or middleware answers with; the global filter writes it. */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details: HttpErrorDetails = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The one error body outside GraphQL. */
export interface ErrorBody {
  error: {
    code: HttpErrorCode;
    message: string;
    candidates?: readonly string[];
    size?: number;
  };
}

export function errorBody(error: HttpError): ErrorBody {
  const { candidates, size } = error.details;
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(candidates ? { candidates } : {}),
      ...(size !== undefined ? { size } : {}),
    },
  };
}

/** Headers a failed route may have set for the content it meant to send. */
const CONTENT_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];

/**
 * Writes `error` as the answer: its status, its headers and the one body shape. Headers a
 * failed route had already set for its content are dropped first.
 */
export function sendError(res: Response, error: HttpError): void {
  for (const name of CONTENT_HEADERS) res.removeHeader(name);
  const { retryAfterSeconds, challenge } = error.details;
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  const body = errorBody(error);
  // REDACT=on (app.factory.ts sets it): a message can quote what the caller sent.
  const mask = (res.locals as { maskErrorText?: (text: string) => string }).maskErrorText;
  if (mask) body.error.message = mask(body.error.message);
  res.status(HTTP_STATUS[error.code]).json(body);
}
