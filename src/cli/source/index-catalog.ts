import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import type { Catalog, HeadMemo, ListedSession } from '../../brain/catalog';
import { LOGS } from '../../brain/transcript/view';
import type { BrainRoot, LogsSeen } from '../../brain/types';

/**
 * The sessions an earlier run's index knows, as the `previous` catalog of a quick scan
 * (buildCatalog): the scan then reads only each root's listing and examines the folders the
 * index does not know, the way the server's quick rescans skip known sessions. A session is
 * taken from the index only while its transcript is the very file the index read (one lstat:
 * same device, inode, and not shorter); anything else is examined as in a full scan.
 */
export function catalogFromIndex(
  roots: readonly BrainRoot[],
  memos: Iterable<[string, HeadMemo]>,
): Catalog {
  const byRealPath = new Map(roots.map((r) => [r.realPath, r]));
  const byKey = new Map<string, ListedSession | null>();
  for (const [realDir, memo] of memos) {
    if (memo.createdAt === null) continue;
    const root = byRealPath.get(path.dirname(realDir));
    if (!root) continue;
    const id = path.basename(realDir);
    const key = id.toLowerCase();
    // One id in two places: left to the full examination (its copies' mtimes decide).
    if (byKey.has(key)) {
      byKey.set(key, null);
      continue;
    }
    const logs = unchanged(realDir, memo);
    if (!logs) continue;
    const entry = {
      id,
      root,
      dir: path.join(root.path, id),
      realDir,
      mtimeMs: 0,
      ctimeMs: 0,
      logs,
    };
    byKey.set(key, { entry, createdAt: memo.createdAt, key });
  }
  const newestFirst = [...byKey.values()].filter((s): s is ListedSession => s !== null);
  return {
    roots: roots.map((root) => ({ root, sessionCount: 0 })),
    newestFirst,
    byKey: new Map(newestFirst.map((s) => [s.key, s])),
    shadowed: [],
    withheld: [],
    scannedAt: 0,
  };
}

/** What the head was read from (the compact file, else the full one), when it is unchanged. */
function unchanged(realDir: string, memo: HeadMemo): LogsSeen | null {
  for (const [file, logs] of [
    ['transcript.jsonl', { compact: true, full: false, chunks: false }],
    ['transcript_full.jsonl', { compact: false, full: true, chunks: false }],
  ] as const) {
    const st = lstatSync(`${realDir}/${LOGS}/${file}`, { throwIfNoEntry: false });
    if (st === undefined) continue;
    const same = st.isFile() && st.dev === memo.dev && st.ino === memo.ino && st.size >= memo.size;
    return same ? logs : null;
  }
  return null;
}
