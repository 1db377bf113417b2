import {
  closeSync,
  constants,
  fstatSync,
  promises as fsp,
  read,
  readSync,
  type Stats,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errnoRefusal, ioStats, openVerified, type Checked, type SafeStat } from './safe-path';

/**
 * The store's two ways to read a file, both through the one gate (`openVerified`): a small
 * synchronous read, and a FileHandle for the asynchronous readers (scans, downloads).
 */

/**
 * Reads `length` bytes at `position` of `rel` with synchronous calls. For small reads: one
 * transcript line on the request path, and the start-up scan's first records (run in slices
 * so the event loop still turns): async round trips through the thread pool cost far more
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
  const opened = openVerified(realDir, rel);
  if (!opened.ok) return opened;
  const { fd, stats } = opened.value;
  try {
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

let syncReads = false;

/**
 * Makes this thread's store readers synchronous: `openInside`'s handles read with readSync and
 * close with closeSync, and the session-file walk lists folders with readdirSync. For a thread
 * that answers no request (the index's session workers, `session-work.ts`), where an async
 * call's round trip through the libuv thread pool (about 40 per new session: a walk's folders,
 * every open, read and close) costs more than the call and blocks nothing worth unblocking.
 * The gate is the same (`openVerified`: read-only, verified descriptors). Never on a thread
 * that answers: a large read there would hold its event loop.
 */
export function useSyncReads(on: boolean): void {
  syncReads = on;
}

/**
 * Runs `fn` with this thread's reads synchronous as with useSyncReads, for what `fn` opens
 * before it returns (its synchronous part: a scan's first open, readFileRange's open). A
 * handle opened so reads synchronously until closed, so an async reader's awaits on it are
 * settled promises: nothing else runs on the thread until it is done. For the indexer on the
 * answering thread while no request arrives (slice.ts `quiet`), and small files only.
 */
export function withSyncReads<T>(fn: () => T): T {
  if (syncReads) return fn();
  syncReads = true;
  try {
    return fn();
  } finally {
    syncReads = false;
  }
}

/** True on a thread that called useSyncReads(true). */
export function syncReadsOn(): boolean {
  return syncReads;
}

/** `fn`'s result, or what it threw, as a settled promise (a sync call behind an async API). */
function settled<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * A verified descriptor as the subset of FileHandle the store's readers use (read, stat, close),
 * with synchronous calls: the promises they return are settled already. Only for threads with
 * useSyncReads on, which serve no download (no createReadStream here).
 */
function syncHandle(fd: number): FileHandle {
  let closed = false;
  const handle = {
    fd,
    read: (buffer: Buffer, offset: number, length: number, position: number) =>
      settled(() => ({ bytesRead: readSync(fd, buffer, offset, length, position), buffer })),
    stat: () => settled(() => fstatSync(fd)),
    close: () =>
      settled(() => {
        if (closed) return;
        closed = true;
        closeSync(fd);
      }),
  };
  return handle as unknown as FileHandle;
}

/**
 * Opens `rel` through the gate and hands the verified file over as a FileHandle. Node cannot
 * wrap a raw descriptor in one, so the descriptor is reopened through `/proc/self/fd/N`: that
 * names the very file the gate verified, whatever its path has become since.
 */
export async function openInside(realDir: string, rel: string): Promise<Checked<SafeFile>> {
  const opened = openVerified(realDir, rel);
  if (!opened.ok) return opened;
  const { fd, realPath, stats } = opened.value;
  // The verified descriptor itself: no second open through /proc.
  if (syncReads) return { ok: true, value: { realPath, stats, handle: syncHandle(fd) } };
  try {
    const handle = await fsp.open(
      `/proc/self/fd/${fd}`,
      constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
    return { ok: true, value: { realPath, stats, handle } };
  } catch (err) {
    return errnoRefusal(err, rel);
  } finally {
    closeSync(fd);
  }
}

/** What the store's readers need of an open file: positional reads and a close. */
export interface ReadHandle {
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** One `read(2)` of `fd` through the thread pool (the callback API takes a raw descriptor). */
function readFd(fd: number, buffer: Buffer, offset: number, length: number, position: number) {
  return new Promise<{ bytesRead: number }>((resolve, reject) => {
    read(fd, buffer, offset, length, position, (err, bytesRead) =>
      err ? reject(err) : resolve({ bytesRead }),
    );
  });
}

/**
 * Opens `rel` through the gate, like openInside, for a reader that only reads and closes (the
 * scans, readFileRange): the verified descriptor itself, read with one call through the thread
 * pool per read and closed with closeSync (as the gate's own open is synchronous). openInside's
 * FileHandle cost two more round trips through the pool per file (the reopen through /proc and
 * the close), each a turn of the event loop: on a first index build of 2,000 small sessions,
 * most of the read stage. With useSyncReads on, the reads are synchronous (see syncHandle).
 */
export function openInsideForRead(
  realDir: string,
  rel: string,
): Checked<SafeStat & { handle: ReadHandle }> {
  const opened = openVerified(realDir, rel);
  if (!opened.ok) return opened;
  const { fd, realPath, stats } = opened.value;
  if (syncReads) return { ok: true, value: { realPath, stats, handle: syncHandle(fd) } };
  if (fileHandles) return { ok: true, value: { realPath, stats, handle: reopened(fd) } };
  let closed = false;
  const handle: ReadHandle = {
    // Never after the close: the descriptor's number may name another file by then.
    read: (buffer, offset, length, position) =>
      closed
        ? Promise.reject(new Error('the file is closed'))
        : readFd(fd, buffer, offset, length, position),
    close: () =>
      settled(() => {
        if (closed) return;
        closed = true;
        closeSync(fd);
      }),
  };
  return { ok: true, value: { realPath, stats, handle } };
}

let fileHandles = false;

/**
 * Runs `fn` with what it opens through openInsideForRead (in its synchronous part) read as
 * openInside's FileHandle is: reopened through /proc, read and closed through the thread pool,
 * three round trips a file. For the indexer on the answering thread while requests arrive
 * (slice.ts `quiet`): its waits on the pool are the turns those requests get, and with one
 * round trip a file the page of figure 9p waited longer (FTS5, load 6-8: 2.34x, main
 * 1.15 / 1.53x).
 */
export function withFileHandles<T>(fn: () => T): T {
  if (fileHandles || syncReads) return fn();
  fileHandles = true;
  try {
    return fn();
  } finally {
    fileHandles = false;
  }
}

/** The verified descriptor as openInside hands it over (a FileHandle), opened on first use. */
function reopened(fd: number): ReadHandle {
  const file = fsp
    .open(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
    .finally(() => closeSync(fd));
  // Settled either way: a read or close reports what the reopen hit.
  file.catch(() => undefined);
  return {
    read: async (buffer, offset, length, position) =>
      (await file).read(buffer, offset, length, position),
    close: async () => (await file).close(),
  };
}

/** Reads `length` bytes at `position` into a fresh buffer (short at end of file). */
export async function readRange(
  handle: ReadHandle,
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
