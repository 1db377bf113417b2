import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Redactor } from '../../src/redaction/redactor';
import { createRedactStream } from '../../src/redaction/stream';

/** `text` as a download serves it past 8 MiB: through createRedactStream, in 64 KiB chunks. */
export async function download(r: Redactor, text: string): Promise<string> {
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk);
      cb();
    },
  });
  const buf = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += 64 * 1024) chunks.push(buf.subarray(i, i + 64 * 1024));
  await pipeline(Readable.from(chunks), createRedactStream(r), sink);
  return Buffer.concat(out).toString('utf8');
}
