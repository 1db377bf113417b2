import type { Stats } from 'node:fs';
import { listStepOutputs, readFileRange, walkSessionFiles } from '../brain/files';
import { isVerifiablyBinary, SNIFF_BYTES } from '../http/content-kind';
import { compareStrings } from '../brain/problems';
import { versionKey, versionOf } from '../brain/cache';
import { statInside } from '../brain/safe-path';
import { isUtf8 } from 'node:buffer';
import { decodeText, utf16Of } from '../brain/utf16';
import type { ByteReading } from './redacted-texts';

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

/** step_index -> its output file (output.txt, else content.md, as Step.output reads). */
export function stepOutputs(realDir: string): Map<number, FileDoc> {
  return new Map(listStepOutputs(realDir).map(({ step, ...doc }) => [step, doc]));
}

function docOf(relPath: string, st: Stats): FileDoc {
  return { relPath, size: st.size, version: versionKey(versionOf(st)) };
}

/** The artifacts' sidecars and versions: served by the file route, listed by no field. */
const ARTIFACT_COMPANION = /\.md(\.resolved(\.\d+)?|\.metadata\.json)$/;

/**
 * The files besides transcripts and step outputs that the index reads, each by its path:
 * `artifacts`, the root's `*.md` files as listArtifacts finds them (searched); `others`, every
 * other file the file route serves (counted in the secrets report, not searched): the
 * artifacts' sidecars and `.resolved` versions, uploads, scratch files, task logs, media and
 * messages, as the Session.files walk finds them (no symlinked folder entered). From metadata
 * alone: every folder is read once (the root's listing serves both) and every file stated once.
 */
export async function namedFiles(
  realDir: string,
): Promise<{ artifacts: Map<string, FileDoc>; others: Map<string, FileDoc> }> {
  const artifacts = new Map<string, FileDoc>();
  const others = new Map<string, FileDoc>();
  // The walk's own listing of the root names the artifacts too: the root is read once.
  const names: string[] = [];
  // Small levels listed with synchronous calls: each async readdir was a round trip through
  // the thread pool (the bench home's first build: its walk stage 2.6-3.5 s, 0.7-1.1 s so).
  const walked = await walkSessionFiles(realDir, names, true);
  for (const name of names.sort(compareStrings)) {
    const artifact = name.endsWith('.md');
    if (!artifact && !ARTIFACT_COMPANION.test(name)) continue;
    const checked = statInside(realDir, name);
    if (checked.ok) (artifact ? artifacts : others).set(name, docOf(name, checked.value.stats));
  }
  for (const f of walked.files) others.set(f.path, docOf(f.path, f.stats));
  return { artifacts, others: new Map([...others].sort(([a], [b]) => compareStrings(a, b))) };
}

/** Read past the cap so a secret cut by it is still seen whole by the redactor. */
export const CUT_CONTEXT_BYTES = 64 * 1024;

export interface FileText {
  text: string;
  /** The file goes on past MAX_FILE_TEXT_BYTES: `text` holds context past the cut. */
  cut: boolean;
  /** How the download masks these bytes (see ByteReading): the index counts what it masks. */
  reading: ByteReading;
}

/**
 * The file's text as its download is masked, up to MAX_FILE_TEXT_BYTES plus CUT_CONTEXT_BYTES
 * (see `cutEnd`): UTF-16 is decoded as such, bytes that are verifiably binary are read as
 * Latin-1. '' when the file cannot be read any more.
 */
export async function readText(realDir: string, doc: FileDoc): Promise<FileText> {
  try {
    const wanted = Math.min(doc.size, MAX_FILE_TEXT_BYTES + CUT_CONTEXT_BYTES);
    const bytes = await readFileRange(realDir, doc.relPath, 0, wanted);
    const binary = isVerifiablyBinary(bytes.subarray(0, SNIFF_BYTES));
    const cut = doc.size > MAX_FILE_TEXT_BYTES;
    if (binary) return { text: bytes.toString('latin1'), cut, reading: 'binary' };
    if (utf16Of(bytes)) return { text: decodeText(bytes), cut, reading: 'decoded' };
    // The read may end inside a character: judged without its last three bytes.
    const whole = cut ? bytes.subarray(0, Math.max(0, bytes.length - 3)) : bytes;
    return { text: decodeText(bytes), cut, reading: isUtf8(whole) ? 'utf8' : 'other' };
  } catch {
    return { text: '', cut: false, reading: 'decoded' };
  }
}

/**
 * Where a text read past the cap is cut, in the raw text (`spans`: what the redactor masks in
 * all of it, sorted): at MAX_FILE_TEXT_BYTES code units, or past a secret the mark goes through,
 * so that secret is stored masked whole and counted (review M3: the cut was made in the masked
 * text, whose markers move the mark off the raw text's 8 MiB, so a secret across it could be
 * masked in the download and not counted), and never inside a surrogate pair.
 */
export function cutEnd(raw: string, spans: readonly { start: number; end: number }[]): number {
  let end = Math.min(raw.length, MAX_FILE_TEXT_BYTES);
  for (const s of spans) {
    if (s.start >= end) break;
    if (s.end > end) end = s.end;
  }
  if (end < raw.length && /[\uDC00-\uDFFF]/.test(raw[end] ?? '')) end++;
  return end;
}
