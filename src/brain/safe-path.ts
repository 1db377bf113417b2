import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  Stats,
} from 'node:fs';
import * as path from 'node:path';

/**
 * The one gate every file open of the store goes through (`openVerified`; the readers in
 * safe-read.ts build on it). A file is opened first and what was opened is then checked: the
 * kernel's own name for the descriptor must lie inside the session directory and it must be a
 * regular file. A check of the path before the open could be overtaken by a symlink swapped
 * into a folder on the way; the check of the descriptor cannot. Opens are read-only and
 * non-blocking, so a FIFO planted in a brain cannot hang a request.
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

export function errnoRefusal<T>(err: unknown, rel: string): Checked<T> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('ABSENT', `${rel} does not exist`);
  if (code === 'ELOOP') return refuse('UNSAFE_PATH', `${rel} is a symlink loop`);
  return refuse('UNREADABLE', `${rel} cannot be read (${code ?? 'error'})`);
}

/**
 * Locates `rel` inside `realDir` and stats it; only regular files pass. No bytes are read on
 * the strength of this answer alone: a read goes through `openVerified`, which checks again
 * what it opened. Synchronous: a handful of metadata calls cost a fraction of one async round
 * trip through the thread pool, which is what a page of 20 sessions is made of.
 */
export function statInside(realDir: string, rel: string): Checked<SafeStat> {
  // Fast path: when neither the session directory nor any component of `rel` is a symlink the
  // path cannot leave it. lstat of the few in-session components is far cheaper than
  // realpath(3), which walks every component from the file system root.
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return statResolved(realDir, rel);
  let current = realDir;
  try {
    const top = lstatSync(realDir, { throwIfNoEntry: false });
    if (top === undefined) return refuse('ABSENT', `${rel} does not exist`);
    if (!top.isDirectory()) return statResolved(realDir, rel);
    for (let i = 0; i < parts.length; i++) {
      current = `${current}/${parts[i]}`;
      const st = lstatSync(current, { throwIfNoEntry: false });
      if (st === undefined) return refuse('ABSENT', `${rel} does not exist`);
      if (st.isSymbolicLink()) return statResolved(realDir, rel);
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

/** The general case: a symlink on the way, resolved and checked. */
function statResolved(realDir: string, rel: string): Checked<SafeStat> {
  let realPath: string;
  let stats: Stats;
  try {
    realPath = realpathSync.native(path.join(realDir, rel));
    if (!isInside(realDir, realPath)) return outside(rel);
    stats = statSync(realPath);
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  if (!stats.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
  return { ok: true, value: { realPath, stats } };
}

function outside<T>(rel: string): Checked<T> {
  return refuse('UNSAFE_PATH', `${rel} resolves outside the session directory`);
}

/** A descriptor the gate opened and verified; the caller closes it. */
export interface VerifiedFd extends SafeStat {
  fd: number;
}

/** O_NOCTTY: a terminal swapped in is never made the process's controlling terminal. */
const OPEN_FLAGS =
  constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY;

/**
 * Opens `rel` inside `realDir`, then verifies the descriptor: its path as the kernel names it
 * now (`/proc/self/fd/N`) lies inside `realDir`, and fstat says it is a regular file. Whatever
 * was swapped in between the locating and the open (a folder or the session directory itself
 * turned into a symlink out) is caught here, since the check looks at the opened file and not
 * at a path. Anything else is closed and refused.
 */
export function openVerified(realDir: string, rel: string): Checked<VerifiedFd> {
  const located = statInside(realDir, rel);
  if (!located.ok) return located;
  let fd: number;
  try {
    fd = openSync(located.value.realPath, OPEN_FLAGS);
  } catch (err) {
    return errnoRefusal(err, rel);
  }
  const verified = verifyFd(realDir, rel, fd);
  if (!verified.ok) {
    closeSync(fd);
    return verified;
  }
  if (ioStats.recordOpens) ioStats.opens.push(rel);
  return verified;
}

function verifyFd(realDir: string, rel: string, fd: number): Checked<VerifiedFd> {
  let realPath: string;
  let stats: Stats;
  try {
    realPath = readlinkSync(`/proc/self/fd/${fd}`);
    stats = fstatSync(fd);
  } catch (err) {
    // Without /proc nothing can be verified: refuse rather than trust the path.
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return refuse('UNREADABLE', `${rel} cannot be verified (${code})`);
  }
  if (!isInside(realDir, realPath)) return outside(rel);
  if (!stats.isFile()) return refuse('NOT_REGULAR', `${rel} is not a regular file`);
  return { ok: true, value: { fd, realPath, stats } };
}
