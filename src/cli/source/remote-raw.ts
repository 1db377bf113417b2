import { SESSION } from '../../operations/documents';
import { requireSession } from '../session';
import { CliError, Exit, notFound } from '../errors';
import { completeLines, findLine } from './raw-line';
import type { RemoteClient } from './remote';

const LOGS = '.system_generated/logs';

/**
 * A record's line from a server: the session is resolved through GraphQL (same errors as every
 * command), then its view is downloaded through the file route (masked by the server) and the
 * line found in it. A view is its file, else its chunks in order.
 */
export async function remoteRaw(
  client: RemoteClient,
  id: string,
  index: number,
  compact: boolean,
): Promise<Buffer> {
  const data = await client.run<{ session: { id: string } | null }>(SESSION, { id });
  const fullId = requireSession(data.session).id;
  // As the store: the compact view is the full one when there is no compact file.
  const kinds = compact ? ['transcript', 'transcript_full'] : ['transcript_full', 'transcript'];
  for (const kind of kinds) {
    const bytes = await view(client, fullId, kind);
    if (bytes === null) continue;
    const line = findLine(completeLines(bytes), index);
    if (line === null) throw notFound(`step ${index}`);
    return line;
  }
  throw notFound(`a transcript of session ${fullId}`);
}

async function view(client: RemoteClient, id: string, kind: string): Promise<Buffer | null> {
  const file = await download(client, id, `${LOGS}/${kind}.jsonl`);
  if (file !== null) return file;
  const chunks: Buffer[] = [];
  for (let i = 0; ; i++) {
    const chunk = await download(
      client,
      id,
      `${LOGS}/chunks/${kind}/${String(i).padStart(8, '0')}.jsonl`,
    );
    if (chunk === null) break;
    chunks.push(chunk);
  }
  return chunks.length > 0 ? Buffer.concat(chunks) : null;
}

async function download(client: RemoteClient, id: string, path: string): Promise<Buffer | null> {
  const res = await client.fetch(`api/sessions/${encodeURIComponent(id)}/files/${path}`);
  if (res.status === 404) return null;
  if (!res.ok) throw new CliError(Exit.SERVER, `${path}: the server answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}
