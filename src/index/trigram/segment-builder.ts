import * as fs from 'node:fs';
import * as path from 'node:path';
import { asciiCaseBytes, caseBytes } from './cases';
import { fold } from './fold';
import { Segment } from './segment';
import { FLAG_LONE_SURROGATE, HEADER_BYTES, MAGIC, VERSION, sections } from './layout';

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

/**
 * Each trigram's slot + 1 in the segment being written (0: not seen in it), indexed by the
 * trigram's 24 bits: one array read per trigram, where a Map of lists cost most of a build
 * (its lookups and one growing array per trigram, then their garbage). 64 MiB, made at the
 * first segment (a process that never writes one never pays for it) and cleared after each.
 */
let slotOf: Uint32Array | null = null;

function grown<T extends Uint32Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

const varintBytes = (v: number): number =>
  v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;

/**
 * Builds one segment file from `texts` (any order; sorted by id here) and writes it to `file`
 * through a temporary name, fsynced before the rename: the file either is whole or is not.
 */
export function buildSegment(texts: readonly TextInput[], file: string): BuildTimes {
  const t0 = performance.now();
  const entries = texts.map(({ id, text }): FoldedText => {
    // Most texts are ASCII: a character is a byte, none is a surrogate, only A-Z fold.
    if (Buffer.byteLength(text, 'utf8') === text.length) {
      const lower = text.toLowerCase();
      const cases = text === lower ? NO_CASES : asciiCaseBytes(text);
      const folded = Buffer.from(lower, 'latin1');
      return { id, folded, cases, tokens: Math.max(0, text.length - 2), flags: 0 };
    }
    const lower = fold(text);
    const folded = Buffer.from(lower, 'utf8');
    let cps = 0;
    for (let j = 0; j < folded.length; j++) if ((folded[j] & 0xc0) !== 0x80) cps++;
    const flags = LONE_SURROGATE.test(text) ? FLAG_LONE_SURROGATE : 0;
    // A lone surrogate folds to itself but is U+FFFD in UTF-8: recorded too.
    const cases = text === lower && flags === 0 ? NO_CASES : caseBytes(text, lower);
    return { id, folded, cases, tokens: Math.max(0, cps - 2), flags };
  });
  const times = writeSegment(entries, file);
  times.fold = performance.now() - t0 - times.trigrams - times.write;
  return times;
}

const NO_CASES = Buffer.alloc(0);

/** A text as a segment holds it (merges copy these from segment to segment). */
export interface FoldedText {
  id: number;
  folded: Buffer;
  /** What gives the text as written back from `folded` (see cases.ts). */
  cases: Buffer;
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
  const cends = new Uint32Array(n);
  const folded: Buffer[] = [];
  const cases: Buffer[] = [];
  let textBytes = 0;
  let caseBytes = 0;
  for (let i = 0; i < n; i++) {
    ids[i] = sorted[i].id;
    tokens[i] = sorted[i].tokens;
    flags[i] = sorted[i].flags;
    folded.push(sorted[i].folded);
    textBytes += sorted[i].folded.length;
    ends[i] = textBytes;
    if (sorted[i].cases.length > 0) cases.push(sorted[i].cases);
    caseBytes += sorted[i].cases.length;
    cends[i] = caseBytes;
  }
  const t0 = performance.now();
  const { keys, pends, postings } = invert(folded);
  const t1 = performance.now();
  times.trigrams = t1 - t0;
  const s = sections(n, keys.length, postings.length, textBytes, caseBytes);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(VERSION, 8);
  header.writeUInt32LE(n, 12);
  header.writeUInt32LE(keys.length, 16);
  header.writeDoubleLE(postings.length, 24);
  header.writeDoubleLE(textBytes, 32);
  header.writeDoubleLE(caseBytes, 40);
  header.writeDoubleLE(s.length, 48);
  const tables = [
    header,
    bytes(ids),
    bytes(tokens),
    flags,
    bytes(ends),
    bytes(cends),
    bytes(keys),
    bytes(pends),
  ];
  writeAtomically(file, tables.concat(postings, folded, cases));
  times.write = performance.now() - t1;
  return times;
}

/**
 * The segment's trigrams (ascending), the end of each one's postings, and the postings: per
 * trigram, the numbers of the texts holding it as varint deltas. Two passes over typed arrays:
 * the first gives each distinct trigram a slot, and records each text's slots (once each) and
 * each slot's postings size; the second writes every list in place in one buffer.
 */
function invert(folded: readonly Buffer[]): {
  keys: Uint32Array;
  pends: Uint32Array;
  postings: Buffer;
} {
  const slots = (slotOf ??= new Uint32Array(1 << 24));
  // Per slot: its trigram, the last text that gave it, its postings' bytes so far.
  let keyOf = new Uint32Array(1 << 16);
  let last = new Int32Array(1 << 16);
  let size = new Uint32Array(1 << 16);
  let t = 0;
  try {
    // The slots each text gives, text after text: `pairEnds[i]` ends text i's. Sized once for
    // every trigram place (grown by doubling, it was copied and dropped again and again).
    let places = 0;
    for (const f of folded) places += Math.max(0, f.length - 2);
    const pairs = new Uint32Array(places);
    const pairEnds = new Uint32Array(folded.length);
    let np = 0;
    for (let i = 0; i < folded.length; i++) {
      const f = folded[i];
      // The trigram ending at j + 2, rolled along: one byte read a place instead of three.
      let key = f.length > 1 ? (f[0] << 8) | f[1] : 0;
      for (let j = 0; j + 2 < f.length; j++) {
        key = ((key << 8) | f[j + 2]) & 0xffffff;
        let slot = slots[key] - 1;
        if (slot < 0) {
          slot = t++;
          if (t > keyOf.length) {
            keyOf = grown(keyOf, t);
            last = grown(last, t);
            size = grown(size, t);
          }
          slots[key] = t;
          keyOf[slot] = key;
          last[slot] = -1;
          size[slot] = 0;
        } else if (last[slot] === i) continue;
        // A list's first number is a delta from 0.
        size[slot] += varintBytes(i - Math.max(0, last[slot]));
        last[slot] = i;
        pairs[np++] = slot;
      }
      pairEnds[i] = np;
    }
    const keys = keyOf.slice(0, t).sort();
    // Slot -> where its next posting byte goes; lists in key order.
    const at = new Float64Array(t);
    const pends = new Uint32Array(t);
    let bytes = 0;
    for (let k = 0; k < t; k++) {
      const slot = slots[keys[k]] - 1;
      at[slot] = bytes;
      bytes += size[slot];
      pends[k] = bytes;
    }
    const postings = Buffer.allocUnsafe(bytes);
    last.fill(-1, 0, t);
    for (let i = 0, p = 0; i < folded.length; i++) {
      for (const e = pairEnds[i]; p < e; p++) {
        const slot = pairs[p];
        let v = i - Math.max(0, last[slot]);
        last[slot] = i;
        let w = at[slot];
        while (v >= 0x80) {
          postings[w++] = (v & 0x7f) | 0x80;
          v >>>= 7;
        }
        postings[w++] = v;
        at[slot] = w;
      }
    }
    return { keys, pends, postings };
  } finally {
    // The next segment starts from no slots (a failed one too).
    for (let slot = 0; slot < t; slot++) slots[keyOf[slot]] = 0;
  }
}

/**
 * Copies the kept texts of segments into one new segment (no refolding: bytes as stored, their
 * case bytes with them).
 */
export function mergeSegments(from: { file: string; keep: number[] }[], file: string): BuildTimes {
  const texts: FoldedText[] = [];
  for (const { file: f, keep } of from) {
    const s = Segment.open(f);
    try {
      const cases = s.caseSection();
      s.texts(keep, (n, folded) => {
        texts.push({
          id: s.ids[n],
          folded: Buffer.from(folded),
          cases: s.cases(n, cases),
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
