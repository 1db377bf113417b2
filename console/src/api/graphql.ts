import type { TypedDocumentString } from '../gql/graphql';
import { takeEarly } from './early';
import { authHeaders, keyRefused } from './key';

/** An answer the console cannot show as data: its code is the contract's. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** AMBIGUOUS_SESSION_ID: the ids the prefix matches. */
    readonly candidates: readonly string[] = [],
  ) {
    super(message);
  }
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; candidates?: unknown } }[];
}

/** POST /graphql as any client does (JSON body, so CSRF prevention lets it through). */
export async function gql<T, V>(
  doc: TypedDocumentString<T, V>,
  ...[variables]: V extends Record<string, never> ? [V?] : [V]
): Promise<T> {
  const request = JSON.stringify({ query: doc.toString(), variables });
  // The same request sent by the first script, before this bundle ran (../early.ts).
  const res = await (takeEarly(request) ??
    fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
      body: request,
    }));
  if (res.status === 401) {
    keyRefused();
    throw new ApiError('An API key is needed', 'UNAUTHENTICATED');
  }
  const body = (await res.json()) as GraphqlAnswer<T>;
  const first = body.errors?.[0];
  // Any error fails the view: a null beside an error (an ambiguous id) is not "absent".
  if (first) {
    const candidates = first.extensions?.candidates;
    throw new ApiError(
      first.message,
      first.extensions?.code ?? 'INTERNAL_SERVER_ERROR',
      Array.isArray(candidates) ? candidates.filter((c): c is string => typeof c === 'string') : [],
    );
  }
  if (!body.data) throw new ApiError(`HTTP ${res.status}`, 'INTERNAL_SERVER_ERROR');
  return body.data;
}
