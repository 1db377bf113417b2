import { readViewRange } from './scanner';
import type { ViewSource } from './view';

/** Bytes kept of the last complete line's head (scans in `head` mode see fewer). */
const KEPT_BYTES = 256;

/**
 * The head of the last complete line read, where it was read: a file that grew in place (same
 * inode, not smaller) is an append only while it still holds these bytes there. A file
 * rewritten in place (`cat > f`, an editor's save) looks like growth by its size and inode,
 * and is read afresh instead of being extended past bytes that are no longer there.
 */
export class LastLine {
  private readonly head = Buffer.alloc(KEPT_BYTES);
  private start = -1;
  private length = 0;

  /** A complete line at `start` whose first bytes are `buf[from, to)`; null: not kept. */
  saw(start: number, buf: Buffer | null, from: number, to: number): void {
    if (buf === null) {
      this.start = -1;
      return;
    }
    this.length = buf.copy(this.head, 0, from, Math.min(to, from + KEPT_BYTES));
    this.start = start;
  }

  /** Whether `view` still holds that line's head where it was (true when none is known). */
  async heldBy(realDir: string, view: ViewSource): Promise<boolean> {
    if (this.start < 0 || this.length === 0) return true;
    try {
      const now = await readViewRange(realDir, view, this.start, this.start + this.length);
      return now.equals(this.head.subarray(0, this.length));
    } catch {
      return false;
    }
  }
}
