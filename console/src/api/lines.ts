import { ApiError } from './graphql';
import { authHeaders, keyRefused } from './key';

/** The REST route of line `line` (1-based) of a transcript view (a Problem's file and line). */
export const lineUrl = (id: string, file: string, line: number): string =>
  `/api/sessions/${encodeURIComponent(id)}/lines/${line}?file=${encodeURIComponent(file)}`;

/** That line's text, masked by the server as a download; the route's error message otherwise. */
export async function fetchLine(id: string, file: string, line: number): Promise<string> {
  const res = await fetch(lineUrl(id, file, line), { headers: authHeaders() });
  if (res.status === 401) {
    keyRefused();
    throw new ApiError('An API key is needed', 'UNAUTHENTICATED');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as {
      error?: { code?: string; message?: string };
    } | null;
    throw new ApiError(body?.error?.message ?? `HTTP ${res.status}`, body?.error?.code ?? 'HTTP');
  }
  return res.text();
}
