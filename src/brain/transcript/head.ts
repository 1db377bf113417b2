import { lineShape, parseLine } from './records';
import { MAX_RECORD_BYTES, scanLines } from './scanner';
import type { ViewSource } from './view';

/**
 * The session's createdAt without parsing the whole transcript: reads the view from its start
 * in small, growing reads and stops at the first record with a valid `created_at`. Listing ten
 * thousand sessions costs ten thousand small reads, not ten thousand transcripts.
 */

const FIRST_SLICE = 16 * 1024;

export async function firstCreatedAt(
  realDir: string,
  view: ViewSource,
  /** A longer line is skipped unparsed (counted, never held: see MAX_RECORD_BYTES). */
  maxLineBytes: number = MAX_RECORD_BYTES,
): Promise<Date | null> {
  // One open per file and one reused buffer (reads of 16 KiB, doubling to 1 MiB): a first
  // line of 200 MB costs a linear read and at most maxLineBytes of memory.
  let found: Date | null = null;
  let line = 0;
  const result = await scanLines(
    realDir,
    view,
    0,
    'full',
    (_start, _end, buf, from, to) => {
      line++;
      if (buf !== null && lineShape(buf, from, to) === 'object') {
        found = createdAtOf(buf.subarray(from, to), view.kind, line);
      }
      return found !== null;
    },
    maxLineBytes,
    FIRST_SLICE,
  );
  if (found === null && result.tail) found = createdAtOf(result.tail, view.kind, line + 1);
  return found;
}

/**
 * The same answer from a slice already in memory (the start-up scan's synchronous head read):
 * the first valid created_at among its complete lines; null when the slice is the whole file
 * and has none; undefined when the answer may lie beyond the slice.
 */
export function firstCreatedAtIn(
  bytes: Buffer,
  kind: ViewSource['kind'],
  whole: boolean,
): Date | null | undefined {
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) {
      if (!whole) return undefined;
      end = bytes.length;
    }
    const found = createdAtOf(bytes.subarray(start, end), kind, ++line);
    if (found) return found;
    start = end + 1;
  }
  return whole ? null : undefined;
}

function createdAtOf(bytes: Buffer, kind: ViewSource['kind'], line: number): Date | null {
  // Only an object can be a record: other lines are skipped unparsed (a failed parse is slow).
  if (lineShape(bytes) !== 'object') return null;
  const verdict = parseLine(bytes, kind === 'compact', 0, line);
  return verdict.kind === 'record' ? verdict.record.createdAt : null;
}
