import { readViewRange } from './scanner';
import { chunkView, type ViewSource } from './view';
import { lastNewline } from './whole-lines';

/**
 * Where a chunk file sits in its transcript view, and the lines it shares with its
 * neighbours. Chunks are byte slices of one stream, so a line may start in one chunk and end
 * in the next: a chunk read on its own starts with the end of a line whose beginning (a
 * secret's prefix, its key) is elsewhere. Whoever serves a chunk alone needs those lines
 * whole to judge the chunk's part of them.
 */

/**
 * Most bytes of one line read to judge a chunk's share of it. A longer line is not read: the
 * share is to be withheld as unchecked (what its far part holds is out of reach).
 */
export const EDGE_LINE_MAX = 4 * 1024 * 1024;
/** Bytes read per step while looking ahead for a newline. */
const STEP = 64 * 1024;
const NL = 0x0a;

export interface ChunkPlace {
  view: ViewSource;
  /** The chunk's segment in `view`. */
  index: number;
  /** The view offset of the chunk's first byte. */
  base: number;
}

/**
 * The chunked transcript view (compact or full) holding the file with this identity (device
 * and inode, so that a second name for the chunk, a hard link or a symlinked folder, is found
 * too), or null. A chunks folder shadowed by a transcript file of its kind still counts: its
 * chunks are downloadable all the same.
 */
export function chunkPlaceOf(
  realDir: string,
  file: { dev: number; ino: number },
): ChunkPlace | null {
  const folders = [
    ['compact', 'transcript'],
    ['full', 'transcript_full'],
  ] as const;
  for (const [kind, folder] of folders) {
    const view = chunkView(realDir, kind, folder, []);
    if (!view) continue;
    let base = 0;
    for (const [index, s] of view.segments.entries()) {
      if (s.version.dev === file.dev && s.version.ino === file.ino) return { view, index, base };
      base += s.version.size;
    }
  }
  return null;
}

/** A chunk's share of a line that crosses one of its edges. */
export interface EdgeLine {
  /** The share: bytes [from, to) of the chunk. */
  from: number;
  to: number;
  /** The whole line, newline included; null when it is longer than the bound (unchecked). */
  line: Buffer | null;
  /** Where the share starts in `line`. */
  at: number;
  /** The line runs to the view's end without a newline: it is still being written. */
  open: boolean;
}

export interface ChunkEdges {
  /** The end of a line begun in an earlier chunk (up to its newline, or the whole chunk). */
  head: EdgeLine | null;
  /** The beginning of a line that goes on in the next chunk (when it is not the head too). */
  tail: EdgeLine | null;
  /** The chunk's last line goes on in the next chunk: it is complete, not being written. */
  continues: boolean;
}

type Read = (start: number, end: number) => Promise<Buffer>;

/** The offset of the first newline in [start, end), or -1. */
async function newlineAfter(read: Read, start: number, end: number): Promise<number> {
  for (let at = start; at < end; at += STEP) {
    const bytes = await read(at, Math.min(end, at + STEP));
    const nl = bytes.indexOf(NL);
    if (nl >= 0) return at + nl;
  }
  return -1;
}

/** The offset of the last newline in [start, end), or -1. */
function newlineBefore(read: Read, end: number, start: number): Promise<number> {
  return lastNewline((position, length) => read(position, position + length), end, start);
}

/**
 * The line around view bytes [from, to) (which hold no newline but maybe their last byte),
 * read whole when it fits in `max` bytes; `base` turns view offsets into the chunk's.
 */
async function edgeLine(
  read: Read,
  viewSize: number,
  base: number,
  [from, to]: [number, number],
  max: number,
): Promise<EdgeLine> {
  const unchecked: EdgeLine = { from: from - base, to: to - base, line: null, at: 0, open: false };
  if (to - from > max) return unchecked;
  const backTo = Math.max(0, to - max);
  const before = await newlineBefore(read, from, backTo);
  if (before < 0 && backTo > 0) return unchecked;
  const lineStart = before + 1;
  // From the share's last byte: it is the newline when the line ends inside the chunk.
  const aheadTo = Math.min(viewSize, lineStart + max);
  const after = await newlineAfter(read, to - 1, aheadTo);
  if (after < 0 && aheadTo < viewSize) return unchecked;
  // No newline up to the view's end: the view's last line, unfinished, is the context.
  const lineEnd = after < 0 ? viewSize : after + 1;
  const line = await read(lineStart, lineEnd);
  return { ...unchecked, line, at: from - lineStart, open: after < 0 };
}

/**
 * The lines chunk `place` shares with its neighbours, judged over the first `size` bytes of
 * the chunk (what is being served of it; a chunk that grew or shrank since the view was
 * located is not said to continue, so its last line stays unfinished). Throws
 * UnreadableViewError when a chunk is replaced while being read.
 */
export async function chunkEdges(
  realDir: string,
  place: ChunkPlace,
  size: number,
  max = EDGE_LINE_MAX,
): Promise<ChunkEdges> {
  const { view, index, base } = place;
  const segSize = view.segments[index].version.size;
  const own = Math.min(size, segSize);
  const read: Read = (start, end) => readViewRange(realDir, view, start, end);
  const end = base + own;
  if (own === 0) return { head: null, tail: null, continues: false };
  const isLast = index === view.segments.length - 1;
  const endsMid = !isLast && size === segSize && (await read(end - 1, end))[0] !== NL;
  let head: EdgeLine | null = null;
  if (base > 0 && (await read(base - 1, base))[0] !== NL) {
    const nl = await newlineAfter(read, base, end);
    head = await edgeLine(read, view.size, base, [base, nl < 0 ? end : nl + 1], max);
  }
  let tail: EdgeLine | null = null;
  if (endsMid) {
    const lastNl = await newlineBefore(read, end, base);
    const tailFrom = lastNl < 0 ? base : lastNl + 1;
    // A chunk without a newline is all head: its line's continuation was read with it.
    if (!head || tailFrom >= base + head.to)
      tail = await edgeLine(read, view.size, base, [tailFrom, end], max);
  }
  // The last line goes on in the next chunks; if they end before its newline (empty chunks
  // after it, or a next chunk still being written), it is the view's unfinished line.
  const last = tail ?? head;
  const continues = endsMid && last !== null && !last.open;
  return { head, tail, continues };
}
