import { Transform, type TransformCallback } from 'node:stream';
import type { Redactor } from '../redaction/redactor';

/**
 * Private key blocks in binary downloads. A binary file is sent as it is, but an uncompressed
 * archive (a tar of ~/.ssh) or a core dump can hold a PEM private key in clear: those bytes are
 * overwritten in place, with a marker padded to the same length, so offsets, Content-Length
 * and Range answers stay those of the file.
 */

/** Longest block masked, from BEGIN to END (the redactor's limit for text). */
export const KEY_BLOCK_MAX = 16 * 1024;

const BEGIN = Buffer.from('-----BEGIN ', 'latin1');
const HEADER = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const FOOTER = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Without a footer in reach: the header and the base64 (and escaped line breaks) after it. */
const BODY = /[A-Za-z0-9+/=\s\\]*/y;
const MARK = '[REDACTED:private-key]';
/** Bytes already passed on kept as context (a `password=` before a value in the window). */
const BEHIND = 4096;

function overwrite(buf: Buffer, start: number, length: number): void {
  buf.write(MARK, start, 'latin1');
  buf.fill('*', start + MARK.length, start + length, 'latin1');
}

/**
 * Masks, in place, every private key block of `buf` whose header starts before `until`. A
 * block is seen whole when `buf` holds KEY_BLOCK_MAX bytes after its header (or ends there).
 */
export function maskKeyBlocks(buf: Buffer, until = buf.length): void {
  let at = buf.indexOf(BEGIN);
  while (at !== -1 && at < until) {
    const text = buf.toString('latin1', at, Math.min(buf.length, at + KEY_BLOCK_MAX));
    const header = HEADER.exec(text);
    if (!header) {
      at = buf.indexOf(BEGIN, at + 1);
      continue;
    }
    FOOTER.lastIndex = header[0].length;
    const footer = FOOTER.exec(text);
    BODY.lastIndex = header[0].length;
    BODY.test(text);
    const length = footer ? FOOTER.lastIndex : BODY.lastIndex;
    overwrite(buf, at, length);
    at = buf.indexOf(BEGIN, at + length);
  }
}

/**
 * A Transform masking key blocks in a byte stream, holding back KEY_BLOCK_MAX bytes so a block
 * is always seen whole, and passing on only `length` bytes after the first `skip` (so a Range
 * answer can be cut from a read that starts and ends a block's length around it). Given a
 * redactor, every secret it finds in the bytes read as Latin-1 is masked too, at the same
 * length, with BEHIND bytes of context before the window: a secret longer than KEY_BLOCK_MAX
 * (other than a key block) may show past its first KEY_BLOCK_MAX bytes.
 */
export class KeyBlockMask extends Transform {
  private pending = Buffer.alloc(0);
  /** Offset in the input of pending[0]. */
  private at = 0;
  /** The last bytes passed on (masked), context for the redactor. */
  private behind = Buffer.alloc(0);

  constructor(
    private readonly skip: number,
    private readonly length: number,
    private readonly redactor?: Redactor,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    const ready = this.pending.length - KEY_BLOCK_MAX;
    if (ready > 0) this.release(ready);
    cb();
  }

  override _flush(cb: TransformCallback): void {
    this.release(this.pending.length);
    cb();
  }

  /** Masks and passes on the first `count` pending bytes, cut to [skip, skip + length). */
  private release(count: number): void {
    maskKeyBlocks(this.pending, count);
    if (this.redactor) {
      const win = Buffer.concat([this.behind, this.pending]);
      const from = this.behind.length;
      this.redactor.maskBytes(win, 'latin1', from, from + count);
      win.copy(this.pending, 0, from);
    }
    const from = Math.max(0, this.skip - this.at);
    const to = Math.min(count, this.skip + this.length - this.at);
    if (to > from) this.push(this.pending.subarray(from, to));
    const done = Buffer.concat([this.behind, this.pending.subarray(0, count)]);
    this.behind = done.subarray(Math.max(0, done.length - BEHIND));
    this.pending = this.pending.subarray(count);
    this.at += count;
  }
}
