import type { LineIndex } from './line-index';
import { readViewRange } from './scanner';

/** Bytes read at once when consecutive candidate lines are short. */
const BATCH_BYTES = 1 << 20;

export interface CandidateLine {
  /** 0-based line number. */
  line: number;
  /** The line's bytes; null for a line longer than the index's cap (never read). */
  bytes: Buffer | null;
}

/**
 * The lines `lines` (ascending 0-based numbers) of `index`, in order, reading runs of
 * consecutive short lines in one read of at most BATCH_BYTES (or one line). A transcript of a
 * million junk lines has a million candidates (their step_index cannot be sniffed): read one
 * by one, `raw` took minutes; in runs it is a few reads per MiB, in bounded memory.
 */
export async function* candidateLines(
  index: LineIndex,
  lines: readonly number[],
): AsyncGenerator<CandidateLine> {
  let k = 0;
  while (k < lines.length) {
    const first = lines[k];
    if (index.lineBytes(first) > index.maxLineBytes) {
      yield { line: first, bytes: null };
      k++;
      continue;
    }
    const [start] = index.range(first);
    let last = k;
    while (
      last + 1 < lines.length &&
      lines[last + 1] === lines[last] + 1 &&
      index.range(lines[last + 1])[1] - start <= BATCH_BYTES
    ) {
      last++;
    }
    const end = index.range(lines[last])[1];
    const run = await readViewRange(index.realDir, index.view, start, end);
    for (let j = k; j <= last; j++) {
      const [s, e] = index.range(lines[j]);
      yield { line: lines[j], bytes: run.subarray(s - start, e - start) };
    }
    k = last + 1;
  }
}
