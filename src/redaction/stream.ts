import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Redactor } from './redactor';
import { MaskWindows } from './windows';

export { STREAM_CONTEXT, STREAM_STEP } from './windows';

/**
 * A Transform from the bytes of a text file to its redacted text as UTF-8 bytes, for file
 * downloads. Input is decoded as UTF-8 across chunk edges (invalid bytes become U+FFFD, so
 * the output equals the input for valid UTF-8 without secrets). It is masked in windows of
 * STREAM_STEP characters (./windows), so memory stays about 80 KiB plus one input chunk
 * whatever the file size, and a secret split across chunks is still seen whole.
 * Disabled: a PassThrough (bytes untouched). `encoding` 'utf16le' reads and writes UTF-16
 * (little-endian) instead, for UTF-16 text files. `values`: secret values masked wherever they
 * show besides the file's own (a compact-tier file: ./tier-values).
 */
export function createRedactStream(
  redactor: Redactor,
  encoding: 'utf8' | 'utf16le' = 'utf8',
  values: ReadonlyMap<string, string> = new Map(),
): Transform {
  if (!redactor.enabled) return new PassThrough();
  const decoder = new StringDecoder(encoding);
  const windows = new MaskWindows(redactor, undefined, values);
  const step = (stream: Transform, final: boolean, text: string): void =>
    windows.write(text, final, (part) => stream.push(Buffer.from(part, encoding)));

  return new Transform({
    transform(
      this: Transform,
      chunk: Buffer | string,
      _enc: BufferEncoding,
      cb: TransformCallback,
    ) {
      try {
        step(this, false, typeof chunk === 'string' ? chunk : decoder.write(chunk));
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
    flush(this: Transform, cb: TransformCallback) {
      try {
        step(this, true, decoder.end());
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
  });
}
