import type { SessionEntry } from '../types';
import type { BrainStore } from '../store';

/**
 * Line `line` (1-based, as Problem.line) of the session's transcript view named `file` (a
 * view's label: the compact or full file, or its chunks folder), as written (unmasked), without
 * its newline: what a data problem points at. 'no-view': `file` names no view of the session;
 * null: the view has no such line. An unfinished last line is read as it stands when
 * `unfinished`, else 'unfinished' (with REDACT=on it may hold the first half of a secret no
 * pattern matches yet, as downloads hold it back); a line over the record limit is not read
 * (RecordTooLargeError).
 */
export async function viewLine(
  store: BrainStore,
  entry: SessionEntry,
  file: string,
  line: number,
  unfinished: boolean,
): Promise<Buffer | 'no-view' | 'unfinished' | null> {
  const views = await store.views(entry);
  const view = [views.compact, views.full].find((v) => v?.label === file);
  if (!view) return 'no-view';
  const lines = await store.transcripts.index(entry.realDir, view);
  if (line >= 1 && line <= lines.count) return lines.readLine(line - 1);
  if (line === lines.count + 1 && lines.committedEnd < view.size) {
    return unfinished ? lines.readTail() : 'unfinished';
  }
  return null;
}
