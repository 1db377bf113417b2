import type { Redactor } from './redactor';

/**
 * Bytes read on each side of a requested range so that secrets reaching into it are seen
 * whole. Limit: a secret (with the context that identifies it, such as `password=`) that
 * starts more than this before the range or ends more than this after it may be missed or
 * only partly masked. Private key blocks are recognised up to MAX_PRIVATE_KEY_BLOCK (the
 * same 16 KiB), so any block that overlaps the range fits in the window.
 */
export const RANGE_MARGIN = 16 * 1024;

/** Reads bytes [start, end) of the file (short at end of file). */
export type ReadBytes = (start: number, end: number) => Promise<Buffer>;

/**
 * The redacted text of bytes [offset, offset + length) of a file of `fileSize` bytes.
 * Offsets are raw byte coordinates of the file, as for an unredacted read.
 *
 * The slice is decoded on its own, exactly like `buf.subarray(a, b).toString('utf8')`
 * (characters cut by its edges become U+FFFD), so with redaction off or no secret in reach
 * the result is identical to the unredacted read. Secrets are looked for in a window
 * RANGE_MARGIN bytes wider on each side (its margins decoded separately, then joined) and
 * every one overlapping the slice is masked; the part of a secret cut by an edge becomes
 * `[REDACTED:<kind>]`. Adjacent ranges therefore each show their own marker for a secret
 * that spans them.
 */
export async function redactRange(
  redactor: Redactor,
  read: ReadBytes,
  fileSize: number,
  offset: number,
  length: number,
  margin = RANGE_MARGIN,
): Promise<string> {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('offset must be >= 0');
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('length must be >= 0');
  const start = Math.min(offset, fileSize);
  const end = Math.min(fileSize, offset + length);
  if (end <= start) return '';
  if (!redactor.enabled) return (await read(start, end)).toString('utf8');
  const winStart = Math.max(0, start - margin);
  const win = await read(winStart, Math.min(fileSize, end + margin));
  const a = Math.min(start - winStart, win.length);
  const b = Math.min(end - winStart, win.length);
  const before = win.subarray(0, a).toString('utf8');
  const slice = win.subarray(a, b).toString('utf8');
  const after = win.subarray(b).toString('utf8');
  return redactor.redactSlice(before + slice + after, before.length, before.length + slice.length);
}
