import { promises as fsp, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { compareStrings } from './problems';
import { isInside } from './safe-path';
import type { BrainRoot, Environment, LogsSeen, SessionEntry } from './types';

/**
 * Discovery: brain roots, and the session directories directly under them. A root also holds
 * things that are not sessions (`tempmediaStorage/`, `thread_summaries.json`, ...): only a
 * directory whose `.system_generated/logs/` holds a transcript counts, everything else is
 * skipped silently.
 */

export function environmentOf(flavor: string): Environment {
  switch (flavor) {
    case 'antigravity':
    case 'antigravity-ide':
      return 'IDE';
    case 'antigravity-cli':
      return 'CLI';
    case 'antigravity-acp':
      return 'ACP';
    default:
      return 'OTHER';
  }
}

/**
 * Every `<geminiHome>/<name>/brain` directory plus every extra root that is a directory (its
 * flavor is the name of its parent directory). Extra roots are made absolute (not resolved);
 * empty entries are ignored. Roots with the same realpath are listed once (the one whose path
 * sorts first). Sorted by path.
 */
export async function discoverRoots(
  geminiHome: string | null,
  extraRoots: string[],
  /** INGEST_DIR: every `<source>/<flavor>/brain` in it is a root of that source. */
  ingestDir: string | null = null,
): Promise<BrainRoot[]> {
  const candidates: { path: string; flavor: string; source?: string }[] = [];
  if (geminiHome) {
    const home = path.resolve(geminiHome);
    const names = await fsp.readdir(home).catch(() => [] as string[]);
    for (const name of names)
      candidates.push({ path: path.join(home, name, 'brain'), flavor: name });
  }
  for (const extra of extraRoots) {
    if (extra.trim() === '') continue;
    const p = path.resolve(extra);
    candidates.push({ path: p, flavor: path.basename(path.dirname(p)) });
  }
  if (ingestDir)
    for (const c of await ingestCandidates(path.resolve(ingestDir))) candidates.push(c);
  const found = await Promise.all(
    candidates.map(async (c): Promise<BrainRoot | null> => {
      try {
        // Below INGEST_DIR nothing is a link (the writer makes none): one would be refused.
        const st = await (c.source === undefined ? fsp.stat(c.path) : fsp.lstat(c.path));
        if (!st.isDirectory()) return null;
        const realPath = await fsp.realpath(c.path);
        return { ...c, realPath, environment: environmentOf(c.flavor) };
      } catch {
        return null;
      }
    }),
  );
  const seen = new Set<string>();
  const roots: BrainRoot[] = [];
  const sorted = found.filter((r): r is BrainRoot => r !== null);
  for (const root of sorted.sort((a, b) => compareStrings(a.path, b.path))) {
    if (seen.has(root.realPath)) continue;
    seen.add(root.realPath);
    roots.push(root);
  }
  return roots;
}

/** Source and flavor folder names the ingest side can have made (see src/ingest). */
const SOURCE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FLAVOR = /^[a-z0-9][a-z0-9-]{0,63}$/;

async function plainDirs(dir: string, name: RegExp): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  return entries.filter((e) => e.isDirectory() && name.test(e.name)).map((e) => e.name);
}

/** `<ingestDir>/<source>/<flavor>/brain` for every plain source and flavor folder. */
async function ingestCandidates(
  ingestDir: string,
): Promise<{ path: string; flavor: string; source: string }[]> {
  const out: { path: string; flavor: string; source: string }[] = [];
  for (const source of await plainDirs(ingestDir, SOURCE)) {
    for (const flavor of await plainDirs(path.join(ingestDir, source), FLAVOR))
      out.push({ path: path.join(ingestDir, source, flavor, 'brain'), flavor, source });
  }
  return out;
}

interface Candidate {
  root: BrainRoot;
  entry: Dirent;
}

/** Directories examined between two turns of the event loop (and progress reports). */
const SLICE = 256;

/**
 * The sessions of all roots, sorted by id, and how many each root contributes (keyed by
 * `root.path`, every root present). When one id sits in several roots `precedence` picks the
 * winner (mounted roots first, then by mtime; pushed copies by source name). Ids are compared case-insensitively
 * for this (the contract's ids do), so `ABC` and `abc` never both appear. The other copies
 * are returned as `shadowed` (best first per id): a caller who may not see the winner's root
 * gets the best copy they can see. `onProgress` receives the number of directories examined.
 */
export async function scanSessions(
  roots: BrainRoot[],
  onProgress?: (done: number) => void,
  /** A quick rescan: an entry already known by root and name is taken as it was. */
  known?: (root: BrainRoot, name: string) => SessionEntry | undefined,
  /**
   * True for a folder name that must not be served (REDACT=on and the name holds a secret):
   * such a folder is never a session, and is returned in `withheld` instead.
   */
  withhold?: (name: string) => boolean,
): Promise<{
  sessions: SessionEntry[];
  shadowed: SessionEntry[];
  perRoot: Map<string, number>;
  withheld: WithheldFolder[];
}> {
  const candidates: Candidate[] = [];
  const withheld: WithheldFolder[] = [];
  for (const root of roots) {
    const entries = await fsp
      .readdir(root.realPath, { withFileTypes: true })
      .catch(() => [] as Dirent[]);
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      if (withhold?.(entry.name)) withheld.push({ root, name: entry.name });
      else candidates.push({ root, entry });
    }
  }
  const found: (SessionEntry | null)[] = [];
  for (let i = 0; i < candidates.length; i += SLICE) {
    for (const c of candidates.slice(i, i + SLICE)) {
      try {
        found.push(known?.(c.root, c.entry.name) ?? examine(c));
      } catch {
        found.push(null);
      }
    }
    onProgress?.(found.length);
    // Let requests (health probes, metrics) run between slices of synchronous work.
    await new Promise((resolve) => setImmediate(resolve));
  }

  const byId = new Map<string, SessionEntry[]>();
  for (const s of found) {
    if (s === null) continue;
    const key = s.id.toLowerCase();
    const copies = byId.get(key);
    if (copies) copies.push(s);
    else byId.set(key, [s]);
  }
  const sessions: SessionEntry[] = [];
  const shadowed: SessionEntry[] = [];
  for (const copies of byId.values()) {
    if (copies.length > 1) copies.sort(precedence);
    sessions.push(copies[0]);
    for (let i = 1; i < copies.length; i++) shadowed.push(copies[i]);
  }
  sessions.sort((a, b) => compareStrings(a.id, b.id));
  const perRoot = new Map<string, number>(roots.map((r) => [r.path, 0]));
  for (const s of sessions) perRoot.set(s.root.path, (perRoot.get(s.root.path) ?? 0) + 1);
  return { sessions, shadowed, perRoot, withheld };
}

/** A root entry not served because its name holds a secret (see scanSessions' `withhold`). */
export interface WithheldFolder {
  root: BrainRoot;
  name: string;
}

/**
 * Which copy of one id wins. A mounted root's copy always beats a pushed one (a push key must
 * never replace or hide what the server reads from its own disks); among mounted copies the
 * latest directory mtime wins, then the root path sorting first. Among pushed copies the
 * source name sorting first wins, then the flavor: never the mtime, which a pusher controls
 * by pushing again (last writer wins would let any source take over an id). The losers stay
 * reachable as shadowed copies (by source, flavor or environment, and by scope).
 */
export function precedence(a: SessionEntry, b: SessionEntry): number {
  const pushedA = a.root.source !== undefined;
  const pushedB = b.root.source !== undefined;
  if (pushedA !== pushedB) return pushedA ? 1 : -1;
  if (!pushedA && a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  if (pushedA && pushedB) {
    const bySource = compareStrings(a.root.source!, b.root.source!);
    if (bySource !== 0) return bySource;
  }
  return compareStrings(a.root.path, b.root.path) || compareStrings(a.id, b.id);
}

/**
 * The session a root entry is, or null. A symlinked entry must resolve inside its root.
 * Synchronous on purpose: the scan runs these in slices (see scanSessions), and a sync call
 * costs a fraction of an async one, which is what decides a cold start over 10,000 sessions.
 */
function examine({ root, entry }: Candidate): SessionEntry | null {
  let realDir = path.join(root.realPath, entry.name);
  if (entry.isSymbolicLink()) {
    realDir = realpathSync.native(realDir);
    if (realDir === root.realPath || !isInside(root.realPath, realDir)) return null;
  }
  const logs = logsSeen(realDir);
  if (!logs) return null;
  const stats = statSync(realDir);
  if (!stats.isDirectory()) return null;
  return {
    id: entry.name,
    root,
    dir: path.join(root.path, entry.name),
    realDir,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    logs,
  };
}

/** One directory read instead of up to three stats: most entries of a root are sessions. */
function logsSeen(realDir: string): LogsSeen | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(realDir, '.system_generated', 'logs'), { withFileTypes: true });
  } catch {
    return null;
  }
  const seen: LogsSeen = { compact: false, full: false, chunks: false };
  for (const e of entries) {
    const link = e.isSymbolicLink();
    if (e.name === 'chunks') seen.chunks ||= link || e.isDirectory();
    else if (e.name === 'transcript.jsonl') seen.compact ||= link || e.isFile();
    else if (e.name === 'transcript_full.jsonl') seen.full ||= link || e.isFile();
  }
  return seen.compact || seen.full || seen.chunks ? seen : null;
}
