import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/**
 * The closed set of error codes clients may see, and the one place errors become them.
 * Anything not raised through these helpers reaches clients as INTERNAL_SERVER_ERROR with a
 * generic message: no stack trace or file path leaves the server.
 */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  AMBIGUOUS_SESSION_ID: 'AMBIGUOUS_SESSION_ID',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

export function apiError(
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

export function badInput(message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return apiError(ErrorCode.BAD_USER_INPUT, message, extensions);
}

/** Apollo's own validation and parse failures carry these codes; they are user input errors. */
const USER_CODES: Record<string, ErrorCode> = {
  GRAPHQL_VALIDATION_FAILED: ErrorCode.BAD_USER_INPUT,
  GRAPHQL_PARSE_FAILED: ErrorCode.BAD_USER_INPUT,
  BAD_REQUEST: ErrorCode.BAD_USER_INPUT,
  PERSISTED_QUERY_NOT_SUPPORTED: ErrorCode.BAD_USER_INPUT,
  OPERATION_RESOLUTION_FAILURE: ErrorCode.BAD_USER_INPUT,
};

/** Apollo `formatError`: maps every error onto the closed set and strips internals. */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const raw = formatted.extensions?.code;
  const code = typeof raw === 'string' ? (CODES.has(raw) ? raw : USER_CODES[raw]) : undefined;
  const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
  if (!code) {
    if (process.env.NODE_ENV !== 'test') console.error(error);
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  }
  return { ...formatted, extensions: { ...extensions, code } };
}
