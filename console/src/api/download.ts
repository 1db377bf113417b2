import { authHeaders } from './key';
import { refusal } from './refusal';

/**
 * Saves what a REST route answers as a file: fetched with the tab's key (a plain link would
 * carry none), then saved under the name the server's Content-Disposition gives, else
 * `fallback`. Throws with the HTTP status and the route's message when it refuses.
 */
export async function download(url: string, fallback: string): Promise<void> {
  const res = await fetch(url, { headers: authHeaders() });
  if (!res.ok) throw new Error(await refusal(res));
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1];
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name ?? fallback;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The REST file route of a session-relative path: its slashes as they are (%2F is refused). */
export const fileUrl = (id: string, path: string): string =>
  `/api/sessions/${encodeURIComponent(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
