import { GraphQLError, Lexer, Source, TokenKind, type GraphQLFormattedError } from 'graphql';
import { tooComplex } from './limit-error';

/**
 * The token limit is enforced by graphql-js's parser (`parseOptions.maxTokens`): it stops at
 * the first token past the limit, before building any AST. Apollo reports that as a parse
 * failure; this turns it into QUERY_TOO_COMPLEX with the limit (from the parser's message) and
 * the document's whole token count (lexed again, without parsing: the body is already bounded
 * by the HTTP body limit). If the lexer fails later in the document, `measured` is the count
 * up to that point, which is still more than the limit.
 */

// graphql 16.11+ spells it "more that"; accept the corrected spelling too.
const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens\. Parsing aborted\.$/;

/** Tokens as the parser counts them: every lexical token but comments and the end. */
export function countTokens(body: string): number {
  const lexer = new Lexer(new Source(body));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // A lexical error after the limit: what was counted is a lower bound.
  }
  return count;
}

/** The client's view of a parse failure caused by the token limit, or null for any other. */
export function tokenLimitError(error: unknown): GraphQLFormattedError | null {
  if (!(error instanceof GraphQLError)) return null;
  const parseError = error.originalError instanceof GraphQLError ? error.originalError : error;
  const m = TOKEN_LIMIT.exec(parseError.message);
  if (!m) return null;
  const limit = Number(m[1]);
  const body = (parseError.source ?? error.source)?.body;
  const measured = body === undefined ? limit + 1 : Math.max(limit + 1, countTokens(body));
  return tooComplex('tokens', limit, measured).toJSON();
}
