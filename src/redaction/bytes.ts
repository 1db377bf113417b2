import { decodeUtf16, encodeUtf16, type Utf16 } from '../brain/utf16';
import type { Span } from './patterns';

/**
 * Same-length masking of bytes: for binary files and UTF-16 text, whose offsets must not move
 * (Content-Length, Range, raw byte offsets). Each masked span is overwritten by its marker cut
 * or padded with `*` to the span's length.
 */

export { decodeUtf16, encodeUtf16, utf16Of, type Utf16 } from '../brain/utf16';

/** The text of `buf` as detectors see it, one character per `width` bytes. */
export function bytesText(buf: Buffer, enc: 'latin1' | Utf16): string {
  return enc === 'latin1' ? buf.toString('latin1') : decodeUtf16(buf, enc);
}

/**
 * Overwrites, in `buf`, the characters [span.start, span.end) of its `enc` text with `mark`
 * cut or padded with `*` to the span's length.
 */
export function overwriteSpan(buf: Buffer, enc: 'latin1' | Utf16, span: Span, mark: string): void {
  const length = span.end - span.start;
  const text = mark.slice(0, length).padEnd(length, '*');
  if (enc === 'latin1') buf.write(text, span.start, 'latin1');
  else encodeUtf16(text, enc).copy(buf, 2 * span.start);
}

/** A UTF-8 continuation byte at `i`. */
const cont = (buf: Buffer, i: number): boolean => i < buf.length && (buf[i] & 0xc0) === 0x80;

/**
 * Bytes that are mostly UTF-8 read as text, each byte of an invalid sequence as U+FFFD, with
 * the byte offset of every UTF-16 code unit (`at[text.length]` is the end): one stray byte must
 * not hide the other lines' non-ASCII text (`пароль: …`) from the detectors, as reading the
 * whole file as Latin-1 would.
 */
export function utf8Lossy(buf: Buffer): { text: string; at: Uint32Array } {
  const codes = new Uint16Array(buf.length);
  const at = new Uint32Array(buf.length + 1);
  let n = 0;
  for (let i = 0; i < buf.length;) {
    const b = buf[i];
    let cp = -1;
    let len = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xc2 && b <= 0xdf && cont(buf, i + 1)) {
      cp = ((b & 0x1f) << 6) | (buf[i + 1] & 0x3f);
      len = 2;
    } else if (b >= 0xe0 && b <= 0xef && cont(buf, i + 1) && cont(buf, i + 2)) {
      const c = ((b & 0x0f) << 12) | ((buf[i + 1] & 0x3f) << 6) | (buf[i + 2] & 0x3f);
      // Not overlong, not a surrogate.
      if (c >= 0x800 && (c < 0xd800 || c > 0xdfff)) [cp, len] = [c, 3];
    } else if (b >= 0xf0 && b <= 0xf4 && cont(buf, i + 1) && cont(buf, i + 2) && cont(buf, i + 3)) {
      const c =
        ((b & 0x07) << 18) |
        ((buf[i + 1] & 0x3f) << 12) |
        ((buf[i + 2] & 0x3f) << 6) |
        (buf[i + 3] & 0x3f);
      if (c >= 0x10000 && c <= 0x10ffff) [cp, len] = [c, 4];
    }
    if (cp < 0) cp = 0xfffd;
    if (cp > 0xffff) {
      codes[n] = 0xd800 + ((cp - 0x10000) >> 10);
      at[n++] = i;
      codes[n] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      at[n++] = i;
    } else {
      codes[n] = cp;
      at[n++] = i;
    }
    i += len;
  }
  at[n] = buf.length;
  const text = Buffer.from(codes.buffer, codes.byteOffset, n * 2).toString('utf16le');
  return { text, at };
}
