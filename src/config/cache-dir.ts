import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Where the home index keeps its database. Only the path is decided here: the index creates the
 * folder itself and falls back to memory when it cannot, so a read-only machine still starts.
 */

export interface CacheDirChoice {
  dir: string;
  /** A line for the configuration error (indented like the others), or null. */
  problem: string | null;
}

/** `dir` is `root` or lies under it (both absolute and normalized). */
function isUnder(root: string, dir: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * The brain root `dir` lies in, if any: `<geminiHome>/<flavor>/brain` (whether it exists yet or
 * not) or one of the extra roots.
 */
export function brainRootHolding(
  dir: string,
  geminiHome: string,
  brainRoots: readonly string[],
): string | null {
  const rel = path.relative(geminiHome, dir);
  const parts = rel.split(path.sep);
  if (!path.isAbsolute(rel) && parts[0] !== '..' && parts.length >= 2 && parts[1] === 'brain')
    return path.join(geminiHome, parts[0], 'brain');
  return brainRoots.map((r) => path.resolve(r)).find((r) => isUnder(r, dir)) ?? null;
}

/**
 * CACHE_DIR (an absolute path), else `$XDG_CACHE_HOME/brainql`, else `~/.cache/brainql`. A
 * relative XDG_CACHE_HOME is ignored, as the XDG spec asks. Nothing under a brain root is ever
 * written, so a cache folder there is refused.
 */
export function chooseCacheDir(
  cacheDir: string | undefined,
  xdgCacheHome: string | undefined,
  geminiHome: string,
  brainRoots: readonly string[],
): CacheDirChoice {
  let dir: string;
  let named: string;
  if (cacheDir !== undefined) {
    named = `CACHE_DIR=${JSON.stringify(cacheDir)}`;
    if (!path.isAbsolute(cacheDir))
      return { dir: '', problem: `  ${named}: must be an absolute path` };
    dir = path.resolve(cacheDir);
  } else if (xdgCacheHome !== undefined && path.isAbsolute(xdgCacheHome)) {
    named = `XDG_CACHE_HOME=${JSON.stringify(xdgCacheHome)}`;
    dir = path.join(path.resolve(xdgCacheHome), 'brainql');
  } else {
    named = 'CACHE_DIR (unset, so ~/.cache/brainql)';
    dir = path.join(os.homedir(), '.cache', 'brainql');
  }
  // Compared as written and with symlinks resolved: a link may lead into a root, or to one.
  const root =
    brainRootHolding(dir, geminiHome, brainRoots) ??
    brainRootHolding(resolvedPath(dir), resolvedPath(geminiHome), brainRoots.map(resolvedPath));
  if (root === null) return { dir, problem: null };
  return {
    dir,
    problem:
      `  ${named}: the cache directory ${dir} is inside the brain root ${root} ` +
      '(nothing under a brain root is ever written); set CACHE_DIR to a folder outside it',
  };
}

/** `p` with symlinks resolved as far as it exists (the folders still to be made kept as named). */
export function resolvedPath(p: string): string {
  const tail: string[] = [];
  for (let head = path.resolve(p); ; head = path.dirname(head)) {
    try {
      return path.join(fs.realpathSync.native(head), tail.join(path.sep));
    } catch {
      if (path.dirname(head) === head) return path.resolve(p);
      tail.unshift(path.basename(head));
    }
  }
}
