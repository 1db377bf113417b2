import { Readable } from 'node:stream';
import { chunkEdges, chunkPlaceOf, type EdgeLine } from '../brain/transcript/chunk-edges';
import { marker, type Redactor } from '../redaction/redactor';
import type { SessionFile } from './session-file';

/**
 * A transcript chunk downloaded on its own is masked as part of its view. Its shares of the
 * lines it has in common with the chunks around it are masked with those lines whole (a
 * token's `ghp_` prefix, a `"password": "` key in the previous chunk) at the same length, and
 * those masked bytes stand for the file's own wherever the download reads them (whole, by
 * Range, or as a stream), before the download's usual masking.
 */

/** Bytes that stand for bytes [from, to) of the file. */
interface Patch {
  from: number;
  to: number;
  bytes: Buffer;
}

const NL = 0x0a;

/** The chunk's share of `edge`, masked with its whole line at the same length. */
function patchOf(edge: EdgeLine, redactor: Redactor): Patch {
  const length = edge.to - edge.from;
  let bytes: Buffer;
  if (edge.line) {
    const masked = Buffer.from(edge.line);
    redactor.maskBytes(masked);
    bytes = masked.subarray(edge.at, edge.at + length);
    // The line's newline stays where it was: the JSONL end rule looks for it.
    const original = edge.line.subarray(edge.at, edge.at + length);
    if (original[length - 1] === NL) bytes[length - 1] = NL;
  } else {
    // Too long a line to read whole: whatever its far part holds, this share is withheld.
    const mark = marker('unchecked');
    bytes = Buffer.from(mark.slice(0, length).padEnd(length, '*'), 'latin1');
  }
  return { from: edge.from, to: edge.to, bytes };
}

/** Overwrites `buf`, the file's bytes from `position`, with the patches it overlaps. */
function apply(patches: Patch[], buf: Buffer, position: number): Buffer {
  for (const p of patches) {
    const from = Math.max(p.from, position);
    const to = Math.min(p.to, position + buf.length);
    if (to > from) p.bytes.copy(buf, from - position, from - p.from, to - p.from);
  }
  return buf;
}

/** `file` with the patches standing for its bytes everywhere it is read. */
function patched(file: SessionFile, patches: Patch[], continues: boolean): SessionFile {
  return {
    size: file.size,
    identity: file.identity,
    continues,
    read: async (position, length) => apply(patches, await file.read(position, length), position),
    stream: (start, end) => {
      const source = file.stream(start, end);
      // Destroying the result ends the loop, which destroys (and so closes) the source.
      return Readable.from(
        (async function* () {
          let position = start;
          for await (const chunk of source as AsyncIterable<Buffer>) {
            yield apply(patches, chunk, position);
            position += chunk.length;
          }
        })(),
        { objectMode: false },
      );
    },
    close: () => file.close(),
  };
}

/**
 * `file` as a download must see it when it is a chunk of a transcript view and redaction is
 * on; else `file` itself. Its lines shared with the neighbouring chunks are masked whole (see
 * above), and a last line that goes on in the next chunk is marked as complete (`continues`).
 */
export async function inTranscriptView(
  realDir: string,
  file: SessionFile,
  redactor: Redactor,
): Promise<SessionFile> {
  if (!redactor.enabled) return file;
  const place = chunkPlaceOf(realDir, file.identity);
  if (!place) return file;
  const edges = await chunkEdges(realDir, place, file.size);
  const patches = [edges.head, edges.tail]
    .filter((e): e is EdgeLine => e !== null)
    .map((e) => patchOf(e, redactor));
  if (patches.length === 0 && !edges.continues) return file;
  return patched(file, patches, edges.continues);
}
