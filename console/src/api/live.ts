import { createClient, type Client } from 'graphql-sse';
import type { TypedDocumentString } from '../gql/graphql';
import { authHeaders, keyRefused } from './key';

let client: Client | undefined;

/** One graphql-sse client (distinct connections mode, as the server's /graphql/stream). */
function sse(): Client {
  client ??= createClient({
    url: '/graphql/stream',
    headers: () => authHeaders(),
    retryAttempts: 3,
    onMessage: () => undefined,
  });
  return client;
}

/**
 * Subscribes; returns the function that stops it. Errors end it (a 401 asks for a key).
 * `onConnected` runs each time the stream is (re)established: what changed before that, while
 * the page was loading or the connection was away, was sent to nobody.
 */
export function subscribe<T, V>(
  doc: TypedDocumentString<T, V>,
  variables: V,
  onData: (data: T) => void,
  onConnected?: () => void,
): () => void {
  return sse().subscribe<T>(
    { query: doc.toString(), variables: variables as Record<string, unknown> },
    {
      next: (msg) => {
        if (msg.data) onData(msg.data);
      },
      error: (err: unknown) => {
        if (err instanceof Response && err.status === 401) keyRefused();
      },
      complete: () => undefined,
    },
    { connected: () => onConnected?.() },
  );
}
