/** Bytes read per step while looking back for a newline. */
const STEP = 64 * 1024;

/** Reads `length` bytes at `position` (fewer at the end of what there is). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/**
 * The offset of the last newline in bytes [start, end), or -1, read backwards `STEP` bytes at
 * a time: memory stays one step whatever the line's length.
 */
export async function lastNewline(read: ReadAt, end: number, start = 0): Promise<number> {
  for (let at = end; at > start;) {
    const from = Math.max(start, at - STEP);
    const nl = (await read(from, at - from)).lastIndexOf(0x0a);
    if (nl >= 0) return from + nl;
    at = from;
  }
  return -1;
}

/**
 * The offset just past the last newline among the first `size` bytes (0 when there is none):
 * a JSONL file's unfinished last line (still being written) starts there.
 */
export async function wholeLinesEnd(read: ReadAt, size: number): Promise<number> {
  return (await lastNewline(read, size)) + 1;
}
