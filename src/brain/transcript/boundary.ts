import { createHash } from 'node:crypto';
import { readViewRange } from './scanner';
import type { ViewSource } from './view';

/** Bytes of a view just before a point that say whether it still holds what was read there. */
export const BOUNDARY_BYTES = 256;

/**
 * A hash of the view's bytes [end - 256, end); null when there are none, 'unreadable' when
 * they cannot be read. Same inode and not smaller is also what a file rewritten in place looks
 * like (`cat > f`), so growth is trusted only while these bytes are unchanged.
 */
export async function boundaryOf(
  realDir: string,
  view: ViewSource,
  end: number,
): Promise<string | null> {
  if (end === 0) return null;
  try {
    const bytes = await readViewRange(realDir, view, Math.max(0, end - BOUNDARY_BYTES), end);
    return createHash('sha256').update(bytes).digest('base64url');
  } catch {
    return 'unreadable';
  }
}
