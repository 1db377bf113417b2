import { mapLimit } from './files';
import { discoverRoots, scanSessions } from './roots';
import { firstCreatedAt } from './transcript/head';
import { isAppendOnly, locateViews, type ViewSource } from './transcript/view';
import type { BrainRoot, SessionEntry } from './types';

/**
 * What is in the brain roots right now: roots, sessions and each session's createdAt, taken
 * from directory stats and the first record of each transcript only. A catalog is an
 * immutable snapshot; the store swaps in a new one after each rescan, so a request never
 * sees a half-built listing.
 */

export interface ListedSession {
  entry: SessionEntry;
  createdAt: Date;
  /** Lower-cased id: ids compare case-insensitively. */
  key: string;
}

export interface RootStatus {
  root: BrainRoot;
  sessionCount: number;
}

export interface Catalog {
  roots: RootStatus[];
  /** Newest first: createdAt descending, ties by id ascending. */
  newestFirst: ListedSession[];
  byKey: Map<string, ListedSession>;
  scannedAt: number;
}

interface HeadMemo {
  view: ViewSource | null;
  createdAt: Date | null;
}

/** Remembers each session's head so a rescan re-reads only transcripts that were replaced. */
export class HeadCache {
  private readonly memo = new Map<string, HeadMemo>();

  async createdAt(entry: SessionEntry): Promise<Date> {
    const views = await locateViews(entry.realDir);
    const view = views.compact;
    const old = this.memo.get(entry.realDir);
    let createdAt: Date | null;
    // A transcript that only grew keeps its first record: no need to read it again.
    if (old && old.createdAt && old.view && view && isAppendOnly(old.view, view)) {
      createdAt = old.createdAt;
    } else {
      createdAt = view ? await firstCreatedAt(entry.realDir, view).catch(() => null) : null;
    }
    this.memo.set(entry.realDir, { view, createdAt });
    return createdAt ?? new Date(entry.ctimeMs);
  }

  retain(live: Set<string>): void {
    for (const key of this.memo.keys()) if (!live.has(key)) this.memo.delete(key);
  }
}

export function compareNewestFirst(a: ListedSession, b: ListedSession): number {
  const t = b.createdAt.getTime() - a.createdAt.getTime();
  if (t !== 0) return t;
  return a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
}

export async function buildCatalog(
  geminiHome: string | null,
  extraRoots: string[],
  heads: HeadCache,
  onProgress?: (done: number, total: number | null) => void,
): Promise<Catalog> {
  const roots = await discoverRoots(geminiHome, extraRoots);
  const { sessions, perRoot } = await scanSessions(roots, (done) => onProgress?.(done, null));
  let done = 0;
  const listed = await mapLimit(sessions, 32, async (entry): Promise<ListedSession> => {
    const createdAt = await heads.createdAt(entry);
    if (++done % 1000 === 0) onProgress?.(done, sessions.length);
    return { entry, createdAt, key: entry.id.toLowerCase() };
  });
  heads.retain(new Set(sessions.map((s) => s.realDir)));
  listed.sort(compareNewestFirst);
  return {
    roots: roots.map((root) => ({ root, sessionCount: perRoot.get(root.path) ?? 0 })),
    newestFirst: listed,
    byKey: new Map(listed.map((s) => [s.key, s])),
    scannedAt: Date.now(),
  };
}
