import type { Span } from './patterns';

/**
 * Same-length masking of bytes: for binary files and UTF-16 text, whose offsets must not move
 * (Content-Length, Range, raw byte offsets). Each masked span is overwritten by its marker cut
 * or padded with `*` to the span's length.
 */

export type Utf16 = 'utf16le' | 'utf16be';

/** Bytes sniffed to tell UTF-16 text. */
const SNIFF = 8192;

/**
 * The UTF-16 flavour of a file from its first bytes: a byte order mark, or ASCII-range text
 * with a NUL in (nearly) every other byte, as PowerShell 5 writes; null otherwise.
 */
export function utf16Of(head: Buffer): Utf16 | null {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  const pairs = Math.floor(Math.min(head.length, SNIFF) / 2);
  if (pairs < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenNul++;
    if (head[2 * i + 1] === 0) oddNul++;
  }
  const strong = (n: number) => n * 10 >= pairs * 9;
  const rare = (n: number) => n * 10 <= pairs;
  if (strong(oddNul) && rare(evenNul)) return 'utf16le';
  if (strong(evenNul) && rare(oddNul)) return 'utf16be';
  return null;
}

/** Decodes UTF-16 (a trailing odd byte is ignored); the text's offsets are code units. */
export function decodeUtf16(buf: Buffer, enc: Utf16): string {
  const even = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  if (enc === 'utf16be') even.swap16();
  return even.toString('utf16le');
}

/** Encodes text as UTF-16 of the given byte order. */
export function encodeUtf16(text: string, enc: Utf16): Buffer {
  const out = Buffer.from(text, 'utf16le');
  return enc === 'utf16be' ? out.swap16() : out;
}

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
