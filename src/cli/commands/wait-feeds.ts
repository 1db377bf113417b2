import { WAIT_POLL, WAIT_STEPS } from '../documents';
import { errorFromCode } from '../errors';
import type { Source } from '../source/source';

/**
 * How `wait` learns of a session's records: remotely the live `steps` subscription over SSE,
 * locally (or for a --flavor copy) a poll (every `pollMs`) that reads only records after its
 * cursor.
 */

export interface Rec {
  position: number;
  status: string;
  createdAt: string;
}

export interface Feed {
  stop(): void;
}

/** `onRecord` for each record (old ones first, in order); `onError` ends the wait. */
export function follow(
  source: Source,
  id: string,
  onRecord: (r: Rec) => void,
  onError: (err: unknown) => void,
  pollMs = 1000,
): Feed {
  // The `steps` subscription follows the id's winning copy only: another flavor's is polled.
  return source.remote && source.flavor === undefined
    ? subscribe(source, id, onRecord, onError)
    : poll(source, id, onRecord, onError, pollMs);
}

function subscribe(
  source: Source,
  id: string,
  onRecord: (r: Rec) => void,
  onError: (e: unknown) => void,
): Feed {
  const client = source.remote!;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createClient } = require('graphql-sse') as typeof import('graphql-sse');
  const sse = createClient({
    url: new URL('graphql/stream', client.base).href,
    headers: client.headers(),
    retryAttempts: 3,
  });
  const dispose = sse.subscribe<{ steps: Rec }>(
    { query: WAIT_STEPS, variables: { id, from: 0 } },
    {
      next: (result) => {
        const first = result.errors?.[0] as
          { message: string; extensions?: { code?: string; candidates?: string[] } } | undefined;
        if (first)
          onError(
            errorFromCode(
              first.extensions?.code,
              first.message,
              first.extensions?.candidates ?? [],
            ),
          );
        else if (result.data) onRecord(result.data.steps);
      },
      error: (err) => onError(err),
      complete: () => undefined,
    },
  );
  return {
    stop: () => {
      dispose();
      sse.dispose();
    },
  };
}

interface PollData {
  session: {
    steps: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: Rec }[] };
  } | null;
}

function poll(
  source: Source,
  id: string,
  onRecord: (r: Rec) => void,
  onError: (e: unknown) => void,
  pollMs: number,
): Feed {
  let after: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    try {
      for (;;) {
        const data: PollData = await source.run<PollData>(WAIT_POLL, { id, after });
        if (!data.session) throw errorFromCode('NOT_FOUND', 'the session went away');
        const { edges, pageInfo } = data.session.steps;
        for (const e of edges) onRecord(e.node);
        if (pageInfo.endCursor !== null) after = pageInfo.endCursor;
        if (!pageInfo.hasNextPage) break;
      }
      if (!stopped) timer = setTimeout(() => void tick(), pollMs);
    } catch (err) {
      onError(err);
    }
  };
  void tick();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
