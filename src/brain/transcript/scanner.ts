import { ioStats, openInside, readRange } from '../safe-path';
import type { ViewSource } from './view';

/**
 * Walks a view's bytes from a virtual offset in fixed blocks and reports every complete line
 * (terminated by '\n'). `indexOf` over a reused 1 MiB buffer keeps this linear however long a
 * line is: a 30 MB line costs 30 block reads, never a giant string or a quadratic re-scan.
 */

const BLOCK = 1 << 20;
/** Bytes of a line's start handed to `head` mode consumers (enough to sniff `step_index`). */
export const HEAD_BYTES = 48;

export type LineMode = 'head' | 'full';

/**
 * `bytes` is the line without its newline: whole in `full` mode, at most HEAD_BYTES in `head`
 * mode. It may alias a reused buffer: consume it before returning.
 */
export type LineSink = (start: number, end: number, bytes: Buffer) => void;

export interface ScanResult {
  /** Offset just past the last '\n' seen: where a later scan of a grown file resumes. */
  committedEnd: number;
  /** Bytes after the last newline (a line still being written), in `full` mode only. */
  tail: Buffer | null;
  /** Bytes actually present (a file replaced by a shorter one ends the scan early). */
  scannedEnd: number;
}

export class UnreadableViewError extends Error {
  constructor(
    readonly relPath: string,
    message: string,
  ) {
    super(message);
  }
}

export async function scanLines(
  realDir: string,
  view: ViewSource,
  from: number,
  mode: LineMode,
  sink: LineSink,
): Promise<ScanResult> {
  const buf = Buffer.allocUnsafe(BLOCK);
  let lineStart = from;
  let parts: Buffer[] = [];
  let partsLen = 0;
  let base = 0;
  let scannedEnd = from;

  const collect = (piece: Buffer): void => {
    if (mode === 'head') {
      if (partsLen >= HEAD_BYTES) return;
      piece = piece.subarray(0, HEAD_BYTES - partsLen);
    }
    if (piece.length === 0) return;
    parts.push(Buffer.from(piece)); // copy: `buf` is reused for the next block
    partsLen += piece.length;
  };

  for (const segment of view.segments) {
    const size = segment.version.size;
    const segBase = base;
    base += size;
    if (base <= from) continue;
    const opened = await openInside(realDir, segment.relPath);
    if (!opened.ok) throw new UnreadableViewError(segment.relPath, opened.message);
    const handle = opened.value.handle;
    try {
      let pos = Math.max(0, from - segBase);
      while (pos < size) {
        const { bytesRead } = await handle.read(buf, 0, Math.min(BLOCK, size - pos), pos);
        if (bytesRead === 0) break;
        ioStats.bytesRead += bytesRead;
        const block = buf.subarray(0, bytesRead);
        const blockBase = segBase + pos;
        let i = 0;
        for (;;) {
          const nl = block.indexOf(10, i);
          if (nl === -1) {
            collect(block.subarray(i));
            break;
          }
          let bytes: Buffer;
          if (partsLen === 0) {
            bytes =
              mode === 'head'
                ? block.subarray(i, Math.min(nl, i + HEAD_BYTES))
                : block.subarray(i, nl);
          } else {
            collect(block.subarray(i, nl));
            bytes = Buffer.concat(parts, partsLen);
            parts = [];
            partsLen = 0;
          }
          sink(lineStart, blockBase + nl, bytes);
          lineStart = blockBase + nl + 1;
          i = nl + 1;
        }
        pos += bytesRead;
        scannedEnd = segBase + pos;
      }
    } finally {
      await handle.close();
    }
  }
  const tail = mode === 'full' && partsLen > 0 ? Buffer.concat(parts, partsLen) : null;
  return { committedEnd: lineStart, tail, scannedEnd };
}

/** Reads bytes [start, end) of a view, crossing chunk boundaries as needed. */
export async function readViewRange(
  realDir: string,
  view: ViewSource,
  start: number,
  end: number,
): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let base = 0;
  for (const segment of view.segments) {
    const size = segment.version.size;
    const segBase = base;
    base += size;
    if (base <= start || segBase >= end) continue;
    const opened = await openInside(realDir, segment.relPath);
    if (!opened.ok) throw new UnreadableViewError(segment.relPath, opened.message);
    try {
      const from = Math.max(start, segBase) - segBase;
      const to = Math.min(end, base) - segBase;
      pieces.push(await readRange(opened.value.handle, from, to - from));
    } finally {
      await opened.value.handle.close();
    }
  }
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
}
