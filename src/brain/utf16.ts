import { decodeUtf8 } from './files';

/**
 * UTF-16 text files (PowerShell 5 writes them, Windows tools too): told by their first bytes,
 * decoded as the file route masks them (src/redaction/bytes.ts), so every reader sees the same
 * text the downloads and the index see.
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

/**
 * A file's text: UTF-16 by its byte order mark or its NULs (the mark dropped), else UTF-8.
 * Artifacts read as UTF-8 alone showed a UTF-16 file's characters between NULs, which no
 * detector reads (the seventh review saw a UTF-16 artifact's password in GraphQL and exports).
 */
export function decodeText(bytes: Buffer): string {
  const utf16 = utf16Of(bytes);
  return utf16 ? decodeUtf16(bytes, utf16).replace(/^\uFEFF/, '') : decodeUtf8(bytes);
}
