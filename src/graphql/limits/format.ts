import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../errors';
import { tokenLimitError } from './tokens';

/**
 * Runs before the project's formatError (errors.ts), so query-limit errors reach clients as
 * QUERY_TOO_COMPLEX whatever Apollo wrapped them in:
 * - the parser's token-limit failure (a GRAPHQL_PARSE_FAILED to Apollo) becomes the tokens
 *   limit error, with the measured token count;
 * - a validation rule's error, which Apollo re-codes GRAPHQL_VALIDATION_FAILED, gets back the
 *   QUERY_TOO_COMPLEX it was raised with (its limit, measured and kind are already kept).
 */
export function limitErrorFormatted(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const tokens = tokenLimitError(error);
  if (tokens) return tokens;
  if (error instanceof GraphQLError && formatted.extensions?.code === 'GRAPHQL_VALIDATION_FAILED') {
    const inner = error.originalError;
    if (inner instanceof GraphQLError && inner.extensions?.code === ErrorCode.QUERY_TOO_COMPLEX) {
      return {
        ...formatted,
        extensions: { ...formatted.extensions, code: ErrorCode.QUERY_TOO_COMPLEX },
      };
    }
  }
  return formatted;
}

const SUGGESTION = / ?Did you mean .+\?$/s;

/**
 * Without introspection, error messages must not describe the schema either: graphql-js's
 * "Did you mean ...?" suggestions (field, argument, type and enum value names) are removed,
 * from validation and variable-coercion messages alike.
 */
export function withoutSuggestions(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const message = formatted.message.replace(SUGGESTION, '');
  return message === formatted.message ? formatted : { ...formatted, message };
}
