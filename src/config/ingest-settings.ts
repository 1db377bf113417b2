import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolvedPath } from './cache-dir';

/** Where pushed sessions are written, and how much each source may hold. */
export interface IngestSettings {
  /** Some key may push: the ingest routes exist and INGEST_DIR is served as brain roots. */
  enabled: boolean;
  /** Absolute; holds `<source>/<flavor>/brain/<id>/`. May not exist yet. */
  dir: string;
  /** MAX_INGEST_MB per source, in bytes. */
  maxSourceBytes: number;
  /** The largest request body one PUT may carry, in bytes. */
  maxBodyBytes: number;
}

/** `a` is `b` or lies under it (both absolute, normalized). */
const under = (a: string, b: string) =>
  a === b || a.startsWith(b.endsWith(path.sep) ? b : b + path.sep);

/**
 * INGEST_DIR (absolute), else `$XDG_DATA_HOME/brainql/ingest` (an absolute XDG_DATA_HOME, as
 * the XDG spec asks), else `~/.local/share/brainql/ingest`. It must not overlap the mounted
 * home or roots either way: nothing under a brain root is ever written, and a brain home
 * inside it would read as a source. Checked when it matters: set explicitly, or some key
 * pushes.
 */
export function ingestDirOf(
  vars: { INGEST_DIR?: string; XDG_DATA_HOME?: string },
  enabled: boolean,
  geminiHome: string,
  brainRoots: readonly string[],
): { dir: string; problem: string | null } {
  let dir: string;
  let named: string;
  if (vars.INGEST_DIR !== undefined) {
    named = `INGEST_DIR=${JSON.stringify(vars.INGEST_DIR)}`;
    if (!path.isAbsolute(vars.INGEST_DIR))
      return { dir: '', problem: `  ${named}: must be an absolute path` };
    dir = path.resolve(vars.INGEST_DIR);
  } else {
    const xdg = vars.XDG_DATA_HOME;
    const base =
      xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.local', 'share');
    named = `INGEST_DIR (unset, so ${path.join(base, 'brainql', 'ingest')})`;
    dir = path.join(path.resolve(base), 'brainql', 'ingest');
  }
  if (vars.INGEST_DIR === undefined && !enabled) return { dir, problem: null };
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory())
    return { dir, problem: `  ${named}: ${dir} exists and is not a directory` };
  const mine = resolvedPath(dir);
  for (const other of [geminiHome, ...brainRoots].map((p) => resolvedPath(path.resolve(p)))) {
    if (under(mine, other) || under(other, mine))
      return {
        dir,
        problem:
          `  ${named}: overlaps the brain home or root ${other} (nothing under a brain root is ` +
          'ever written, and a home inside it would read as a source); use a folder apart',
      };
  }
  return { dir, problem: null };
}
