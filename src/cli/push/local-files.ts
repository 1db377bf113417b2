import { createHash } from 'node:crypto';
import {
  createReadStream,
  lstatSync,
  promises as fsp,
  readdirSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import * as path from 'node:path';
import { discoverRoots, scanSessions } from '../../brain/roots';
import type { BrainRoot } from '../../brain/types';
import { checkFilePath, checkFlavor, checkSessionId } from '../../ingest/ingest-path';

/**
 * The local side of a push: the home's sessions and their plain files. Nothing here follows a
 * link: a linked session folder, sub-folder or file is neither read nor sent.
 */

export interface LocalSession {
  id: string;
  flavor: string;
  dir: string;
}

export interface LocalFile {
  rel: string;
  abs: string;
  stat: Stats;
}

/** What a push selects: the sessions, and what the selection found or left out. */
export interface Selection {
  sessions: LocalSession[];
  /** Roots read (none: no brain home at all). */
  roots: number;
  /** The flavors of those roots. */
  flavors: string[];
  /** `--session` values that match no session of the selected flavors. */
  unmatchedIds: string[];
  /** Session folders (UUID names) of the selected roots without a transcript: not sent. */
  withoutTranscript: number;
}

const UUID_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sessions of the home that a server can file (flavor and id as the ingest API takes).
 * A root under GEMINI_HOME reached through a link (`<flavor>` or its `brain` a symlink) is not
 * read; BRAIN_ROOTS entries are taken as configured.
 */
export async function localSessions(
  geminiHome: string,
  brainRoots: string[],
  pick: { ids: string[]; flavors: string[] },
): Promise<Selection> {
  const home = await fsp.realpath(geminiHome).catch(() => path.resolve(geminiHome));
  const found: BrainRoot[] = await discoverRoots(geminiHome, brainRoots);
  const roots: BrainRoot[] = [];
  for (const r of found) {
    if (!checkFlavor(r.flavor).ok) continue;
    const underHome = path.dirname(path.dirname(r.path)) === path.resolve(geminiHome);
    if (underHome && r.realPath !== path.join(home, r.flavor, 'brain')) continue; // a link
    roots.push(r);
  }
  const chosen = roots.filter((r) => pick.flavors.length === 0 || pick.flavors.includes(r.flavor));
  const { sessions } = await scanSessions(chosen);
  const ids = pick.ids.map((i) => i.toLowerCase());
  const picked = sessions
    .filter((s) => s.realDir === path.join(s.root.realPath, s.id)) // not a linked folder
    .filter((s) => checkSessionId(s.id).ok)
    .filter((s) => ids.length === 0 || ids.some((i) => s.id.toLowerCase().startsWith(i)));
  const listed = new Set(sessions.map((s) => `${s.root.realPath}/${s.id}`));
  let withoutTranscript = 0;
  for (const r of chosen) {
    const entries = await fsp.readdir(r.realPath, { withFileTypes: true }).catch(() => []);
    for (const e of entries)
      if (
        e.isDirectory() &&
        UUID_DIR.test(e.name) &&
        !listed.has(`${r.realPath}/${e.name}`) &&
        (ids.length === 0 || ids.some((i) => e.name.toLowerCase().startsWith(i)))
      )
        withoutTranscript++;
  }
  return {
    sessions: picked.map((s) => ({ id: s.id, flavor: s.root.flavor, dir: s.realDir })),
    roots: roots.length,
    flavors: [...new Set(roots.map((r) => r.flavor))].sort(),
    unmatchedIds: pick.ids.filter(
      (i) => !picked.some((s) => s.id.toLowerCase().startsWith(i.toLowerCase())),
    ),
    withoutTranscript,
  };
}

/** A file the server would refuse by its name (the ingest API's own path rule). */
export interface Refused {
  rel: string;
  message: string;
}

/**
 * A session-relative path as the server judges it: the ingest API's rule, on the segments
 * encoded as the client sends them (a "\" kept literal so the message names it as such).
 */
export function checkLocalPath(rel: string): { ok: true } | { ok: false; message: string } {
  const wire = rel
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%5C/gi, '\\'))
    .join('/');
  const checked = checkFilePath(wire);
  return checked.ok ? { ok: true } : { ok: false, message: checked.message };
}

/**
 * Plain files of a session folder (sorted); links are left out, and files the server would
 * refuse by name are returned apart, with the reason, so a run reports them. Synchronous: a
 * folder listing and an lstat per file, each a few microseconds here, where the asynchronous
 * calls cost a thread pool round trip each (a second push of 2,000 sessions makes thousands).
 */
export function sessionFiles(dir: string): { files: LocalFile[]; refused: Refused[] } {
  const files: LocalFile[] = [];
  const refused: Refused[] = [];
  const walk = (abs: string, rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      const childAbs = path.join(abs, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) walk(childAbs, childRel);
      else if (e.isFile()) {
        const checked = checkLocalPath(childRel);
        if (!checked.ok) {
          refused.push({ rel: childRel, message: checked.message });
          continue;
        }
        const stat = lstatOrNull(childAbs);
        if (stat?.isFile()) files.push({ rel: childRel, abs: childAbs, stat });
      }
    }
  };
  walk(dir, '');
  files.sort((a, b) => rank(a.rel) - rank(b.rel) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  refused.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, refused };
}

/** Its lstat; null when it is gone or cannot be read (as a listing that missed it). */
function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

const COMPACT = '.system_generated/logs/transcript.jsonl';
const FULL = '.system_generated/logs/transcript_full.jsonl';

/**
 * The compact transcript goes last and the full one just before it: a server lists a session
 * once its compact transcript exists, so it then already holds the session's other files and
 * full twin, and what it derives on first sight (summary, index) is of the whole session.
 */
function rank(rel: string): number {
  return rel === COMPACT ? 2 : rel === FULL ? 1 : 0;
}

/**
 * SHA-256 of the first `size` bytes of `abs`, and (in the same read) of its first `prefix`
 * bytes when 0 < prefix < size: one pass tells both whether the server holds a prefix and
 * what the whole is.
 */
export async function hashFile(
  abs: string,
  size: number,
  prefix = 0,
): Promise<{ sha256: string; prefixSha256: string | null }> {
  const hash = createHash('sha256');
  let prefixSha256: string | null = null;
  let at = 0;
  if (size > 0) {
    for await (const chunk of createReadStream(abs, { start: 0, end: size - 1 })) {
      const buf = chunk as Buffer;
      if (prefix > at && prefix <= at + buf.length && prefix < size) {
        hash.update(buf.subarray(0, prefix - at));
        prefixSha256 = hash.copy().digest('hex');
        hash.update(buf.subarray(prefix - at));
      } else hash.update(buf);
      at += buf.length;
    }
  }
  return { sha256: hash.digest('hex'), prefixSha256 };
}
