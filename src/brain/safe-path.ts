import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  promises as fsp,
  readSync,
  realpathSync,
  statSync,
  Stats,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The one gate every file open of the store goes through. A path is resolved (symlinks
 * followed) and must stay inside the session directory; only regular files are opened, always
 * read-only and non-blocking, so a FIFO planted in a brain cannot hang a request.
 */

export type Refusal =
  | 'BAD_NAME' // the caller's name is malformed (.., NUL, absolute, separators)
  | 'ABSENT' // nothing there
  | 'UNSAFE_PATH' // resolves outside the session directory
  | 'NOT_REGULAR' // a directory, FIFO, socket or device
  | 'UNREADABLE'; // exists but cannot be read (permissions, I/O error)

export interface SafeStat {
  /** Resolved path (inside the session directory). */
  realPath: string;
  stats: Stats;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; refusal: Refusal; message: string };

const MAX_NAME_BYTES = 1024;

/**
 * What the store read from disk. Tests use `opens` to prove laziness (a page of sessions
 * opens no full transcript); the metrics endpoint exports `bytesRead`.
 */
export const ioStats = {
  bytesRead: 0,
  opens: [] as string[],
  /** Off by default: only tests keep the list of opened paths. */
  recordOpens: false,
};
const MAX_SEGMENT_BYTES = 255;

/**
 * Validates a caller-supplied relative path before anything touches the disk.
 * `allowSubdirs` permits '/'-separated segments (file downloads); artifact names forbid them.
 * Returns a reason when the name is refused, else null.
 */
export function nameProblem(name: string, allowSubdirs: boolean): string | null {
  if (name.length === 0) return 'the name is empty';
  if (name.includes('\0')) return 'the name contains a NUL byte';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    return `the name is longer than ${MAX_NAME_BYTES} bytes`;
  if (name.includes('\\')) return 'the name contains a backslash';
  if (name.startsWith('/') || path.isAbsolute(name)) return 'the name is an absolute path';
  const segments = name.split('/');
  if (!allowSubdirs && segments.length > 1) return 'the name contains a path separator';
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      return 'the name has an empty, "." or ".." segment';
    }
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      return `a segment is longer than ${MAX_SEGMENT_BYTES} bytes`;
    }
  }
  return null;
}

/** True when `candidate` is `dir` itself or lies beneath it (both already resolved). */
export function isInside(dir: string, candidate: string): boolean {
  return candidate === dir || candidate.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

function refuse<T>(refusal: Refusal, message: string): Checked<T> {
  return { ok: false, refusal, message };
}

function errnoRefusal<T>(err: unknown, rel: string): Checked<T> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('ABSENT', `${rel} does not exist`);
  if (code === 'ELOOP') return refuse('UNSAFE_PATH', `${rel} is a symlink loop`);
  return refuse('UNREADABLE', `${rel} cannot be read (${code ?? 'error'})`);
}

/** Resolves `rel` inside `realDir` and stats it; only regular files pass. */
export async function statInside(realDir: string, rel: string): Promise<Checked<SafeStat>> {
  let realPath: string;
  try {
    realPath = await fsp.realpath(path.join(realDir, rel));
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  if (!isInside(realDir, realPath)) {
    return refuse('UNSAFE_PATH', `${rel} resolves outside the session directory`);
  }
  let stats: Stats;
  try {
    stats = await fsp.stat(realPath);
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  if (!stats.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
  return { ok: true, value: { realPath, stats } };
}

/**
 * statInside with synchronous calls. Locating a session's transcripts costs a handful of
 * metadata calls per session per request; synchronously each costs a fraction of an async
 * round trip through the thread pool, which is what a page of 20 sessions is made of.
 */
export function statInsideSync(realDir: string, rel: string): Checked<SafeStat> {
  // Fast path: `realDir` is already resolved, so when no component of `rel` is a symlink the
  // path cannot leave it. lstat of the few in-session components is far cheaper than
  // realpath(3), which walks every component from the file system root.
  const parts = rel.split('/');
  let current = realDir;
  try {
    for (let i = 0; i < parts.length; i++) {
      current = `${current}/${parts[i]}`;
      const st = lstatSync(current, { throwIfNoEntry: false });
      if (st === undefined) return refuse('ABSENT', `${rel} does not exist`);
      if (st.isSymbolicLink()) return statInsideSyncResolved(realDir, rel);
      if (i === parts.length - 1) {
        if (!st.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
        return { ok: true, value: { realPath: current, stats: st } };
      }
      if (!st.isDirectory()) return refuse('ABSENT', `${rel} does not exist`);
    }
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  return refuse('BAD_NAME', `${rel} is empty`);
}

/** The general case: a symlink on the way, resolved and checked like statInside. */
function statInsideSyncResolved(realDir: string, rel: string): Checked<SafeStat> {
  let realPath: string;
  let stats: Stats;
  try {
    realPath = realpathSync.native(path.join(realDir, rel));
    if (!isInside(realDir, realPath)) {
      return refuse('UNSAFE_PATH', `${rel} resolves outside the session directory`);
    }
    stats = statSync(realPath);
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  if (!stats.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
  return { ok: true, value: { realPath, stats } };
}

/**
 * Reads `length` bytes at `position` of `rel` with synchronous calls, after the same checks as
 * openInside (containment, regular file, O_NOFOLLOW, O_NONBLOCK). For small reads: one
 * transcript line on the request path, and the start-up scan's first records (run in slices
 * so the event loop still turns): six async round trips through the thread pool cost far more
 * than the read itself. `stats` is the opened file's, so a caller can tell a replaced one.
 */
export function readInsideSync(
  realDir: string,
  rel: string,
  position: number,
  length: number,
  /** Asked after the open: false skips the read (a cache already knows this version). */
  wanted: (stats: Stats) => boolean = () => true,
): Checked<{ bytes: Buffer | null; stats: Stats }> {
  const checked = statInsideSync(realDir, rel);
  if (!checked.ok) return checked;
  let fd: number;
  try {
    fd = openSync(
      checked.value.realPath,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
    );
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
    if (!wanted(stats)) return { ok: true, value: { bytes: null, stats } };
    // Never more than the file holds: a head read asks for a slice bigger than most files.
    const buf = Buffer.allocUnsafe(Math.max(0, Math.min(length, stats.size - position)));
    let filled = 0;
    while (filled < buf.length) {
      const n = readSync(fd, buf, filled, buf.length - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    ioStats.bytesRead += filled;
    if (ioStats.recordOpens) ioStats.opens.push(rel);
    return { ok: true, value: { bytes: buf.subarray(0, filled), stats } };
  } catch (err) {
    return errnoRefusal(err, rel);
  } finally {
    closeSync(fd);
  }
}

export interface SafeFile extends SafeStat {
  handle: FileHandle;
}

/**
 * Opens `rel` read-only after the containment check. O_NOFOLLOW on the resolved path means a
 * symlink swapped in after the check fails instead of being followed; O_NONBLOCK means a FIFO
 * swapped in does not block; fstat after open confirms it is still a regular file.
 */
export async function openInside(realDir: string, rel: string): Promise<Checked<SafeFile>> {
  const checked = await statInside(realDir, rel);
  if (!checked.ok) return checked;
  const { realPath } = checked.value;
  let handle: FileHandle;
  try {
    handle = await fsp.open(
      realPath,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
    );
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return refuse('NOT_REGULAR', `${rel} is not a regular file`);
    }
    if (ioStats.recordOpens) ioStats.opens.push(rel);
    return { ok: true, value: { realPath, stats, handle } };
  } catch (err) {
    await handle.close().catch(() => undefined);
    return errnoRefusal(err, rel);
  }
}

/** Reads `length` bytes at `position` into a fresh buffer (short at end of file). */
export async function readRange(
  handle: FileHandle,
  position: number,
  length: number,
): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buf, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  ioStats.bytesRead += filled;
  return filled === length ? buf : buf.subarray(0, filled);
}
