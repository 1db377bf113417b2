import * as fs from 'node:fs';
import { restore } from './cases';
import { HEADER_BYTES, MAGIC, VERSION, readPostings, sections, type Sections } from './layout';

/** Reads of texts are joined when the gap between them is smaller than this. */
const GAP = 4 * 1024;
const MAX_READ = 4 * 1024 * 1024;
/** The buffer runs of texts are read into (each run's texts are used before the next read). */
let scratch = Buffer.allocUnsafe(0);

/**
 * One segment file, open for reading. Its small tables (ids, lengths, trigram keys) are held;
 * postings and texts are read from the file when a query needs them (the page cache keeps
 * what is asked often), so memory does not grow with the home.
 */
export class Segment {
  readonly count: number;
  readonly ids: Float64Array;
  readonly tokens: Uint32Array;
  readonly flags: Uint8Array;
  private readonly ends: Uint32Array;
  private readonly cends: Uint32Array;
  private readonly keys: Uint32Array;
  private readonly pends: Uint32Array;
  private readonly at: Sections;

  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {
    const header = Buffer.alloc(HEADER_BYTES);
    fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    if (header.toString('latin1', 0, 8) !== MAGIC || header.readUInt32LE(8) !== VERSION) {
      throw new Error(`${file} is not a version ${VERSION} trigram segment`);
    }
    const n = header.readUInt32LE(12);
    const t = header.readUInt32LE(16);
    const [p, x, c] = [header.readDoubleLE(24), header.readDoubleLE(32), header.readDoubleLE(40)];
    this.at = sections(n, t, p, x, c);
    if (header.readDoubleLE(48) !== this.at.length || fs.fstatSync(fd).size !== this.at.length) {
      throw new Error(`${file} is truncated`);
    }
    this.count = n;
    const head = Buffer.alloc(this.at.postings - HEADER_BYTES);
    readAll(fd, head, HEADER_BYTES);
    const view = (offset: number, bytes: number) => {
      // A copy at offset 0 of its own buffer: typed arrays need aligned offsets.
      const start = offset - HEADER_BYTES;
      return new Uint8Array(head.subarray(start, start + bytes)).buffer;
    };
    this.ids = new Float64Array(view(this.at.ids, n * 8));
    this.tokens = new Uint32Array(view(this.at.tokens, n * 4));
    this.flags = new Uint8Array(view(this.at.flags, n));
    this.ends = new Uint32Array(view(this.at.ends, n * 4));
    this.cends = new Uint32Array(view(this.at.cends, n * 4));
    this.keys = new Uint32Array(view(this.at.keys, t * 4));
    this.pends = new Uint32Array(view(this.at.pends, t * 4));
  }

  static open(file: string): Segment {
    const fd = fs.openSync(file, 'r');
    try {
      return new Segment(file, fd);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /** The text number of `id`, or -1. */
  find(id: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** How many texts hold `key` (0 when none). */
  size(key: number): number {
    const k = this.slot(key);
    return k < 0 ? 0 : this.pends[k] - (k === 0 ? 0 : this.pends[k - 1]);
  }

  /** The ascending text numbers holding trigram `key`. */
  postings(key: number): Uint32Array {
    const k = this.slot(key);
    if (k < 0) return new Uint32Array(0);
    const start = k === 0 ? 0 : this.pends[k - 1];
    const bytes = Buffer.alloc(this.pends[k] - start);
    readAll(this.fd, bytes, this.at.postings + start);
    return readPostings(bytes);
  }

  private slot(key: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.keys[mid];
      if (v === key) return mid;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Calls `each` with the folded bytes of every text of `numbers` (ascending), in order. The
   * bytes are valid during the call only (one buffer is reused for every read): copy to keep.
   */
  texts(numbers: ArrayLike<number>, each: (n: number, text: Buffer) => void): void {
    let i = 0;
    while (i < numbers.length) {
      const from = this.start(numbers[i]);
      let j = i + 1;
      let to = this.ends[numbers[i]];
      while (j < numbers.length) {
        const next = numbers[j];
        if (this.start(next) - to > GAP || this.ends[next] - from > MAX_READ) break;
        to = this.ends[next];
        j++;
      }
      if (scratch.length < to - from) scratch = Buffer.allocUnsafe(Math.max(to - from, MAX_READ));
      const run = scratch.subarray(0, to - from);
      readAll(this.fd, run, this.at.texts + from);
      for (let k = i; k < j; k++) {
        const n = numbers[k];
        each(n, run.subarray(this.start(n) - from, this.ends[n] - from));
      }
      i = j;
    }
  }

  private start(n: number): number {
    return n === 0 ? 0 : this.ends[n - 1];
  }

  /** Text `n`'s case bytes (see cases.ts), from `section` when given (see caseSection). */
  cases(n: number, section: Buffer | null = null): Buffer {
    const from = n === 0 ? 0 : this.cends[n - 1];
    const to = this.cends[n];
    if (section !== null) return section.subarray(from, to);
    const out = Buffer.alloc(to - from);
    if (out.length > 0) readAll(this.fd, out, this.at.cases + from);
    return out;
  }

  /** Every text's case bytes (merges read them at once: a few percent of the texts). */
  caseSection(): Buffer {
    const out = Buffer.alloc(this.at.length - this.at.cases);
    if (out.length > 0) readAll(this.fd, out, this.at.cases);
    return out;
  }

  /** Text `n` as written (its folded bytes read again unless given). */
  original(n: number, folded: Uint8Array | null = null): string {
    if (folded !== null) return restore(folded, this.cases(n));
    const bytes = Buffer.allocUnsafe(this.ends[n] - this.start(n));
    if (bytes.length > 0) readAll(this.fd, bytes, this.at.texts + this.start(n));
    return restore(bytes, this.cases(n), true);
  }
}

function readAll(fd: number, into: Buffer, position: number): void {
  let done = 0;
  while (done < into.length) {
    const got = fs.readSync(fd, into, done, into.length - done, position + done);
    if (got === 0) throw new Error('a trigram segment ended early');
    done += got;
  }
}
