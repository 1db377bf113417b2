import type { Transcripts } from '../brain/transcript/transcript';
import { isAppendOnly, type ViewSource } from '../brain/transcript/view';
import type { Tables } from './sqlite/tables';

/**
 * The full view's line index, kept in the index database: after a restart, the twins of lines
 * appended since are found reading only the appended bytes of the full transcript, not all
 * of it again. Only indexes the store made (sessions with truncated records) are kept.
 */

/** Gives the store the kept index, when it has none and the file only grew since. */
export function seedLineIndex(
  t: Tables,
  transcripts: Transcripts,
  sid: number,
  dir: string,
  full: ViewSource | null,
): void {
  if (!full || transcripts.hasIndex(dir, full)) return;
  const kept = t.lineIndex(sid);
  if (kept && isAppendOnly(kept.view, full)) transcripts.seedIndex(dir, kept);
}

/** Keeps the store's index of the full view when it covers more than the kept one. */
export async function keepLineIndex(
  t: Tables,
  transcripts: Transcripts,
  sid: number,
  dir: string,
  full: ViewSource | null,
): Promise<void> {
  if (!full) return;
  const snap = await transcripts.indexSnapshot(dir, full);
  if (snap && JSON.stringify(snap.view) !== t.lineIndexView(sid)) t.putLineIndex(sid, snap);
}
