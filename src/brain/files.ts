import {
  promises as fsp,
  lstatSync,
  readdirSync,
  readlinkSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { versionKey, versionOf } from './cache';
import { IO_CONCURRENCY, mapLimit } from './concurrency';
import * as path from 'node:path';
import { isInside, nameProblem, statInside, type Refusal } from './safe-path';
import { openInsideForRead, readRange, syncReadsOn } from './safe-read';
import { compareStrings, problem, refusalProblem } from './problems';
import type { Problem, SessionFileKind } from './types';

/**
 * The session's other files (uploads, scratch, media, task logs) and its step outputs.
 * Directories are walked iteratively and never through a symlink, so a link loop or a link to
 * a huge tree elsewhere cannot blow up a listing; every stat goes through the containment gate.
 */

export interface SessionFileInfo {
  /** '/'-separated, relative to the session directory. */
  path: string;
  kind: SessionFileKind;
  size: number;
  modifiedAt: Date;
}

export interface StepOutputInfo {
  file: 'output.txt' | 'content.md';
  relPath: string;
  size: number;
}

/** Thrown by `readFileRange` when the containment gate refuses the file. */
export class FileAccessError extends Error {
  override readonly name = 'FileAccessError';
  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super(message);
  }
}

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
const STEP_OUTPUT = /^\.system_generated\/steps\/(0|-?[1-9]\d*)\/(output\.txt|content\.md)$/;
const ARTIFACT_FAMILY = /\.md(\.resolved(\.\d+)?|\.metadata\.json)?$/;

/**
 * The kind of a session file, or null for the files other fields already show: transcripts,
 * chunks, step outputs, artifacts, their versions and sidecars (matched by name pattern, so an
 * orphan `x.md.resolved` is not listed either).
 */
export function classifySessionFile(rel: string): SessionFileKind | null {
  if (!rel.includes('/')) {
    if (ARTIFACT_FAMILY.test(rel)) return null;
    return IMAGE.test(rel) ? 'MEDIA' : 'OTHER';
  }
  if (rel.startsWith('scratch/')) return 'SCRATCH';
  if (rel.startsWith('.user_uploaded/')) return 'UPLOAD';
  if (rel.startsWith('.system_generated/')) {
    const sub = rel.slice('.system_generated/'.length);
    if (sub === 'logs/transcript.jsonl' || sub === 'logs/transcript_full.jsonl') return null;
    if (sub.startsWith('logs/chunks/')) return null;
    if (STEP_OUTPUT.test(rel)) return null;
    if (sub.startsWith('click_feedback/')) return 'MEDIA';
    if (sub.startsWith('tasks/')) return 'TASK_LOG';
  }
  return 'OTHER';
}

/**
 * Lists the session's regular files with their kind, sorted by path, and the symlinks that
 * lead outside the session (as UNSAFE_PATH problems, also when dangling). `unsafe` also holds
 * UNREADABLE_FILE for an entry or folder the walk could not stat or read (EACCES, EIO).
 * Decisions: `.git` directories are skipped at any depth; a symlink to a file inside is
 * listed under its own path; a symlink to a directory inside is not descended into (no loops,
 * no double listing); FIFOs, sockets and devices are not listed and raise no problem; entries
 * that vanish mid-walk are skipped.
 */
export async function listSessionFiles(
  realDir: string,
): Promise<{ files: SessionFileInfo[]; unsafe: Problem[] }> {
  const { files, unsafe } = await walkSessionFiles(realDir);
  return {
    files: files.map((f) => ({
      path: f.path,
      kind: f.kind,
      size: f.stats.size,
      modifiedAt: dateOf(f.stats),
    })),
    unsafe,
  };
}

/**
 * The index's walk lists a level of up to this many folders with synchronous calls (see
 * walkSessionFiles): a session's level holds a few folders, or its step folders, one per step.
 * A level past it (a session with thousands of steps) is listed as before, IO_CONCURRENCY
 * async listings in flight, so no one session holds the thread that answers requests for long.
 */
export const SYNC_LIST_FOLDERS = 256;

/** A listed file with the stats its containment check read (see `walkSessionFiles`). */
export interface WalkedFile {
  path: string;
  kind: SessionFileKind;
  stats: Stats;
}

/**
 * The walk behind `listSessionFiles`, keeping each file's stats: a caller that needs more of
 * them than the listing shows (the home index: device, inode, mtime) stats nothing twice.
 */
export async function walkSessionFiles(
  realDir: string,
  /** Filled with the names in the session directory itself, whatever they are (see namedFiles). */
  rootNames?: string[],
  /**
   * List levels of up to SYNC_LIST_FOLDERS folders with readdirSync (the index's walk, see
   * namedFiles): a session worker (useSyncReads) lists every level so.
   */
  smallSync = false,
): Promise<{ files: WalkedFile[]; unsafe: Problem[] }> {
  const workerSync = syncReadsOn();
  const files: WalkedFile[] = [];
  const unsafe: Problem[] = [];
  // Breadth first, one level at a time, IO_CONCURRENCY reads in flight: sessions with thousands
  // of step folders are common, and their readdirs one after another add up.
  let level: string[] = [''];
  while (level.length > 0) {
    const next: string[] = [];
    const found: { rel: string; symlink: boolean; kind: SessionFileKind | null }[] = [];
    // A session worker lists with readdirSync: no thread-pool round trip a folder. So does the
    // index's walk for a level of a few folders (most sessions: the root, .system_generated,
    // logs, steps and a few dozen step folders), each listing a few microseconds of this thread.
    const sync = workerSync || (smallSync && level.length <= SYNC_LIST_FOLDERS);
    await mapLimit(level, IO_CONCURRENCY, async (dirRel) => {
      let entries: Dirent[];
      try {
        const folder = path.join(realDir, dirRel);
        entries = sync
          ? readdirSync(folder, { withFileTypes: true })
          : await fsp.readdir(folder, { withFileTypes: true });
      } catch (err) {
        // A folder that vanished mid-walk is simply gone; one that cannot be read (EACCES,
        // EIO) hides its files, so it is reported.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') {
          const name = dirRel === '' ? 'the session directory' : dirRel;
          unsafe.push(
            problem(
              'UNREADABLE_FILE',
              `${name} cannot be read (${code ?? 'error'})`,
              dirRel || null,
            ),
          );
        }
        return;
      }
      if (dirRel === '' && rootNames) for (const entry of entries) rootNames.push(entry.name);
      for (const entry of entries) {
        const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (entry.name !== '.git') next.push(rel);
          continue;
        }
        const symlink = entry.isSymbolicLink();
        if (!symlink && !entry.isFile()) continue;
        const kind = classifySessionFile(rel);
        // A plain file the listing hides needs no stat; a hidden symlink is still checked.
        if (kind === null && !symlink) continue;
        found.push({ rel, symlink, kind });
      }
    });
    await mapLimit(found, IO_CONCURRENCY, async ({ rel, symlink, kind }) => {
      const checked = statInside(realDir, rel);
      if (checked.ok) {
        if (kind === null) return;
        files.push({ path: rel, kind, stats: checked.value.stats });
      } else if (checked.refusal === 'UNSAFE_PATH') {
        unsafe.push(problem('UNSAFE_PATH', checked.message, rel));
      } else if (checked.refusal === 'UNREADABLE') {
        unsafe.push(problem('UNREADABLE_FILE', checked.message, rel));
      } else if (
        symlink &&
        checked.refusal === 'ABSENT' &&
        (await danglesOutside(realDir, rel, sync))
      ) {
        unsafe.push(
          problem('UNSAFE_PATH', `${rel} is a symlink leading outside the session directory`, rel),
        );
      }
    });
    level = next;
  }
  files.sort((a, b) => compareStrings(a.path, b.path));
  unsafe.sort((a, b) => compareStrings(a.file ?? '', b.file ?? ''));
  return { files, unsafe };
}

/** A dangling symlink cannot be realpath'd; judge where its text points instead. */
async function danglesOutside(realDir: string, rel: string, sync: boolean): Promise<boolean> {
  try {
    const full = path.join(realDir, rel);
    const link = sync ? readlinkSync(full) : await fsp.readlink(full);
    const target = path.resolve(path.dirname(full), link);
    return !isInside(realDir, target);
  } catch {
    return false;
  }
}

/**
 * The output file of a step: `output.txt`, else `content.md`. A candidate that escapes the
 * session or is not a regular file counts as absent; an escaping one is reported. Synchronous
 * metadata calls (see statInside); the promise keeps callers free to change that.
 */
export function findStepOutput(
  realDir: string,
  stepIndex: number,
): Promise<{ output: StepOutputInfo | null; problems: Problem[] }> {
  const problems: Problem[] = [];
  if (!Number.isSafeInteger(stepIndex)) return Promise.resolve({ output: null, problems });
  for (const file of ['output.txt', 'content.md'] as const) {
    const relPath = `.system_generated/steps/${stepIndex}/${file}`;
    const checked = statInside(realDir, relPath);
    if (checked.ok) {
      return Promise.resolve({
        output: { file, relPath, size: checked.value.stats.size },
        problems,
      });
    }
    const p = refusalProblem(checked.refusal, checked.message, relPath);
    if (p) problems.push(p);
  }
  return Promise.resolve({ output: null, problems });
}

/** A step's output file as listStepOutputs finds it. */
export interface StepOutputFile {
  step: number;
  relPath: string;
  size: number;
  /** Device, inode, size and mtime (../cache versionKey): another version is read again. */
  version: string;
}

const STEPS = '.system_generated/steps';

/**
 * What changes when a step folder comes or goes: the steps folder's mtime (a stat of the folder
 * itself, not followed through a link; '' when there is none).
 */
export function stepsFolderStamp(realDir: string): string {
  try {
    const st = lstatSync(path.join(realDir, STEPS));
    return `${st.ino}:${st.mtimeMs}`;
  } catch {
    return '';
  }
}

/**
 * Every step's output file (output.txt, else content.md, as Step.output reads), by step index:
 * only the folders Step.output reads (`steps/<step_index>/`; "05" is no step's), each file
 * through the containment gate. Metadata only.
 */
export function listStepOutputs(realDir: string): StepOutputFile[] {
  const out: StepOutputFile[] = [];
  let names: string[];
  try {
    names = readdirSync(path.join(realDir, STEPS));
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^(0|[1-9]\d{0,14})$/.test(name)) continue;
    for (const file of ['output.txt', 'content.md']) {
      const relPath = `${STEPS}/${name}/${file}`;
      const checked = statInside(realDir, relPath);
      if (!checked.ok) continue;
      const st = checked.value.stats;
      out.push({ step: Number(name), relPath, size: st.size, version: versionKey(versionOf(st)) });
      break;
    }
  }
  return out.sort((a, b) => a.step - b.step);
}

/**
 * Reads up to `length` bytes at `offset` of a file inside the session (short at end of file;
 * never allocates more than the file holds). Throws FileAccessError when the gate refuses the
 * path and RangeError for a negative or non-integer offset or length.
 */
export async function readFileRange(
  realDir: string,
  relPath: string,
  offset: number,
  length: number,
): Promise<Buffer> {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('offset must be >= 0');
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('length must be >= 0');
  const bad = nameProblem(relPath, true);
  if (bad) throw new FileAccessError('BAD_NAME', `${relPath}: ${bad}`);
  const opened = openInsideForRead(realDir, relPath);
  if (!opened.ok) throw new FileAccessError(opened.refusal, opened.message);
  const { handle, stats } = opened.value;
  try {
    const wanted = Math.max(0, Math.min(length, stats.size - offset));
    return wanted === 0 ? Buffer.alloc(0) : await readRange(handle, offset, wanted);
  } finally {
    await handle.close();
  }
}

/**
 * A file's mtime as a Date of this module's realm. `fs.Stats.mtime` is built by Node itself,
 * which inside a VM context (Jest's sandbox) fails `instanceof Date` in the DateTime scalar.
 */
export function dateOf(stats: Stats): Date {
  return new Date(stats.mtimeMs);
}

/** The one place bytes become text: invalid or cut UTF-8 sequences decode as U+FFFD. */
export function decodeUtf8(buf: Buffer): string {
  return buf.toString('utf8');
}
