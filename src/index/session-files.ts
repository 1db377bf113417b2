import * as fs from 'node:fs';
import * as path from 'node:path';
import { listArtifacts } from '../brain/artifacts';
import { decodeUtf8, readFileRange } from '../brain/files';
import { statInside } from '../brain/safe-path';

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
    if (!/^\d+$/.test(name)) continue;
    for (const file of ['output.txt', 'content.md']) {
      const relPath = `${STEPS}/${name}/${file}`;
      const checked = statInside(realDir, relPath);
      if (!checked.ok) continue;
      const st = checked.value.stats;
      out.set(Number(name), {
        relPath,
        size: st.size,
        version: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`,
      });
      break;
    }
  }
  return out;
}

/** artifact name -> its current file. */
export async function artifactFiles(realDir: string): Promise<Map<string, FileDoc>> {
  const out = new Map<string, FileDoc>();
  for (const a of (await listArtifacts(realDir)).artifacts) {
    out.set(a.name, {
      relPath: a.name,
      size: a.size,
      version: `${a.size}:${a.modifiedAt.getTime()}`,
    });
  }
  return out;
}

/** The file's text (up to MAX_FILE_TEXT_BYTES); '' when it cannot be read any more. */
export async function readText(realDir: string, doc: FileDoc): Promise<string> {
  try {
    return decodeUtf8(
      await readFileRange(realDir, doc.relPath, 0, Math.min(doc.size, MAX_FILE_TEXT_BYTES)),
    );
  } catch {
    return '';
  }
}
