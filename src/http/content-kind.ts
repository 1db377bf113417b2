import { isUtf8 } from 'node:buffer';
import { extname } from 'node:path';
import { lookup } from 'mime-types';

/**
 * Which downloads are binary, decided by content: a file is binary only when its first bytes
 * carry the signature of a known binary format AND are not plain text. Everything else is text
 * and masked, whatever its name (`.ts`, `.key`, `.pem`, `.env`, no extension at all), so a
 * secret cannot slip through under a name that sounds binary or with a stray NUL byte.
 */

type Magic = readonly [offset: number, bytes: readonly number[]];

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Signatures of binary formats an agent session may hold (images, media, archives, ...). */
const MAGIC: readonly Magic[] = [
  // images
  [0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]], // PNG
  [0, [0xff, 0xd8, 0xff]], // JPEG
  [0, ascii('GIF87a')],
  [0, ascii('GIF89a')],
  [0, ascii('BM')], // BMP
  [0, [0x00, 0x00, 0x01, 0x00]], // ICO
  [0, [0x00, 0x00, 0x02, 0x00]], // CUR
  [0, [0x49, 0x49, 0x2a, 0x00]], // TIFF, little-endian
  [0, [0x4d, 0x4d, 0x00, 0x2a]], // TIFF, big-endian
  [0, ascii('8BPS')], // Photoshop
  // audio and video
  [0, ascii('RIFF')], // WAV, AVI, WebP
  [0, ascii('ID3')], // MP3 with tags
  [0, [0xff, 0xfb]], // MP3 frames
  [0, [0xff, 0xf3]],
  [0, [0xff, 0xf2]],
  [0, ascii('OggS')],
  [0, ascii('fLaC')],
  [4, ascii('ftyp')], // MP4, MOV, M4A, HEIC, AVIF
  [0, [0x1a, 0x45, 0xdf, 0xa3]], // WebM, Matroska
  [0, [0x47]], // MPEG transport stream (sync byte; confirmed below)
  // documents, archives, executables, databases, fonts
  [0, ascii('%PDF-')],
  [0, [0x50, 0x4b, 0x03, 0x04]], // zip (docx, xlsx, jar, apk, ...)
  [0, [0x50, 0x4b, 0x05, 0x06]], // empty zip
  [0, [0x50, 0x4b, 0x07, 0x08]], // spanned zip
  [0, [0x1f, 0x8b]], // gzip
  [0, ascii('BZh')],
  [0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], // xz
  [0, [0x28, 0xb5, 0x2f, 0xfd]], // zstd
  [0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]], // 7z
  [0, ascii('Rar!\x1a\x07')],
  [257, ascii('ustar')], // tar
  [0, [0x7f, 0x45, 0x4c, 0x46]], // ELF
  [0, ascii('MZ')], // Windows executables
  [0, [0xcf, 0xfa, 0xed, 0xfe]], // Mach-O 64
  [0, [0xce, 0xfa, 0xed, 0xfe]], // Mach-O 32
  [0, [0xca, 0xfe, 0xba, 0xbe]], // Java class, Mach-O universal
  [0, [0x00, 0x61, 0x73, 0x6d]], // WebAssembly
  [0, ascii('SQLite format 3\0')],
  [0, ascii('wOFF')],
  [0, ascii('wOF2')],
  [0, ascii('OTTO')],
  [0, [0x00, 0x01, 0x00, 0x00, 0x00]], // TrueType
];

function matches(head: Buffer, [offset, bytes]: Magic): boolean {
  if (head.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false;
  // One byte is too weak alone: a transport stream repeats it every 188 bytes.
  if (bytes.length === 1) return head.length > 376 && head[188] === 0x47 && head[376] === 0x47;
  return true;
}

/** Control characters text may hold: tab, line breaks, form feed, escape (colour codes). */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

/** Plain text: valid UTF-8 without other control characters. */
function isPlainText(head: Buffer): boolean {
  for (const byte of head) {
    if ((byte < 0x20 && !TEXT_CONTROLS.has(byte)) || byte === 0x7f) return false;
  }
  // The sample may end inside a multi-byte character.
  for (let cut = 0; cut <= 3 && cut <= head.length; cut++) {
    if (isUtf8(head.subarray(0, head.length - cut))) return true;
  }
  return false;
}

/** Bytes read from a file's start to judge whether it is binary. */
export const SNIFF_BYTES = 8192;

/** Binary by signature, and not text that merely starts like one (`BM...`, `MZ...`). */
export function isVerifiablyBinary(head: Buffer): boolean {
  return MAGIC.some((m) => matches(head, m)) && !isPlainText(head);
}

/** Media types that are text, served with `charset=utf-8`. */
const TEXT_TYPE =
  /^text\/|^application\/(json|jsonl|x-ndjson|xml|javascript|sql|toml|yaml|x-sh|x-httpd-php|node)$|\+(json|xml)$/;

/** Names whose registered type says nothing useful about what an agent keeps under them. */
const BY_EXTENSION: Readonly<Record<string, { text: string; binary?: string }>> = {
  '.jsonl': { text: 'application/jsonl' },
  // TypeScript sources, unless the bytes really are an MPEG transport stream.
  '.ts': { text: 'text/plain', binary: 'video/mp2t' },
  '.mts': { text: 'text/plain', binary: 'video/mp2t' },
  '.cts': { text: 'text/plain' },
  '.tsx': { text: 'text/plain' },
};

/**
 * The Content-Type of a download, from its name; `binary` is the content's verdict (a `.ts`
 * file is TypeScript unless its bytes are video) and `utf8` whether the bytes sent are UTF-8.
 */
export function contentTypeOf(name: string, binary: boolean, utf8: boolean): string {
  const special = BY_EXTENSION[extname(name).toLowerCase()];
  const type =
    (special && (binary ? special.binary : special.text)) ||
    lookup(name) ||
    'application/octet-stream';
  return TEXT_TYPE.test(type) && utf8 && !binary ? `${type}; charset=utf-8` : type;
}
