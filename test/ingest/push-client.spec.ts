import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { IngestClient, IngestHttpError } from '../../src/cli/push/ingest-client';

/**
 * The client reads an answer the server sends before it has read the body, then closes (over
 * the body limit, past the quota): the write's EPIPE / ECONNRESET must not hide it.
 */

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // Answer at once, never read the body, and cut the connection.
    const body = JSON.stringify({
      error: { code: 'INSUFFICIENT_STORAGE', message: 'past MAX_INGEST_MB' },
    });
    res.writeHead(507, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    if (req.url!.includes('cut')) {
      // Only the head comes before the connection is cut: the status still tells what it was.
      res.flushHeaders();
      setTimeout(() => req.socket.destroy(), 50);
    } else res.end(body, () => req.socket.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

it.each([
  ['a.md', 'past MAX_INGEST_MB'],
  ['cut.md', 'the server answered 507'],
])(
  'a 507 sent before the body was read is the error, not "cannot reach" (%s)',
  async (file, message) => {
    const size = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const client = new IngestClient(url, 'k');
    for (let i = 0; i < 5; i++) {
      const body = Readable.from(
        (function* () {
          for (let n = 0; n < size / chunk.length; n++) yield chunk;
        })(),
      );
      const err = (await client
        .put('antigravity-ide', '11a00000-0000-4000-8000-000000000001', file, 0, body, size)
        .catch((e: unknown) => e)) as IngestHttpError;
      expect(err).toBeInstanceOf(IngestHttpError);
      expect([err.status, err.code, err.message]).toEqual([507, 'INSUFFICIENT_STORAGE', message]);
    }
  },
  30_000,
);
