import {
  closeSync,
  constants,
  fsync,
  lstatSync,
  mkdirSync,
  openSync,
  promises as fsp,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import * as path from 'node:path';

/**
 * The file system rules of the ingest side: below INGEST_DIR nothing is ever a symlink, and
 * nothing is followed. Folders are made one segment at a time and each is checked with lstat;
 * files are opened with O_NOFOLLOW. Only this process writes there, so a checked folder stays
 * a folder.
 *
 * lstat and mkdir are synchronous here: each is a lookup or a change of a folder entry in
 * memory (no data, no fsync), a few microseconds, while the asynchronous call cost the main
 * thread tens of microseconds (a thread pool round trip, and an Error with its stack for every
 * absent path, the usual answer in a first push). A bulk push makes about five per file.
 * Reads, writes, fsyncs and renames stay asynchronous.
 */

export const DIR_MODE = 0o750;
export const FILE_MODE = 0o640;
export const NOFOLLOW = constants.O_NOFOLLOW;

/** A client-caused conflict with what is on disk (a file where a folder must be, ...). */
export class PathConflict extends Error {}

/** fsync a folder, so a rename or a new entry in it survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** `base/…segments`, and each folder above it under `base`: the path's folders, from the top. */
export function folderPaths(base: string, segments: readonly string[]): string[] {
  const out: string[] = [];
  let dir = base;
  for (const segment of segments) out.push((dir = path.join(dir, segment)));
  return out;
}

/**
 * fsync several folders at once (one journal commit on most file systems, not one each);
 * through `shared` when given (see FolderSyncs), else each opened, fsynced and closed.
 */
export async function syncDirs(dirs: Iterable<string>, shared?: FolderSyncs): Promise<void> {
  await Promise.all([...new Set(dirs)].map((d) => (shared ? shared.sync(d) : syncDir(d))));
}

/**
 * Folder fsyncs shared between concurrent writes. A write asks after its change (a rename, a
 * mkdir) is made, so only an fsync that *starts* after the ask covers it: a folder asked for
 * while none of its fsyncs runs is fsynced at once; asked for while one runs, it waits for the
 * next, which starts when that one ends and which everyone asking meanwhile shares. Many
 * sessions pushed at once all add their folders to one `brain` folder: its fsyncs are then
 * fewer than one per new session. The folder is opened (O_DIRECTORY|O_NOFOLLOW) and closed
 * synchronously, a few microseconds each, and only the fsync, which waits on the disk, goes
 * to the thread pool: one round trip per folder instead of three.
 */
export class FolderSyncs {
  private readonly pending = new Map<string, { running: Promise<void>; next?: Promise<void> }>();

  constructor(private readonly fsyncDir: (dir: string) => Promise<void> = fsyncFolder) {}

  sync(dir: string): Promise<void> {
    const p = this.pending.get(dir);
    if (!p) return this.start(dir);
    // Shared by every ask until it starts; then a later ask waits for the one after it.
    p.next ??= p.running.catch(() => undefined).then(() => this.start(dir));
    return p.next;
  }

  private start(dir: string): Promise<void> {
    const running = this.fsyncDir(dir);
    this.pending.set(dir, { running });
    void running
      .catch(() => undefined)
      .then(() => {
        const p = this.pending.get(dir);
        if (p?.running === running && !p.next) this.pending.delete(dir);
      });
    return running;
  }
}

const fsyncFd = promisify(fsync);

async function fsyncFolder(dir: string): Promise<void> {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW);
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * How many of the folders `base/…segments` exist, from the top; each is checked with lstat
 * (never followed), and a file or link where a folder must be is a PathConflict. Nothing is
 * made: the caller charges the missing ones against the quota, then calls `makeDirs`.
 */
export function existingDirs(
  base: string,
  segments: readonly string[],
  /** How many folders from the top are known plain folders already (not checked again). */
  known = 0,
): number {
  let dir = path.join(base, segments.slice(0, known).join(path.sep));
  for (let i = known; i < segments.length; i++) {
    dir = path.join(dir, segments[i]);
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return i;
      if (code === 'ENOTDIR') throw new PathConflict(`a parent of "${segments[i]}" is a file`);
      throw err;
    }
    if (!st.isDirectory()) throw new PathConflict(`"${segments[i]}" exists and is not a folder`);
  }
  return segments.length;
}

/** Whether `dir` is a folder (lstat: a link is not). */
export function isFolder(dir: string): boolean {
  return lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/**
 * Makes the folders `base/…segments` from index `from` on (those above were checked by
 * `existingDirs`; `base` itself may be anything the operator chose, a mount or a link).
 * Returns the deepest folder and the folders this call made (another writer may have made
 * some meanwhile: each is checked with lstat then). Nothing is fsynced here: the caller
 * fsyncs the parent of every folder on its path not yet known durable, with the file's
 * folder, in one `syncDirs` before it answers (see DurableDirs).
 */
export function makeDirs(
  base: string,
  segments: readonly string[],
  from: number,
): { dir: string; made: string[] } {
  if (from === 0) mkdirSync(base, { recursive: true, mode: DIR_MODE });
  let dir = path.join(base, segments.slice(0, from).join(path.sep));
  const made: string[] = [];
  for (const segment of segments.slice(from)) {
    const next = path.join(dir, segment);
    try {
      mkdirSync(next, { mode: DIR_MODE });
      made.push(next);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new PathConflict(`a parent of "${segment}" is a file`);
      if (code !== 'EEXIST') throw err;
      if (!lstatSync(next).isDirectory())
        throw new PathConflict(`"${segment}" exists and is not a folder`);
    }
    dir = next;
  }
  return { dir, made };
}

/**
 * Folders whose entry in their parent is known to be on disk (the parent was fsynced after
 * the folder was made, or found, by this process). A write fsyncs the parent of every folder
 * on its path that is not here, so a folder another request made and has not fsynced yet is
 * still made durable before this write answers; after a restart each path's parents are
 * fsynced once again. A known folder was also checked to be a plain folder (made by this
 * process, or found with lstat), and only this process writes here, so it is not checked
 * again. Bounded: past `max` entries it starts over (costing lstats and fsyncs, never
 * durability).
 */
export class DurableDirs {
  private readonly known = new Set<string>();

  constructor(private readonly max = 100_000) {}

  /** How many of `dirs` (a path's folders, from the top) are known, from the first on. */
  knownPrefix(dirs: readonly string[]): number {
    let i = 0;
    while (i < dirs.length && this.known.has(dirs[i])) i++;
    return i;
  }

  /** Forgets every folder (one was found gone: it is all checked again). */
  clear(): void {
    this.known.clear();
  }

  /** The parents to fsync so that every folder of `dirs` is durable. */
  parentsToSync(dirs: readonly string[]): string[] {
    return dirs.filter((d) => !this.known.has(d)).map((d) => path.dirname(d));
  }

  /** `dirs` are durable now (their parents were fsynced). */
  add(dirs: readonly string[]): void {
    if (this.known.size + dirs.length > this.max) this.known.clear();
    for (const d of dirs) this.known.add(d);
  }
}

/** The lstat of a regular file at `file` (not followed), null when absent; a conflict otherwise. */
export function regularFile(file: string, shown: string): Stats | null {
  try {
    const st = lstatSync(file);
    if (!st.isFile()) throw new PathConflict(`"${shown}" exists and is not a regular file`);
    return st;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') throw new PathConflict(`a parent of "${shown}" is a file`);
    throw err;
  }
}

export interface HeldFile {
  path: string;
  size: number;
  abs: string;
  /** Its lstat, as listed. */
  stat: Stats;
}

/**
 * Every regular file under `dir` (relative paths with "/", sorted); symlinks and anything
 * else are skipped, never followed.
 */
export async function listRegularFiles(dir: string): Promise<HeldFile[]> {
  const out: HeldFile[] = [];
  const top = lstatSync(dir, { throwIfNoEntry: false });
  if (!top?.isDirectory()) return out; // absent, or a link someone planted: never followed
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await fsp.readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const childAbs = path.join(abs, e.name);
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(childAbs, childRel);
      else if (e.isFile()) {
        const st = lstatSync(childAbs, { throwIfNoEntry: false });
        if (st?.isFile()) out.push({ path: childRel, size: st.size, abs: childAbs, stat: st });
      }
    }
  };
  await walk(dir, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * What a source costs against MAX_INGEST_MB, besides file bytes: every file and every folder
 * counts this much (a file system block and an inode), so empty files in deep folders cannot
 * fill a disk while the bytes stay under the limit.
 */
export const ENTRY_BYTES = 4096;

/**
 * The quota usage of `dir` (0 when absent): the bytes of its regular files plus ENTRY_BYTES
 * per file and folder below it; the folder named `skip` at the top (temporary files) is not
 * counted.
 */
export async function usageUnder(dir: string, skip: string): Promise<number> {
  let total = 0;
  const top = await fsp.lstat(dir).catch(() => null);
  if (!top?.isDirectory()) return 0;
  const walk = async (abs: string, isTop: boolean): Promise<void> => {
    const entries = await fsp.readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (isTop && e.name === skip) continue;
      const child = path.join(abs, e.name);
      if (e.isDirectory()) {
        total += ENTRY_BYTES;
        await walk(child, false);
      } else if (e.isFile()) {
        const st = await fsp.lstat(child).catch(() => null);
        if (st?.isFile()) total += ENTRY_BYTES + st.size;
      }
    }
  };
  await walk(dir, true);
  return total;
}
