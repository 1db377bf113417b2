import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { LOGS } from '../brain/transcript/view';
import type { Catalog } from '../brain/catalog';

/**
 * Which directories tell of which changes. Roots (and the brain home with its flavor folders)
 * tell of sessions appearing and vanishing; a session folder, its `logs/` and its chunk
 * folders tell of its transcript. `.system_generated` is watched only while `logs/` is missing
 * (a session being created), so a listed session costs two watches.
 */

export type WatchTarget = { kind: 'catalog' } | { kind: 'session'; dir: string };

/** Existing subdirectories of `dir` (nothing when it cannot be read). */
function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The brain home, its flavor folders, INGEST_DIR with its source and flavor folders (a push
 * makes them at run time), and every root of the catalog.
 */
export function catalogDirs(
  geminiHome: string | null,
  catalog: Catalog,
  ingestDir: string | null = null,
): string[] {
  const dirs = new Set<string>();
  if (geminiHome) {
    dirs.add(geminiHome);
    for (const flavor of subdirs(geminiHome)) dirs.add(flavor);
  }
  if (ingestDir) {
    dirs.add(ingestDir);
    for (const source of subdirs(ingestDir)) {
      dirs.add(source);
      for (const flavor of subdirs(source)) dirs.add(flavor);
    }
  }
  for (const { root } of catalog.roots) dirs.add(root.realPath);
  return [...dirs];
}

/**
 * The folders of one session (or of a directory of a root that may become one) that tell of
 * its transcript changing: the folder, `logs/` (else `.system_generated` until `logs/` exists)
 * and the chunk folders, when present.
 */
export function sessionDirs(dir: string): string[] {
  const logs = path.join(dir, LOGS);
  const chunks = path.join(logs, 'chunks');
  const found = subdirs(logs);
  if (found.length === 0 && !exists(logs)) return [dir, path.join(dir, '.system_generated')];
  const out = [dir, logs];
  if (found.includes(chunks)) {
    out.push(chunks);
    for (const d of subdirs(chunks)) out.push(d);
  }
  return out;
}

function exists(dir: string): boolean {
  try {
    readdirSync(dir);
    return true;
  } catch {
    return false;
  }
}
