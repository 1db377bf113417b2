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

/** A subscription sent as an HTTP query: where subscriptions are served instead. */
export const SUBSCRIPTION_OVER_HTTP =
  'Subscriptions are served over WebSocket (graphql-ws, on /graphql) or SSE ' +
  '(/graphql/stream, Accept: text/event-stream); an HTTP POST or GET answers queries only.';

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

/**
 * An error graphql-js raised about the request itself while starting execution (e.g. a
 * `mutation` against a schema without mutations): no resolver path, no underlying exception.
 * Apollo labels these INTERNAL_SERVER_ERROR, but the client sent something the schema refuses.
 */
function isRequestError(error: unknown): boolean {
  return error instanceof GraphQLError && !error.originalError && !error.path;
}

/**
 * The client-facing code of an error, from the code it was raised or labelled with; undefined
 * means an internal failure (a bug or an I/O error), never the client's mistake.
 */
export function clientCodeOf(raw: unknown, error: unknown): ErrorCode | undefined {
  const code =
    typeof raw === 'string' ? (CODES.has(raw) ? (raw as ErrorCode) : USER_CODES[raw]) : undefined;
  if (code !== undefined && code !== ErrorCode.INTERNAL_SERVER_ERROR) return code;
  // Unlabelled too (the log sees errors before Apollo labels them: `mutation { x }`).
  return isRequestError(error) ? ErrorCode.BAD_USER_INPUT : undefined;
}

/**
 * Messages of Apollo and graphql-js that name the fault but not what is accepted, with what a
 * client should send instead (a bad request is answered with what would be a good one).
 */
const CLEARER: [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /^Operation batching disabled\.$/,
    () =>
      'One operation per request: send one JSON object such as {"query": "{ sessions { totalCount } }"}, not an array (batching is off).',
  ],
  [
    /^GraphQL queries must be strings\.$/,
    () =>
      '"query" must be a string holding a GraphQL document, such as {"query": "{ sessions { totalCount } }"}.',
  ],
  [
    /^(Int cannot represent non 32-bit signed integer value: .*)$/s,
    (m) => `${m[1]} (an Int is a whole number from -2147483648 to 2147483647).`,
  ],
];

function clearer(message: string): string {
  for (const [re, say] of CLEARER) {
    const m = re.exec(message);
    if (m) return say(m);
  }
  return message;
}

/**
 * Apollo `formatError`: maps every error onto the closed set and strips internals. Only errors
 * raised with an explicit code keep their message; anything else (including what Apollo itself
 * labels INTERNAL_SERVER_ERROR, whose message may hold file paths) gets a generic one. A kept
 * message is masked (`Unknown operation named "ghp_…"`, a refused variable's value). Logging
 * is the request's (src/ops/graphql-errors-log.plugin.ts), with its id.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
  /** REDACT=on: the redactor's redactText. A message can quote what the caller sent. */
  mask: (text: string) => string = (text) => text,
): GraphQLFormattedError {
  const code = clientCodeOf(formatted.extensions?.code, error);
  const extensions: Record<string, unknown> = { ...formatted.extensions };
  delete extensions.stacktrace;
  if (!code) {
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  }
  const message = mask(clearer(formatted.message));
  return { ...formatted, message, extensions: { ...extensions, code } };
}
