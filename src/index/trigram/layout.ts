/**
 * The trigram index's files in CACHE_DIR (version 2), every name prefixed with the
 * `trigram-<random>-` that index.sqlite's meta table names (a file made anew names new ones).
 * Written by one process, readable by any other: a segment never changes once renamed into
 * place, and the manifest, replaced atomically, says which segments are live and which of their
 * texts are deleted. The segments hold the only copy of each text (index.sqlite's docs table
 * keeps its key, not its text): folded for search, with the case bytes that give it back as
 * written (snippets, highlights, matchCount).
 *
 * `seg-<n>.tri`, little-endian, sections in this order right after the 56-byte header:
 *   header  magic "BQTRIGS1" (8), version u32, texts N u32, trigrams T u32, 0 u32,
 *           postings bytes P f64, text bytes X f64, case bytes C f64, file length f64
 *   ids     N f64: the caller's text ids, ascending
 *   tokens  N u32: code points - 2 (FTS5's trigram token count, BM25's document length)
 *   flags   N u8, padded to 4: bit 0 = the text holds a lone surrogate
 *   ends    N u32: end of text i in the text section (text i starts where i - 1 ends)
 *   cends   N u32: end of text i's case bytes in the case section
 *   keys    T u32: the distinct trigrams (3 folded UTF-8 bytes, big-endian), ascending
 *   pends   T u32: end of trigram i's postings in the postings section
 *   postings P bytes: per trigram, the ascending text numbers (0..N-1) as varint deltas
 *   texts   X bytes: each text folded (see fold.ts), UTF-8
 *   cases   C bytes: each text's case bytes (see cases.ts): the folded text and these give
 *           the text as written
 *
 * `manifest.json`: { version, nextSegment, segments: [{ file, dead: [text numbers] }] }.
 * A crash loses at most the segment being written: its temporary file (`*.tmp`) is not in the
 * manifest, and opening deletes it. Version 1 (no case bytes: index.sqlite held every text as
 * written) is not read: index.sqlite's meta `trigram_layout` names the version its segments
 * have, and a file of another one is rebuilt.
 */
export const MAGIC = 'BQTRIGS1';
export const VERSION = 2;
export const HEADER_BYTES = 56;
export const MANIFEST = 'manifest.json';

export interface Sections {
  ids: number;
  tokens: number;
  flags: number;
  ends: number;
  cends: number;
  keys: number;
  pends: number;
  postings: number;
  texts: number;
  cases: number;
  length: number;
}

/**
 * Section offsets of a segment of `n` texts, `t` trigrams, `p` postings, `x` text bytes and
 * `c` case bytes.
 */
export function sections(n: number, t: number, p: number, x: number, c: number): Sections {
  const ids = HEADER_BYTES;
  const tokens = ids + n * 8;
  const flags = tokens + n * 4;
  const ends = flags + Math.ceil(n / 4) * 4;
  const cends = ends + n * 4;
  const keys = cends + n * 4;
  const pends = keys + t * 4;
  const postings = pends + t * 4;
  const texts = postings + p;
  const cases = texts + x;
  return {
    ids,
    tokens,
    flags,
    ends,
    cends,
    keys,
    pends,
    postings,
    texts,
    cases,
    length: cases + c,
  };
}

export const FLAG_LONE_SURROGATE = 1;

/** Decodes a postings list of varint deltas. */
export function readPostings(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length);
  let n = 0;
  let prev = 0;
  let i = 0;
  while (i < bytes.length) {
    let v = 0;
    let shift = 1;
    let b: number;
    do {
      b = bytes[i++];
      v += (b & 0x7f) * shift;
      shift *= 128;
    } while (b & 0x80);
    prev += v;
    out[n++] = prev;
  }
  return out.subarray(0, n);
}
