import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8, listSessionFiles, readFileRange } from '../brain/files';
import { isVerifiablyBinary } from '../http/content-kind';
import { compareStrings } from '../brain/problems';
import { versionKey, versionOf } from '../brain/cache';
import { statInside } from '../brain/safe-path';
import { decodeUtf16, utf16Of } from '../redaction/bytes';

/**
 * The files besides the transcript that the index searches: step outputs (OUTPUT) and the
 * current content of artifacts (ARTIFACT), each with a version string that says when to read
 * it again. Only metadata is touched here; texts are read by `readText`.
 */

/** Texts past this many bytes are indexed up to it (a step output can be a whole log). */
export const MAX_FILE_TEXT_BYTES = 8 * 1024 * 1024;

export interface FileDoc {
  relPath: string;
  size: number;
  version: string;
}

const STEPS = '.system_generated/steps';

/** step_index -> its output file (output.txt, else content.md, as Step.output reads). */
export function stepOutputs(realDir: string): Map<number, FileDoc> {
  const out = new Map<number, FileDoc>();
  let names: string[];
  try {
    names = fs.readdirSync(path.join(realDir, STEPS));
  } catch {
    return out;
  }
  for (const name of names) {
    // Only the folder Step.output reads: `steps/<step_index>/` ("05" is no step's).
    if (!/^(0|[1-9]\d{0,14})$/.test(name)) continue;
    for (const file of ['output.txt', 'content.md']) {
      const relPath = `${STEPS}/${name}/${file}`;
      const checked = statInside(realDir, relPath);
      if (!checked.ok) continue;
      const st = checked.value.stats;
      out.set(Number(name), { relPath, size: st.size, version: versionKey(versionOf(st)) });
      break;
    }
  }
  return out;
}

/**
 * artifact name -> its current file: the root's `*.md` files, as listArtifacts finds them,
 * from metadata alone (their sidecars are not read: the index does not search them).
 */
export async function artifactFiles(realDir: string): Promise<Map<string, FileDoc>> {
  const out = new Map<string, FileDoc>();
  let names: string[];
  try {
    names = await fs.promises.readdir(realDir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => n.endsWith('.md')).sort(compareStrings)) {
    const checked = statInside(realDir, name);
    if (!checked.ok) continue;
    const st = checked.value.stats;
    out.set(name, { relPath: name, size: st.size, version: versionKey(versionOf(st)) });
  }
  return out;
}

/** The artifacts' sidecars and versions: served by the file route, listed by no field. */
const ARTIFACT_COMPANION = /\.md(\.resolved(\.\d+)?|\.metadata\.json)$/;

/**
 * path -> every other file the file route serves, whose secrets the secrets report counts
 * (not searched): uploads, scratch files, task logs, media, messages, and the artifacts'
 * sidecars and `.resolved` versions. Transcripts, step outputs and the artifacts themselves
 * have fields of their own. The walk is the Session.files one (no symlinked folder entered).
 */
export async function otherFiles(realDir: string): Promise<Map<string, FileDoc>> {
  const out = new Map<string, FileDoc>();
  const add = (relPath: string) => {
    const checked = statInside(realDir, relPath);
    if (!checked.ok) return;
    const st = checked.value.stats;
    out.set(relPath, { relPath, size: st.size, version: versionKey(versionOf(st)) });
  };
  let names: string[] = [];
  try {
    names = await fs.promises.readdir(realDir);
  } catch {
    return out;
  }
  for (const name of names.filter((n) => ARTIFACT_COMPANION.test(n)).sort(compareStrings))
    add(name);
  const { files } = await listSessionFiles(realDir);
  for (const file of files) add(file.path);
  return new Map([...out].sort(([a], [b]) => compareStrings(a, b)));
}

/**
 * A file's text as the download route masks it (see `readText`), except that a file whose
 * bytes are verifiably binary is read as Latin-1, as its download is masked.
 */
export async function readServedText(realDir: string, doc: FileDoc): Promise<FileText> {
  try {
    const wanted = Math.min(doc.size, MAX_FILE_TEXT_BYTES + CUT_CONTEXT_BYTES);
    const bytes = await readFileRange(realDir, doc.relPath, 0, wanted);
    const binary = isVerifiablyBinary(bytes.subarray(0, 8192));
    return {
      text: binary ? bytes.toString('latin1') : decode(bytes),
      cut: doc.size > MAX_FILE_TEXT_BYTES,
    };
  } catch {
    return { text: '', cut: false };
  }
}

/** Read past the cap so a secret cut by it is still seen whole by the redactor. */
export const CUT_CONTEXT_BYTES = 64 * 1024;

export interface FileText {
  text: string;
  /** The file goes on past MAX_FILE_TEXT_BYTES: `text` holds context past the cut. */
  cut: boolean;
}

/**
 * The file's text, up to MAX_FILE_TEXT_BYTES plus CUT_CONTEXT_BYTES (see `cutText`); UTF-16
 * is decoded as such. '' when the file cannot be read any more.
 */
export async function readText(realDir: string, doc: FileDoc): Promise<FileText> {
  try {
    const wanted = Math.min(doc.size, MAX_FILE_TEXT_BYTES + CUT_CONTEXT_BYTES);
    const bytes = await readFileRange(realDir, doc.relPath, 0, wanted);
    return { text: decode(bytes), cut: doc.size > MAX_FILE_TEXT_BYTES };
  } catch {
    return { text: '', cut: false };
  }
}

/** As downloads tell it (src/redaction/bytes.ts): UTF-16 by its mark or its NULs, else UTF-8. */
function decode(bytes: Buffer): string {
  const utf16 = utf16Of(bytes);
  return utf16 ? decodeUtf16(bytes, utf16).replace(/^\uFEFF/, '') : decodeUtf8(bytes);
}

/**
 * A masked text cut to MAX_FILE_TEXT_BYTES code units, never inside a marker: the redactor saw
 * the context past the cut, so a secret the cut goes through is masked whole, not kept in part.
 */
export function cutText(masked: string): string {
  let end = Math.min(masked.length, MAX_FILE_TEXT_BYTES);
  const open = masked.lastIndexOf('[REDACTED:', end);
  if (open !== -1) {
    const close = masked.indexOf(']', open);
    if (close !== -1 && close >= end) end = close + 1;
  }
  if (end < masked.length && /[\uDC00-\uDFFF]/.test(masked[end] ?? '')) end++;
  return masked.slice(0, end);
}
