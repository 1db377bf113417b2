import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';

/**
 * The file system rules of the ingest side: below INGEST_DIR nothing is ever a symlink, and
 * nothing is followed. Folders are made one segment at a time and each is checked with lstat;
 * files are opened with O_NOFOLLOW. Only this process writes there, so a checked folder stays
 * a folder.
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

/**
 * `base/…segments` as plain folders, made where missing (`base` itself may be anything the
 * operator chose, a mount or a link). Returns the deepest folder, and how many folders this
 * call made (each is charged against the quota: see ENTRY_BYTES).
 */
export async function ensureDirs(
  base: string,
  segments: readonly string[],
): Promise<{ dir: string; made: number }> {
  await fsp.mkdir(base, { recursive: true, mode: DIR_MODE });
  let dir = base;
  let count = 0;
  for (const segment of segments) {
    const next = path.join(dir, segment);
    let made = false;
    try {
      await fsp.mkdir(next, { mode: DIR_MODE });
      made = true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw new PathConflict(`a parent of "${segment}" is a file`);
      if (code !== 'EEXIST') throw err;
    }
    const st = await fsp.lstat(next);
    if (!st.isDirectory() || st.isSymbolicLink())
      throw new PathConflict(`"${segment}" exists and is not a folder`);
    if (made) {
      count++;
      await syncDir(dir);
    }
    dir = next;
  }
  return { dir, made: count };
}

/** How many of the folders `base/…segments` would make do not exist yet (none is made). */
export async function missingDirs(base: string, segments: readonly string[]): Promise<number> {
  let dir = base;
  for (let i = 0; i < segments.length; i++) {
    dir = path.join(dir, segments[i]);
    const st = await fsp.lstat(dir).catch(() => null);
    if (st === null) return segments.length - i;
  }
  return 0;
}

/** Size of a regular file at `file` (not followed), null when absent; a conflict otherwise. */
export async function regularSize(file: string, shown: string): Promise<number | null> {
  try {
    const st = await fsp.lstat(file);
    if (!st.isFile()) throw new PathConflict(`"${shown}" exists and is not a regular file`);
    return st.size;
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
}

/**
 * Every regular file under `dir` (relative paths with "/", sorted); symlinks and anything
 * else are skipped, never followed.
 */
export async function listRegularFiles(dir: string): Promise<HeldFile[]> {
  const out: HeldFile[] = [];
  const top = await fsp.lstat(dir).catch(() => null);
  if (!top?.isDirectory()) return out; // absent, or a link someone planted: never followed
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await fsp.readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const childAbs = path.join(abs, e.name);
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(childAbs, childRel);
      else if (e.isFile()) {
        const st = await fsp.lstat(childAbs).catch(() => null);
        if (st?.isFile()) out.push({ path: childRel, size: st.size, abs: childAbs });
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
