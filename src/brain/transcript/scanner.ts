import { LARGE_VALUE_BYTES } from '../../ops/in-flight-bytes';
import { ioStats } from '../safe-path';
import { openInsideForRead, readInsideSync, readRange, type ReadHandle } from '../safe-read';
import type { FullTier } from '../store';
import { viewKey, type Segment, type ViewSource } from './view';

/**
 * Walks a view's bytes from a virtual offset in fixed blocks and reports every complete line
 * (terminated by '\n'). `indexOf` over a reused 1 MiB buffer keeps this linear however long a
 * line is: a 30 MB line costs 30 block reads, never a giant string or a quadratic re-scan.
 */

const BLOCK = 1 << 20;
/** Bytes of a line's start handed to `head` mode consumers (enough to sniff `step_index`). */
export const HEAD_BYTES = 48;

/**
 * The longest line the store ever holds in memory (64 MiB; `StoreOptions.maxRecordBytes`
 * changes it). A longer line is counted and skipped: `full` scans report it as
 * LINE_TOO_LONG, and reading it whole (a full twin) fails with RecordTooLargeError. While
 * scanning, at most this many bytes of one line are buffered (plus the 1 MiB block), whatever
 * the line's length; a line under the cap is then decoded and parsed. Measured bounds (RSS
 * growth <= cap + 80 MiB for any over-long line, <= 5 x line + 16 MiB for a line under the
 * cap) are in test/security/hostile-memory.spec.ts.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export type LineMode = 'head' | 'full';

/**
 * `buf[from, to)` is the line without its newline: whole in `full` mode, at most HEAD_BYTES in
 * `head` mode (no Buffer is made per line: millions of short lines would spend most of the
 * scan making them). `buf` may be a reused buffer: consume the line before returning. In
 * `full` mode `buf` is null for a line longer than the scan's `maxLineBytes` (its length is
 * `end - start`). Returning true stops the scan after this line (no further bytes are read).
 */
export type LineSink = (
  start: number,
  end: number,
  buf: Buffer | null,
  from: number,
  to: number,
) => boolean | void;

/**
 * Room for a long line among the large values in flight (LARGE_VALUES_MB), asked while the
 * line is collected, from LARGE_VALUE_BYTES on: its bytes, their string and what parsing
 * makes of them are the copies the budget bounds. `admit` adds `bytes` to the line's share
 * (it grows with the line); `done` gives the share back once the sink has consumed the line
 * (or it was dropped as too long, or the scan ended).
 */
export interface LargeLines {
  admit(bytes: number): Promise<void>;
  done(): void;
}

export interface ScanResult {
  /** Offset just past the last '\n' seen: where a later scan of a grown file resumes. */
  committedEnd: number;
  /**
   * Bytes after the last newline (a line still being written), in `full` mode only; null
   * also when that unfinished line is longer than `maxLineBytes` (see `tailBytes`).
   */
  tail: Buffer | null;
  /** Length of the unfinished last line (scannedEnd - committedEnd), collected or not. */
  tailBytes: number;
  /** Bytes actually present (a file that shrank while being read ends the scan early). */
  scannedEnd: number;
  /** The signal stopped the scan between two blocks: `committedEnd` is where to resume. */
  aborted: boolean;
}

export class UnreadableViewError extends Error {
  constructor(
    readonly relPath: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A line that would have to be read whole (a full twin) is longer than the per-line cap: it is
 * not read. The GraphQL layer turns this into a QUERY_TOO_COMPLEX field error.
 */
export class RecordTooLargeError extends Error {
  override readonly name = 'RecordTooLargeError';
  constructor(
    /** The view's label (file or chunks folder). */
    readonly relPath: string,
    /** 1-based line number within the view. */
    readonly line: number,
    readonly bytes: number,
    readonly limit: number,
    /** A complete line's first byte in its view (so its bytes can be read in windows). */
    readonly start?: number,
  ) {
    super(
      `line ${line} of ${relPath} is ${bytes} bytes long, over the limit of ${limit} bytes: not read`,
    );
  }
}

/**
 * Opens one segment of a view and checks it is still the file the view was located with: a
 * transcript replaced (renamed over) between the stat and the open would otherwise be read
 * as if it were the old one, mixing two files' bytes in one answer.
 */
async function openSegment(realDir: string, segment: Segment): Promise<ReadHandle> {
  const opened = openInsideForRead(realDir, segment.relPath);
  if (!opened.ok) throw new UnreadableViewError(segment.relPath, opened.message);
  const { stats, handle } = opened.value;
  if (stats.ino !== segment.version.ino || stats.dev !== segment.version.dev) {
    await handle.close();
    throw new UnreadableViewError(
      segment.relPath,
      `${segment.relPath} was replaced while being read; it is read afresh on the next request`,
    );
  }
  return handle;
}

/** An I/O error in the middle of a read (EIO, a file turned unreadable) is the file's problem. */
function readFailure(relPath: string, err: unknown): UnreadableViewError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new UnreadableViewError(relPath, `${relPath} cannot be read (${code})`);
}

export async function scanLines(
  realDir: string,
  view: ViewSource,
  from: number,
  mode: LineMode,
  sink: LineSink,
  /** `full` mode: a longer line is not collected; the sink gets null for it. */
  maxLineBytes: number = MAX_RECORD_BYTES,
  /** Size of the first read; each next one doubles, up to 1 MiB (small reads for a head). */
  firstBlock: number = BLOCK,
  /** Checked before each block: once aborted, the scan stops at the last complete line. */
  signal?: AbortSignal,
  /** `full` mode: asked before a line is collected past LARGE_VALUE_BYTES. */
  large?: LargeLines,
): Promise<ScanResult> {
  let block = Math.max(1, Math.min(BLOCK, firstBlock));
  // Sized to the first read and grown with the reads, never past what the view holds after
  // `from`: a 1 MiB buffer per scan cost a 25 KB transcript forty times its bytes, and a first
  // index build over 2,000 of them (scanned by the catalog's head, the indexer, the full view's
  // line index) over 4 GB of allocations and the collections they caused.
  let buf = Buffer.allocUnsafe(Math.max(1, Math.min(block, view.size - from)));
  let stopped = false;
  let lineStart = from;
  let parts: Buffer[] = [];
  let partsLen = 0;
  // `full` mode: the current line outgrew maxLineBytes; its bytes are dropped as they come,
  // so memory stays at maxLineBytes + BLOCK however long the line is.
  let overCap = false;
  let base = 0;
  let scannedEnd = from;
  let aborted = false;
  // Bytes of the current line admitted as large so far (`large.done` is owed when > 0): asked
  // as the line grows, twice what is collected at a time, so a line straddling two blocks
  // costs nothing and a 32 MB one a handful of admissions.
  let charged = 0;
  const admitLine = async (more: number): Promise<void> => {
    const total = partsLen + more;
    if (!large || mode !== 'full' || overCap || total < LARGE_VALUE_BYTES || total <= charged) {
      return;
    }
    const next = Math.max(total, Math.min(maxLineBytes, view.size - lineStart, 2 * total));
    const added = next - charged;
    charged = next;
    await large.admit(added);
  };
  const lineDone = (): void => {
    if (charged === 0) return;
    charged = 0;
    large!.done();
  };

  const collect = (piece: Buffer): void => {
    if (mode === 'head') {
      if (partsLen >= HEAD_BYTES) return;
      piece = piece.subarray(0, HEAD_BYTES - partsLen);
    } else if (overCap) {
      return;
    } else if (partsLen + piece.length > maxLineBytes) {
      overCap = true;
      parts = [];
      partsLen = 0;
      return;
    }
    if (piece.length === 0) return;
    parts.push(Buffer.from(piece)); // copy: `buf` is reused for the next block
    partsLen += piece.length;
  };

  try {
    for (const segment of view.segments) {
      if (stopped) break;
      const size = segment.version.size;
      const segBase = base;
      base += size;
      if (base <= from) continue;
      const handle = await openSegment(realDir, segment);
      try {
        let pos = Math.max(0, from - segBase);
        while (pos < size && !stopped) {
          if (signal?.aborted) {
            stopped = aborted = true;
            break;
          }
          const want = Math.min(block, size - pos);
          if (want > buf.length) buf = Buffer.allocUnsafe(want);
          let bytesRead: number;
          try {
            ({ bytesRead } = await handle.read(buf, 0, want, pos));
          } catch (err) {
            throw readFailure(segment.relPath, err);
          }
          if (bytesRead === 0) break;
          block = Math.min(BLOCK, block * 2);
          ioStats.bytesRead += bytesRead;
          const data = buf.subarray(0, bytesRead);
          const blockBase = segBase + pos;
          let i = 0;
          for (;;) {
            const nl = data.indexOf(10, i);
            if (nl === -1) {
              await admitLine(data.length - i);
              collect(data.subarray(i));
              if (overCap) lineDone(); // dropped: nothing of it is held
              break;
            }
            let line: Buffer | null = data;
            let from = i;
            let to = mode === 'head' ? Math.min(nl, i + HEAD_BYTES) : nl;
            if (mode === 'full' && blockBase + nl - lineStart > maxLineBytes) {
              line = null; // too long: counted, never held
              parts = [];
              partsLen = 0;
              overCap = false;
            } else if (partsLen > 0) {
              await admitLine(nl - i);
              collect(data.subarray(i, nl));
              line = Buffer.concat(parts, partsLen);
              [from, to] = [0, partsLen];
              parts = [];
              partsLen = 0;
            }
            try {
              stopped = sink(lineStart, blockBase + nl, line, from, to) === true;
            } finally {
              lineDone();
            }
            lineStart = blockBase + nl + 1;
            i = nl + 1;
            if (stopped) break;
          }
          pos += bytesRead;
          scannedEnd = segBase + pos;
        }
      } finally {
        await handle.close();
      }
    }
  } finally {
    lineDone(); // a line cut short by an error or an abort, or the unfinished last one
  }
  if (stopped) return { committedEnd: lineStart, tail: null, tailBytes: 0, scannedEnd, aborted };
  const tail = mode === 'full' && partsLen > 0 ? Buffer.concat(parts, partsLen) : null;
  return {
    committedEnd: lineStart,
    tail,
    tailBytes: scannedEnd - lineStart,
    scannedEnd,
    aborted: false,
  };
}

/** Reads bytes [start, end) of a view, crossing chunk boundaries as needed. */
/** Reads up to this size (one ordinary record) are done synchronously: see readInsideSync. */
const SYNC_READ_MAX = 256 * 1024;

function readSegmentSync(realDir: string, segment: Segment, from: number, to: number): Buffer {
  const read = readInsideSync(realDir, segment.relPath, from, to - from);
  if (!read.ok) throw new UnreadableViewError(segment.relPath, read.message);
  const { stats } = read.value;
  const bytes = read.value.bytes ?? Buffer.alloc(0); // null only when a `wanted` says so
  if (stats.ino !== segment.version.ino || stats.dev !== segment.version.dev) {
    throw new UnreadableViewError(
      segment.relPath,
      `${segment.relPath} was replaced while being read; it is read afresh on the next request`,
    );
  }
  return bytes;
}

export async function readViewRange(
  realDir: string,
  view: ViewSource,
  start: number,
  end: number,
): Promise<Buffer> {
  const pieces: Buffer[] = [];
  if (end - start <= SYNC_READ_MAX) {
    let base = 0;
    for (const segment of view.segments) {
      const segBase = base;
      base += segment.version.size;
      if (base <= start || segBase >= end) continue;
      const from = Math.max(start, segBase) - segBase;
      pieces.push(readSegmentSync(realDir, segment, from, Math.min(end, base) - segBase));
    }
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
  }
  let base = 0;
  for (const segment of view.segments) {
    const size = segment.version.size;
    const segBase = base;
    base += size;
    if (base <= start || segBase >= end) continue;
    const handle = await openSegment(realDir, segment);
    try {
      const from = Math.max(start, segBase) - segBase;
      const to = Math.min(end, base) - segBase;
      pieces.push(await readRange(handle, from, to - from));
    } catch (err) {
      throw readFailure(segment.relPath, err);
    } finally {
      await handle.close();
    }
  }
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
}

/**
 * `view` of the session folder `dir` as one byte stream: keyed by the view, named by its first
 * file's identity (another file under the same name is learned afresh).
 */
export function viewTier(dir: string, view: ViewSource): FullTier {
  const first = view.segments[0]?.version;
  return {
    key: viewKey(dir, view),
    identity: first ? `${first.dev}:${first.ino}` : '',
    size: view.size,
    read: (start, end) => readViewRange(dir, view, start, end),
  };
}
