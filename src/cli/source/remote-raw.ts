import { SESSION } from '../../operations/documents';
import { requireSession } from '../session';
import { CliError, Exit, notFound } from '../errors';
import type { RemoteClient } from './remote';

/**
 * A record's line from a server: the session is resolved through GraphQL (same errors as every
 * command), then the server finds the line (`/api/sessions/{id}/steps/{index}/raw`, masked as a
 * download) through its line index, as local `raw` does: chunk names need not be guessed and
 * the transcript is never downloaded whole.
 */
export async function remoteRaw(
  client: RemoteClient,
  id: string,
  index: number,
  compact: boolean,
  /** `--flavor`: that copy, asked of GraphQL and of the route alike (the route too resolves). */
  flavor?: string,
): Promise<Buffer> {
  const data = await client.run<{ session: { id: string } | null }>(SESSION, { id, flavor });
  const fullId = requireSession(data.session).id;
  const query = new URLSearchParams();
  if (compact) query.set('compact', 'true');
  if (flavor !== undefined) query.set('flavor', flavor);
  const search = query.size > 0 ? `?${query.toString()}` : '';
  const res = await client.fetch(
    `api/sessions/${encodeURIComponent(fullId)}/steps/${index}/raw${search}`,
  );
  if (res.status === 404) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    if (body?.error?.message?.includes('no transcript')) {
      throw notFound(`a transcript of session ${fullId}`);
    }
    throw notFound(`step ${index}`);
  }
  if (!res.ok) throw new CliError(Exit.SERVER, `raw: the server answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
