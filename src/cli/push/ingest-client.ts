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
export class Unreachable extends Error {}

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
      const req = lib.request(url, { method, headers, timeout: 120_000 }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', (err) => reject(new Unreachable(err.message)));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300 && json !== null) return resolve(json);
          const e = (json as { error?: { code?: string; message?: string; size?: number } } | null)
            ?.error;
          reject(
            new IngestHttpError(
              status,
              e?.code ?? `HTTP_${status}`,
              e?.message ?? `the server answered ${status}`,
              e?.size,
              Number(res.headers['retry-after']) || undefined,
            ),
          );
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => {
        body?.destroy();
        reject(new Unreachable(`${url.origin}: ${err.message}`));
      });
      if (body) {
        body.on('error', (err) => req.destroy(err));
        body.pipe(req);
      } else req.end();
    });
  }
}
