import { HttpError, HttpErrorCode } from '../http/http-errors';
import { checkFilePath, checkFlavor, checkSessionId } from './ingest-path';

const SESSION = /^\/api\/ingest\/sessions\/([^/?#]*)\/([^/?#]*)(?:\/files\/([^?#]*))?(?:[?#]|$)/;

export interface IngestTarget {
  flavor: string;
  id: string;
  /** The session-relative file path ('' for the session itself). */
  path: string;
}

/**
 * Flavor, id and file path of an ingest URL, from the raw URL (Express has decoded params
 * already, and an encoded slash must be judged before that). Every refusal is BAD_USER_INPUT
 * saying what is accepted.
 */
export function parseIngestUrl(url: string, withFile: boolean): IngestTarget {
  const m = SESSION.exec(url);
  if (!m || (m[3] !== undefined) !== withFile)
    throw bad(
      withFile
        ? 'Write a file as /api/ingest/sessions/{flavor}/{id}/files/{path}?offset=N.'
        : 'Ask for a session as /api/ingest/sessions/{flavor}/{id}.',
    );
  const flavor = checkFlavor(decode(m[1]));
  if (!flavor.ok) throw bad(`Bad flavor: ${flavor.message}.`);
  const id = checkSessionId(decode(m[2]));
  if (!id.ok) throw bad(`Bad session id: ${id.message}.`);
  if (!withFile) return { flavor: flavor.value, id: id.value, path: '' };
  const file = checkFilePath(m[3]);
  if (!file.ok) throw bad(`Bad file path: ${file.message}.`);
  return { flavor: flavor.value, id: id.value, path: file.value };
}

function bad(message: string): HttpError {
  return new HttpError(HttpErrorCode.BAD_USER_INPUT, message);
}

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
