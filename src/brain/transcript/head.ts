import { parseLine } from './records';
import { MAX_RECORD_BYTES, readViewRange } from './scanner';
import type { ViewSource } from './view';

/**
 * The session's createdAt without parsing the whole transcript: reads the view from its start
 * in small, growing slices and stops at the first record with a valid `created_at`. Listing ten
 * thousand sessions costs ten thousand small reads, not ten thousand transcripts.
 */

const FIRST_SLICE = 16 * 1024;
const MAX_SLICE = 1 << 20;

export async function firstCreatedAt(
  realDir: string,
  view: ViewSource,
  /** A longer line is skipped unparsed (the pieces of it are dropped as they come). */
  maxLineBytes: number = MAX_RECORD_BYTES,
): Promise<Date | null> {
  let offset = 0;
  let slice = FIRST_SLICE;
  // The pieces of the line being read, joined once when its newline arrives: a line spread
  // over many slices costs linear copying, not a re-concatenation per slice.
  let parts: Buffer[] = [];
  let partsLen = 0;
  let overCap = false;
  let line = 0;
  const collect = (piece: Buffer): void => {
    if (overCap || piece.length === 0) return;
    if (partsLen + piece.length > maxLineBytes) {
      overCap = true;
      parts = [];
      partsLen = 0;
      return;
    }
    parts.push(piece); // `bytes` is a fresh buffer per read: no copy needed
    partsLen += piece.length;
  };
  const finishLine = (): Date | null => {
    line++;
    const found = overCap ? null : createdAtOf(Buffer.concat(parts, partsLen), view, line);
    parts = [];
    partsLen = 0;
    overCap = false;
    return found;
  };
  while (offset < view.size) {
    const end = Math.min(view.size, offset + slice);
    const bytes = await readViewRange(realDir, view, offset, end);
    if (bytes.length === 0) break;
    offset += bytes.length;
    let i = 0;
    let nl: number;
    while ((nl = bytes.indexOf(10, i)) !== -1) {
      collect(bytes.subarray(i, nl));
      const found = finishLine();
      if (found) return found;
      i = nl + 1;
    }
    collect(bytes.subarray(i));
    // A long first line: read bigger slices so a multi-megabyte line costs few reads.
    slice = Math.min(MAX_SLICE, slice * 2);
  }
  return partsLen > 0 ? finishLine() : null;
}

function createdAtOf(bytes: Buffer, view: ViewSource, line: number): Date | null {
  const verdict = parseLine(bytes, view.kind === 'compact', 0, line);
  return verdict.kind === 'record' ? verdict.record.createdAt : null;
}
