import type { SessionEntry } from '../types';
import type { BrainStore } from '../store';
import { candidateLines } from './candidate-lines';
import { lineStepIndex } from '../../cli/source/raw-line';

/**
 * The line of the first record with this step_index, as written (unmasked): through the line
 * index and its candidates, so junk lines cost no parse. 'no-view': the session has no
 * transcript of that tier; null: no such record. Shared by `brainql raw` and its route.
 */
export async function recordLine(
  store: BrainStore,
  entry: SessionEntry,
  index: number,
  compact: boolean,
): Promise<Buffer | 'no-view' | null> {
  const views = await store.views(entry);
  const view = compact ? views.compact : (views.full ?? views.compact);
  if (!view) return 'no-view';
  const lines = await store.transcripts.index(entry.realDir, view);
  // Candidates in runs (candidate-lines.ts): junk lines cannot be sniffed, so each is one.
  for await (const { line, bytes } of candidateLines(lines, lines.candidates(index))) {
    if (bytes === null) {
      if (lines.sniff(line) === index) await lines.readLine(line); // throws RecordTooLargeError
      continue;
    }
    if (lineStepIndex(bytes) === index) return bytes;
  }
  return null;
}
