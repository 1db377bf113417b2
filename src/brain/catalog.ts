import { lstatSync } from 'node:fs';
import { discoverRoots, scanSessions, type WithheldFolder } from './roots';
import { firstCreatedAt, firstCreatedAtIn } from './transcript/head';
import { readInsideSync } from './safe-read';
import { LOGS, locateViews, locateViewsSync } from './transcript/view';
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
  /**
   * No record dated it yet (createdAt is its files' time, undatedCreatedAt): looked for again
   * at every rescan, as a session scanned while its transcript was empty gets its records.
   */
  undated?: true;
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
  /** Copies of an id that lost to another root's copy, best first per id (usually none). */
  shadowed: ListedSession[];
  /** Folders not served because their name holds a secret (REDACT=on); usually none. */
  withheld: WithheldFolder[];
  scannedAt: number;
}

/**
 * The createdAt of a session no record dates: the oldest modification time among its
 * transcript files and its folder. Never later than its updatedAt (the newest transcript
 * file's mtime, else the folder's), and a copy or restore that keeps times (`cp -a`, tar,
 * rsync -t) keeps it old. The folder's ctime, used before, is the time of the copy itself:
 * a restored old run became the newest session, dated after its own updatedAt.
 */
export function undatedCreatedAt(entry: Pick<SessionEntry, 'realDir' | 'mtimeMs'>): Date {
  const views = locateViewsSync(entry.realDir);
  let oldest = entry.mtimeMs;
  for (const view of [views.compact, views.full]) {
    for (const s of view?.segments ?? []) oldest = Math.min(oldest, s.version.mtimeMs);
  }
  return new Date(Math.trunc(oldest));
}

export interface HeadMemo {
  /** Identity and size of the file the createdAt came from. */
  dev: number;
  ino: number;
  size: number;
  createdAt: Date | null;
}

/** The first slice of a transcript read at scan time; nearly always holds the first record. */
const HEAD_BYTES = 16 * 1024;

/**
 * Remembers each session's head so a rescan re-reads only transcripts that were replaced.
 * The common layouts (a transcript file) are read synchronously in one small slice; chunked
 * views and heads longer than the slice take the general, asynchronous path.
 */
export class HeadCache {
  private readonly memo = new Map<string, HeadMemo>();

  /** `maxRecordBytes`: a longer first line is skipped, never held (see MAX_RECORD_BYTES). */
  constructor(private readonly maxRecordBytes?: number) {}

  async createdAt(entry: SessionEntry): Promise<Date> {
    return (await this.dated(entry)).createdAt;
  }

  /** createdAt, and whether a record dated it. */
  async dated(entry: SessionEntry): Promise<{ createdAt: Date; undated?: true }> {
    const fast = this.fastPath(entry);
    const createdAt = fast !== undefined ? fast : await this.slowPath(entry);
    return createdAt ? { createdAt } : { createdAt: undatedCreatedAt(entry), undated: true };
  }

  /** undefined: this layout needs the general path. */
  private fastPath(entry: SessionEntry): Date | null | undefined {
    const logs = entry.logs;
    if (!logs || (!logs.compact && logs.chunks)) return undefined;
    const kind = logs.compact ? 'compact' : 'full';
    const rel = `${LOGS}/${logs.compact ? 'transcript.jsonl' : 'transcript_full.jsonl'}`;
    const old = this.memo.get(entry.realDir);
    // A transcript that only grew keeps its first record: the open and fstat tell, no read.
    // One without a valid time keeps having none while its size stays the same.
    const known = (st: { dev: number; ino: number; size: number }) =>
      old !== undefined &&
      old.dev === st.dev &&
      old.ino === st.ino &&
      (old.createdAt !== null ? st.size >= old.size : st.size === old.size);
    // A known file still in place needs no open: one lstat names it (nothing is read, and the
    // memo came from a read through the gate); anything else goes through the gate below.
    if (old !== undefined) {
      const st = lstatSync(`${entry.realDir}/${rel}`, { throwIfNoEntry: false });
      if (st?.isFile() && known(st)) return old.createdAt;
    }
    const read = readInsideSync(entry.realDir, rel, 0, HEAD_BYTES, (st) => !known(st));
    if (!read.ok) return undefined;
    const { bytes, stats } = read.value;
    if (bytes === null) return old?.createdAt ?? null;
    const found = firstCreatedAtIn(bytes, kind, bytes.length === stats.size);
    if (found === undefined) return undefined;
    this.remember(entry, stats, found);
    return found;
  }

  private async slowPath(entry: SessionEntry): Promise<Date | null> {
    const views = await locateViews(entry.realDir);
    const view = views.compact;
    if (!view) return null;
    const first = view.segments[0].version;
    const old = this.memo.get(entry.realDir);
    if (
      old?.createdAt &&
      old.dev === first.dev &&
      old.ino === first.ino &&
      first.size >= old.size
    ) {
      return old.createdAt;
    }
    const found = await firstCreatedAt(entry.realDir, view, this.maxRecordBytes).catch(() => null);
    this.remember(entry, first, found);
    return found;
  }

  private remember(
    entry: SessionEntry,
    v: { dev: number; ino: number; size: number },
    createdAt: Date | null,
  ): void {
    this.memo.set(entry.realDir, { dev: v.dev, ino: v.ino, size: v.size, createdAt });
  }

  /** Memos kept from an earlier run (the home index): a restart then reads no head. */
  seed(memos: Iterable<[string, HeadMemo]>): void {
    for (const [dir, memo] of memos) if (!this.memo.has(dir)) this.memo.set(dir, memo);
  }

  retain(live: Set<string>): void {
    for (const key of this.memo.keys()) if (!live.has(key)) this.memo.delete(key);
  }
}

/**
 * The sessions a caller sees, newest first: the winners they may see, plus, for each id whose
 * winner they may not see, the best copy they may see. Without shadowed copies (the usual
 * case) this is a filter of the listing.
 */
export function visibleSessions(
  catalog: Catalog,
  visible: (s: ListedSession) => boolean,
): ListedSession[] {
  const seen = catalog.newestFirst.filter(visible);
  const substitutes = substitutesOf(catalog, visible);
  if (substitutes.size === 0) return seen;
  return [...seen, ...substitutes.values()].sort(compareNewestFirst);
}

/** For each id whose winner is hidden: the best copy the caller may see. */
export function substitutesOf(
  catalog: Catalog,
  visible: (s: ListedSession) => boolean,
): Map<string, ListedSession> {
  const out = new Map<string, ListedSession>();
  for (const copy of catalog.shadowed) {
    if (out.has(copy.key) || !visible(copy)) continue;
    const winner = catalog.byKey.get(copy.key);
    if (winner && !visible(winner)) out.set(copy.key, copy);
  }
  return out;
}

function sameRoot(a: BrainRoot, b: BrainRoot): boolean {
  return (
    a.realPath === b.realPath &&
    a.flavor === b.flavor &&
    a.environment === b.environment &&
    a.source === b.source
  );
}

export function compareNewestFirst(a: ListedSession, b: ListedSession): number {
  const t = b.createdAt.getTime() - a.createdAt.getTime();
  if (t !== 0) return t;
  return a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
}

/**
 * Scans the roots into a new catalog. With `previous` (a quick rescan) only entries that
 * appeared since are examined and read: known ones keep their entry and createdAt, vanished
 * ones drop out. A full scan re-examines everything (directory mtimes for the duplicate-id
 * rule, replaced transcripts).
 */
export async function buildCatalog(
  geminiHome: string | null,
  extraRoots: string[],
  heads: HeadCache,
  onProgress?: (done: number, total: number | null) => void,
  previous?: Catalog,
  ingestDir: string | null = null,
  withhold?: (name: string) => boolean,
): Promise<Catalog> {
  // A root that is still there stays the same object: entries a quick rescan keeps hold it,
  // and callers compare roots by identity.
  const earlier = new Map(previous?.roots.map((r) => [r.root.path, r.root]));
  const roots = (await discoverRoots(geminiHome, extraRoots, ingestDir)).map((root) => {
    const same = earlier.get(root.path);
    return same && sameRoot(same, root) ? same : root;
  });
  const before = new Map<string, ListedSession>();
  for (const s of previous?.newestFirst ?? [])
    before.set(`${s.entry.root.realPath}\0${s.entry.id}`, s);
  const known = previous
    ? (root: BrainRoot, name: string) => before.get(`${root.realPath}\0${name}`)?.entry
    : undefined;
  const { sessions, shadowed, perRoot, withheld } = await scanSessions(
    roots,
    (done) => onProgress?.(done, null),
    known,
    withhold,
  );
  let done = 0;
  const listed: ListedSession[] = [];
  for (const entry of sessions) {
    const old = before.get(`${entry.root.realPath}\0${entry.id}`);
    // A kept entry keeps its createdAt, unless no record dated it (review 22: a session scanned
    // with an empty transcript stayed dated by its files, after its own updatedAt, for good).
    const dated =
      old?.entry === entry && !old.undated
        ? { createdAt: old.createdAt }
        : await heads.dated(entry);
    listed.push({ entry, ...dated, key: entry.id.toLowerCase() });
    if (++done % 256 === 0) {
      onProgress?.(done, sessions.length);
      // The fast path is synchronous: let requests run between slices.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const losers: ListedSession[] = [];
  for (const entry of shadowed) {
    losers.push({ entry, ...(await heads.dated(entry)), key: entry.id.toLowerCase() });
  }
  heads.retain(new Set([...sessions, ...shadowed].map((s) => s.realDir)));
  listed.sort(compareNewestFirst);
  return {
    roots: roots.map((root) => ({ root, sessionCount: perRoot.get(root.path) ?? 0 })),
    newestFirst: listed,
    byKey: new Map(listed.map((s) => [s.key, s])),
    shadowed: losers,
    withheld,
    scannedAt: Date.now(),
  };
}
