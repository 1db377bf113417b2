import * as fs from 'node:fs';
import * as path from 'node:path';
import { fold } from './fold';
import { Segment } from './segment';
import { FLAG_LONE_SURROGATE, HEADER_BYTES, MAGIC, VERSION, putVarint, sections } from './layout';

export interface TextInput {
  /** The caller's id: unique, never reused. */
  id: number;
  text: string;
}

/** Per-stage time of one segment, in ms (the bench prints them as throughput). */
export interface BuildTimes {
  fold: number;
  trigrams: number;
  write: number;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** One bit per possible trigram: which ones the current text has already given. */
const seen = new Uint8Array(1 << 21);

/**
 * Builds one segment file from `texts` (any order; sorted by id here) and writes it to `file`
 * through a temporary name, fsynced before the rename: the file either is whole or is not.
 */
export function buildSegment(texts: readonly TextInput[], file: string): BuildTimes {
  const t0 = performance.now();
  const entries = texts.map(({ id, text }): FoldedText => {
    const folded = Buffer.from(fold(text), 'utf8');
    let cps = 0;
    for (let j = 0; j < folded.length; j++) if ((folded[j] & 0xc0) !== 0x80) cps++;
    const flags = LONE_SURROGATE.test(text) ? FLAG_LONE_SURROGATE : 0;
    return { id, folded, tokens: Math.max(0, cps - 2), flags };
  });
  const times = writeSegment(entries, file);
  times.fold = performance.now() - t0 - times.trigrams - times.write;
  return times;
}

/** A text as a segment holds it (merges copy these from segment to segment). */
export interface FoldedText {
  id: number;
  folded: Buffer;
  tokens: number;
  flags: number;
}

/** Writes a segment of `texts` (folded already; any order, sorted by id here) to `file`. */
export function writeSegment(texts: FoldedText[], file: string): BuildTimes {
  const times: BuildTimes = { fold: 0, trigrams: 0, write: 0 };
  const sorted = texts.sort((a, b) => a.id - b.id);
  const n = sorted.length;
  const ids = new Float64Array(n);
  const tokens = new Uint32Array(n);
  const flags = new Uint8Array(Math.ceil(n / 4) * 4);
  const ends = new Uint32Array(n);
  const folded: Buffer[] = [];
  const lists = new Map<number, number[]>();
  let textBytes = 0;
  const given: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const f = sorted[i].folded;
    ids[i] = sorted[i].id;
    tokens[i] = sorted[i].tokens;
    flags[i] = sorted[i].flags;
    folded.push(f);
    textBytes += f.length;
    ends[i] = textBytes;
    for (let j = 0; j + 2 < f.length; j++) {
      const key = (f[j] << 16) | (f[j + 1] << 8) | f[j + 2];
      const bit = 1 << (key & 7);
      if (seen[key >> 3] & bit) continue;
      seen[key >> 3] |= bit;
      given.push(key);
      const list = lists.get(key);
      if (list) list.push(i);
      else lists.set(key, [i]);
    }
    for (const key of given) seen[key >> 3] = 0;
    given.length = 0;
    times.trigrams += performance.now() - t0;
  }
  const t0 = performance.now();
  const keys = Uint32Array.from(lists.keys()).sort();
  const pends = new Uint32Array(keys.length);
  const postings: Buffer[] = [];
  let postingBytes = 0;
  const out: number[] = [];
  for (let k = 0; k < keys.length; k++) {
    const list = lists.get(keys[k]) as number[];
    out.length = 0;
    let prev = 0;
    for (const x of list) {
      putVarint(out, x - prev);
      prev = x;
    }
    const b = Buffer.from(out);
    postings.push(b);
    postingBytes += b.length;
    pends[k] = postingBytes;
  }
  lists.clear();
  const s = sections(n, keys.length, postingBytes, textBytes);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(VERSION, 8);
  header.writeUInt32LE(n, 12);
  header.writeUInt32LE(keys.length, 16);
  header.writeDoubleLE(postingBytes, 24);
  header.writeDoubleLE(textBytes, 32);
  header.writeDoubleLE(s.length, 40);
  const tables = [header, bytes(ids), bytes(tokens), flags, bytes(ends), bytes(keys), bytes(pends)];
  const parts = tables.concat(Buffer.concat(postings), folded);
  writeAtomically(file, parts);
  times.write = performance.now() - t0;
  return times;
}

/** Copies the kept texts of segments into one new segment (no refolding: bytes as stored). */
export function mergeSegments(from: { file: string; keep: number[] }[], file: string): BuildTimes {
  const texts: FoldedText[] = [];
  for (const { file: f, keep } of from) {
    const s = Segment.open(f);
    try {
      s.texts(keep, (n, folded) => {
        texts.push({
          id: s.ids[n],
          folded: Buffer.from(folded),
          tokens: s.tokens[n],
          flags: s.flags[n],
        });
      });
    } finally {
      s.close();
    }
  }
  return writeSegment(texts, file);
}

function bytes(a: Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Writes `parts` to `file` whole or not at all: a temporary name, fsync, rename. */
export function writeAtomically(file: string, parts: readonly Uint8Array[]): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    // Small parts (texts) go out in batches: one write each would be a system call each.
    let batch: Uint8Array[] = [];
    let size = 0;
    const drain = () => {
      if (size > 0) writeAll(fd, batch.length === 1 ? batch[0] : Buffer.concat(batch, size));
      batch = [];
      size = 0;
    };
    for (const part of parts) {
      batch.push(part);
      size += part.length;
      if (size >= 1 << 22) drain();
    }
    drain();
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDir(file);
}

function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done);
}

/** The rename itself is durable once the folder is synced. */
export function syncDir(file: string): void {
  const fd = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
