import { parseLine } from './records';
import { readViewRange } from './scanner';
import type { ViewSource } from './view';

/**
 * The session's createdAt without parsing the whole transcript: reads the view from its start
 * in small, growing slices and stops at the first record with a valid `created_at`. Listing ten
 * thousand sessions costs ten thousand small reads, not ten thousand transcripts.
 */

const FIRST_SLICE = 16 * 1024;
const MAX_SLICE = 1 << 20;

export async function firstCreatedAt(realDir: string, view: ViewSource): Promise<Date | null> {
  let offset = 0;
  let slice = FIRST_SLICE;
  let carry: Buffer = Buffer.alloc(0);
  let line = 0;
  while (offset < view.size) {
    const end = Math.min(view.size, offset + slice);
    const bytes = await readViewRange(realDir, view, offset, end);
    if (bytes.length === 0) break;
    offset += bytes.length;
    let buf = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    let nl: number;
    while ((nl = buf.indexOf(10)) !== -1) {
      const found = createdAtOf(buf.subarray(0, nl), view, ++line);
      if (found) return found;
      buf = buf.subarray(nl + 1);
    }
    carry = Buffer.from(buf);
    // A long first line: read bigger slices so a multi-megabyte line costs few reads.
    slice = Math.min(MAX_SLICE, slice * 2);
  }
  return carry.length ? createdAtOf(carry, view, line + 1) : null;
}

function createdAtOf(bytes: Buffer, view: ViewSource, line: number): Date | null {
  const verdict = parseLine(bytes, view.kind === 'compact', 0, line);
  return verdict.kind === 'record' ? verdict.record.createdAt : null;
}
