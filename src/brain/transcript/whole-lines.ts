/** Bytes read per step while looking back for the last newline. */
const STEP = 64 * 1024;

/**
 * The offset just past the last newline among the first `size` bytes (0 when there is none),
 * read backwards `STEP` bytes at a time through `read(position, length)`: a JSONL file's
 * unfinished last line (still being written) starts there. Memory stays one step whatever the
 * line's length.
 */
export async function wholeLinesEnd(
  read: (position: number, length: number) => Promise<Buffer>,
  size: number,
): Promise<number> {
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - STEP);
    const bytes = await read(start, end - start);
    const nl = bytes.lastIndexOf(0x0a);
    if (nl >= 0) return start + nl + 1;
    end = start;
  }
  return 0;
}
