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

/**
 * Brackets (`{`, `[`, `(`) open at once that a document may nest. graphql-js parses values and
 * selections recursively: `roots(x: [[[…]]])` 2,400 levels deep (4,800 tokens, under
 * MAX_TOKENS) overflowed the parser's stack and answered "Maximum call stack size exceeded".
 * The field depth limit (MAX_QUERY_DEPTH, at most a few dozen) and any real argument nest far
 * less than this.
 */
export const MAX_NESTING = 64;

const OPENS = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSES = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * The deepest bracket nesting of a document, lexed without parsing (the lexer is iterative),
 * up to `maxTokens` tokens (past them the parser stops anyway); when the document stops lexing,
 * the depth up to there (the parser then reports its error, unless the depth is refused first).
 */
export function nestingDepth(body: string, maxTokens: number): number {
  const lexer = new Lexer(new Source(body));
  let depth = 0;
  let deepest = 0;
  try {
    for (let n = 0; n <= maxTokens; n++) {
      const kind = lexer.advance().kind;
      if (kind === TokenKind.EOF) break;
      if (OPENS.has(kind)) deepest = Math.max(deepest, ++depth);
      else if (CLOSES.has(kind)) depth--;
    }
  } catch {
    // A lexical error: what was nested before it is what the parser would recurse into.
  }
  return deepest;
}

/** QUERY_TOO_COMPLEX (HTTP 400) for a document nested past MAX_NESTING, else null. */
export function nestingRefusal(body: string, maxTokens: number): GraphQLError | null {
  const depth = nestingDepth(body, maxTokens);
  return depth > MAX_NESTING ? tooComplex('nesting', MAX_NESTING, depth, { http: true }) : null;
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
