import { Transform, type TransformCallback } from 'node:stream';
import type { Utf16 } from '../redaction/bytes';
import type { Redactor } from '../redaction/redactor';
import { createRedactStream } from '../redaction/stream';

/** Swaps the bytes of each 16-bit unit across chunk edges (UTF-16BE <-> LE). */
class Swap16 extends Transform {
  private odd: Buffer | null = null;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const all = this.odd ? Buffer.concat([this.odd, chunk]) : Buffer.from(chunk);
    const even = all.length - (all.length % 2);
    this.odd = even < all.length ? all.subarray(even) : null;
    if (even > 0) this.push(all.subarray(0, even).swap16());
    cb();
  }

  override _flush(cb: TransformCallback): void {
    if (this.odd) this.push(this.odd);
    cb();
  }
}

/** The transforms masking a UTF-16 text stream, giving back the same encoding. */
export function maskUtf16Stream(redactor: Redactor, enc: Utf16): Transform[] {
  const mask = createRedactStream(redactor, 'utf16le');
  return enc === 'utf16le' ? [mask] : [new Swap16(), mask, new Swap16()];
}
