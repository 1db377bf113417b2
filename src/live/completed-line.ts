import { readViewRange } from '../brain/transcript/scanner';
import type { ViewSource } from '../brain/transcript/view';

/** Grown bytes past this are not read to look for a newline: they are taken as new lines. */
const LOOK_AT_MOST = 1024 * 1024;

/**
 * Whether a compact view that grew from `before` to `now` completed a line. A write of part of
 * a line (no newline yet) adds no step, so sessionEvents sends no UPDATED for it; the write
 * that ends the line does. A view replaced or shrunk, or grown by more than LOOK_AT_MOST, or
 * unreadable, counts as completed (an UPDATED too many, never one missed).
 */
export async function completedLine(
  realDir: string,
  before: ViewSource,
  now: ViewSource,
): Promise<boolean> {
  const grown = now.size - before.size;
  if (grown <= 0 || grown > LOOK_AT_MOST) return true;
  try {
    return (await readViewRange(realDir, now, before.size, now.size)).includes(0x0a);
  } catch {
    return true;
  }
}
