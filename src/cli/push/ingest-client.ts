import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { baseUrl } from '../source/remote';

/**
 * The two ingest routes over HTTP. Bodies are streams with a Content-Length (a file slice
 * read as it is sent), so a large file is never one buffer. node:http rather than fetch: a
 * streamed request body with a declared length is plain there.
 */

export interface Held {
  path: string;
  size: number;
  sha256: string;
}

/** An answer that is not a success: its status, and the error body's code, message and size. */
export class IngestHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly size?: number,
    /** RATE_LIMITED: the server's Retry-After, in seconds. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The server could not be reached (refused, reset, timed out): worth retrying later. */
export class Unreachable extends Error {
  constructor(
    message: string,
    /**
     * The connection broke while a body was being sent, before any answer: a server that
     * refuses a body before reading it (over its body limit or quota) closes it, and its
     * answer may be lost with the connection.
     */
    readonly whileSending = false,
  ) {
    super(message);
  }
}

export class IngestClient {
  readonly base: URL;

  constructor(
    url: string,
    private readonly key: string | undefined,
  ) {
    this.base = baseUrl(url);
  }

  private sessionPath(flavor: string, id: string): string {
    return `api/ingest/sessions/${encodeURIComponent(flavor)}/${encodeURIComponent(id)}`;
  }

  async held(flavor: string, id: string): Promise<Held[]> {
    const body = await this.request('GET', this.sessionPath(flavor, id));
    return (body as { items: Held[] }).items;
  }

  /** Sends `length` bytes of `body` to `path` at `offset`; the server's entry after fsync. */
  async put(
    flavor: string,
    id: string,
    rel: string,
    offset: number,
    body: Readable,
    length: number,
  ): Promise<Held> {
    const file = rel.split('/').map(encodeURIComponent).join('/');
    const target = `${this.sessionPath(flavor, id)}/files/${file}?offset=${offset}`;
    return (await this.request('PUT', target, body, length)) as Held;
  }

  private request(method: string, rel: string, body?: Readable, length = 0): Promise<unknown> {
    const url = new URL(rel, this.base);
    const lib = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string | number> = {};
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    if (body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = length;
    }
    return new Promise((resolve, reject) => {
      /**
       * The server may answer before it has read the body (over the body limit, past the
       * quota) and close: writing the rest then fails (EPIPE, ECONNRESET) though its answer
       * came. Once an answer has begun, that answer decides, not the write's error.
       */
      let answered = false;
      let done = false;
      const settle = (fn: () => void) => {
        if (done) return;
        done = true;
        fn();
      };
      const req = lib.request(url, { method, headers, timeout: 120_000 }, (res) => {
        answered = true;
        const parts: Buffer[] = [];
        const finish = () =>
          settle(() => {
            const outcome = outcomeOf(res, Buffer.concat(parts).toString('utf8'));
            if (outcome instanceof Error) reject(outcome);
            else resolve(outcome.json);
          });
        res.on('data', (c: Buffer) => parts.push(c));
        // A cut answer still ends: 'close' without 'end'. What came is judged as it is.
        res.on('error', () => undefined);
        res.on('end', finish);
        res.on('close', finish);
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => {
        body?.unpipe(req);
        body?.destroy();
        if (!answered)
          settle(() =>
            reject(new Unreachable(`${url.origin}: ${err.message}`, body !== undefined)),
          );
      });
      if (body) {
        body.on('error', (err) => req.destroy(err));
        body.pipe(req);
      } else req.end();
    });
  }
}

/** The codes a status stands for when its answer was cut before its JSON body. */
const BY_STATUS: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  409: 'OFFSET_MISMATCH',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  507: 'INSUFFICIENT_STORAGE',
};

/** A success's JSON, or the error an answer stands for (a cut success is unreachable). */
function outcomeOf(
  res: http.IncomingMessage,
  text: string,
): { json: unknown } | IngestHttpError | Unreachable {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) {
    if (json !== null) return { json };
    if (!res.complete) return new Unreachable('the connection closed during the answer');
  }
  const e = (json as { error?: { code?: string; message?: string; size?: number } } | null)?.error;
  return new IngestHttpError(
    status,
    e?.code ?? BY_STATUS[status] ?? `HTTP_${status}`,
    e?.message ?? `the server answered ${status}`,
    e?.size,
    Number(res.headers['retry-after']) || undefined,
  );
}
