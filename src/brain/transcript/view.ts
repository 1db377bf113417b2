import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { sameVersion, versionOf, type FileVersion } from '../cache';
import { isInside, statInside } from '../safe-path';
import type { Problem } from '../types';

/**
 * A transcript view is one logical byte stream: either one file or the concatenation of its
 * chunks in name order (chunks are byte slices, so a line may span two of them).
 */

export const LOGS = '.system_generated/logs';

export interface Segment {
  relPath: string;
  version: FileVersion;
}

export interface ViewSource {
  /** `compact` views hold JSON-encoded argument values and truncation markers. */
  kind: 'compact' | 'full';
  /** Names the view in problems: the file, or the chunks folder. */
  label: string;
  segments: Segment[];
  size: number;
}

export interface SessionViews {
  /** What Step fields show: compact file, else compact chunks, else the full view. */
  compact: ViewSource | null;
  /** Where `full: true` reads from: full file, else full chunks. */
  full: ViewSource | null;
  problems: Problem[];
}

const CHUNK_NAME = /^\d+\.jsonl$/;

function fileView(
  realDir: string,
  kind: ViewSource['kind'],
  relPath: string,
  problems: Problem[],
): ViewSource | null {
  const checked = statInside(realDir, relPath);
  if (!checked.ok) {
    if (checked.refusal === 'UNSAFE_PATH' || checked.refusal === 'UNREADABLE') {
      const code = checked.refusal === 'UNSAFE_PATH' ? 'UNSAFE_PATH' : 'UNREADABLE_FILE';
      problems.push({ code, message: checked.message, file: relPath, line: null });
    }
    return null;
  }
  const version = versionOf(checked.value.stats);
  return { kind, label: relPath, segments: [{ relPath, version }], size: version.size };
}

/** The view of the chunks in `chunks/<folder>`, whether or not a file of its kind wins. */
export function chunkView(
  realDir: string,
  kind: ViewSource['kind'],
  folder: string,
  problems: Problem[],
): ViewSource | null {
  const relFolder = `${LOGS}/chunks/${folder}`;
  // Most sessions have no chunks: one lstat says so without resolving the whole path.
  if (!lstatSync(`${realDir}/${LOGS}/chunks`, { throwIfNoEntry: false })) return null;
  let names: string[];
  try {
    const dirChecked = realpathSync.native(`${realDir}/${relFolder}`);
    if (!isInside(realDir, dirChecked) || dirChecked === realDir) {
      problems.push({
        code: 'UNSAFE_PATH',
        message: `${relFolder} resolves outside the session directory`,
        file: relFolder,
        line: null,
      });
      return null;
    }
    // By number: real names have 8 digits (name order is number order), but a writer that
    // does not pad would put 10.jsonl before 9.jsonl, and a line split between them would
    // read as two broken ones (and be masked as such).
    names = readdirSync(dirChecked)
      .filter((n) => CHUNK_NAME.test(n))
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return null;
  }
  const segments: Segment[] = [];
  for (const name of names) {
    const view = fileView(realDir, kind, `${relFolder}/${name}`, problems);
    if (view) segments.push(view.segments[0]);
  }
  if (segments.length === 0) return null;
  const size = segments.reduce((sum, s) => sum + s.version.size, 0);
  return { kind, label: relFolder, segments, size };
}

/**
 * Finds both views of a session; a file wins over chunks of the same kind. Synchronous
 * metadata calls (see statInside); the promise keeps callers free to change that.
 */
export function locateViews(realDir: string): Promise<SessionViews> {
  return Promise.resolve(locateViewsSync(realDir));
}

/** locateViews for synchronous callers (the catalog's rare undated sessions). */
export function locateViewsSync(realDir: string): SessionViews {
  const problems: Problem[] = [];
  const compactOwn =
    fileView(realDir, 'compact', `${LOGS}/transcript.jsonl`, problems) ??
    chunkView(realDir, 'compact', 'transcript', problems);
  const full =
    fileView(realDir, 'full', `${LOGS}/transcript_full.jsonl`, problems) ??
    chunkView(realDir, 'full', 'transcript_full', problems);
  return { compact: compactOwn ?? full, full, problems };
}

/** A stable key for caches: the view's files and their versions. */
export function viewKey(realDir: string, view: ViewSource): string {
  return `${realDir}\0${view.label}`;
}

/**
 * True when `next` only appended to `old`: the same files, the last one grown in place (same
 * device and inode, not smaller), maybe new chunks after it. Anything else needs a rebuild.
 */
export function isAppendOnly(old: ViewSource, next: ViewSource): boolean {
  const a = old.segments;
  const b = next.segments;
  if (next.label !== old.label || b.length < a.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].relPath !== b[i].relPath) return false;
    const x = a[i].version;
    const y = b[i].version;
    if (
      i < a.length - 1 ? !sameVersion(x, y) : x.dev !== y.dev || x.ino !== y.ino || y.size < x.size
    ) {
      return false;
    }
  }
  return true;
}

/** True when both describe exactly the same bytes. */
export function sameView(a: ViewSource, b: ViewSource): boolean {
  return (
    a.label === b.label &&
    a.segments.length === b.segments.length &&
    a.segments.every(
      (s, i) =>
        s.relPath === b.segments[i].relPath && sameVersion(s.version, b.segments[i].version),
    )
  );
}
