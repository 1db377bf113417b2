import { sniffStepIndex, SNIFF_UNKNOWN } from '../../brain/transcript/line-index';
import { lineShape } from '../../brain/transcript/records';

/**
 * `raw ID INDEX`: the first complete line of a view whose record has this step_index (the
 * record `session.step(index:)` answers with), as its bytes. One rule for both sources: the
 * local one walks the store's line index, the remote one the downloaded view.
 */

/** The step_index of a transcript line, or null when it is not a record with one. */
export function lineStepIndex(line: Buffer): number | null {
  // As the indexer and the server: only an object can be a record. A failed parse throws,
  // and a million junk lines cost seconds of exceptions. A line cut short while being written
  // names its step_index first but is no record (review 22: `raw ID 1` served such a broken
  // line 2 instead of step 1's record further on).
  if (lineShape(line) !== 'object') return null;
  const sniffed = sniffStepIndex(line);
  if (sniffed >= 0) return sniffed;
  if (sniffed !== SNIFF_UNKNOWN) return null;
  try {
    const v = JSON.parse(line.toString('utf8')) as { step_index?: unknown };
    return typeof v.step_index === 'number' && Number.isInteger(v.step_index) ? v.step_index : null;
  } catch {
    return null;
  }
}

/** The complete lines of `bytes` (an unfinished last line is not a record yet). */
export function* completeLines(bytes: Buffer): Generator<Buffer> {
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    if (nl === -1) return;
    yield bytes.subarray(start, nl);
    start = nl + 1;
  }
}

export function findLine(lines: Iterable<Buffer>, index: number): Buffer | null {
  for (const line of lines) if (lineStepIndex(line) === index) return line;
  return null;
}
