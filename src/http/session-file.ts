import type { Readable } from 'node:stream';
import { openInside, readRange } from '../brain/safe-read';

/** A file opened inside a session directory, for one download. */
export interface SessionFile {
  readonly size: number;
  /** Device and inode: which file this is whatever name it was opened by. */
  readonly identity: { dev: number; ino: number };
  /**
   * Its unfinished last line goes on in the next chunk of its transcript view (see
   * ./chunk-file): that line is complete, not being written.
   */
  readonly continues?: boolean;
  /** `length` bytes at `position` (short at the end of the file). */
  read(position: number, length: number): Promise<Buffer>;
  /** Bytes start..end (inclusive); the stream owns the file from then on and closes it. */
  stream(start: number, end: number): Readable;
  close(): Promise<void>;
}

/**
 * Opens `rel` through the store's containment gate (the one use of it in the HTTP layer);
 * null for anything absent, outside the session, or not a regular file.
 */
export async function openSessionFile(realDir: string, rel: string): Promise<SessionFile | null> {
  const opened = await openInside(realDir, rel);
  if (!opened.ok) return null;
  const { handle, stats } = opened.value;
  return {
    size: stats.size,
    identity: { dev: stats.dev, ino: stats.ino },
    read: (position, length) => readRange(handle, position, length),
    stream: (start, end) => handle.createReadStream({ start, end, autoClose: true }),
    close: () => handle.close(),
  };
}
