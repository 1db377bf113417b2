import type { Span } from './detector';
import type { Redactor } from './redactor';

/**
 * A line of one side of a diff: where its text starts in the side's text and in the diff, and
 * its length without the line break (a span over lines masks each line's text, not the breaks
 * and markers between them).
 */
interface Piece {
  side: number;
  diff: number;
  length: number;
}

/**
 * Spans (offsets in `diff`) of what each side of a unified diff reveals when read as the file
 * it shows: the old side (context and `-` lines) and the new side (context and `+` lines), each
 * line without its one-character marker. A secret laid out over lines (a .ppk's `Private-Lines:
 * N` and the N lines after it) is contiguous on one side only: in the diff, the added lines come
 * after the removed ones, away from the context line that announces them.
 */
export function diffSideSpans(r: Redactor, diff: string): Span[] {
  const out: Span[] = [];
  for (const sign of ['-', '+']) {
    const pieces: Piece[] = [];
    const parts: string[] = [];
    let length = 0;
    // The `---`/`+++` header lines come before the first hunk; after it a `---` is a removed
    // `--` line.
    let inHunks = false;
    for (let i = 0; i < diff.length;) {
      const nl = diff.indexOf('\n', i);
      const end = nl < 0 ? diff.length : nl + 1;
      const c = diff[i];
      if (c === '@' && diff.startsWith('@@', i)) inHunks = true;
      else if (inHunks && (c === ' ' || c === sign)) {
        const text = diff.slice(i + 1, end);
        pieces.push({ side: length, diff: i + 1, length: nl < 0 ? text.length : text.length - 1 });
        parts.push(text);
        length += text.length;
      }
      i = end;
    }
    if (pieces.length === 0) continue;
    let p = 0;
    for (const s of r.findSpans(parts.join(''))) {
      while (p < pieces.length && pieces[p].side + pieces[p].length < s.start) p++;
      for (let q = p; q < pieces.length && pieces[q].side < s.end; q++) {
        const piece = pieces[q];
        const start = Math.max(s.start, piece.side) - piece.side + piece.diff;
        const stop = Math.min(s.end, piece.side + piece.length) - piece.side + piece.diff;
        if (stop > start) out.push({ start, end: stop, kind: s.kind });
      }
    }
  }
  return out;
}
