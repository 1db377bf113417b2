import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Redactor } from './redactor';
import { continuationEnd } from './spanning';
import { mergeSpans } from './spans';
import type { Span } from './patterns';

/** Text kept on each side of the part being emitted, so secrets across chunks are seen. */
export const STREAM_CONTEXT = 16 * 1024;
/** Most text emitted per step; with the context held back a step reads at most 80 KiB. */
export const STREAM_STEP = 48 * 1024;

/**
 * How far past its cut a step's findings are kept for the next step, which reads that text
 * from a later start. Two readings of a chain meet at the cut only: past it the next step's
 * reading holds on its own, so a short stretch closes the gap without masking a long stretch
 * twice. Each kept finding had at least 15 KiB of lookahead after it.
 */
const SEAM = 1024;

/**
 * Where to end the part emitted this step: after the last newline before `limit` that is not
 * inside a secret (secrets then reach the client whole, with one marker each); failing that
 * `limit` itself, or the start of the secret that crosses it. A secret longer than a step is
 * cut: both parts are masked.
 */
function chooseCut(
  text: string,
  from: number,
  limit: number,
  spans: readonly { start: number; end: number }[],
): number {
  const inside = (c: number) => spans.find((s) => s.start < c && c < s.end);
  let nl = text.lastIndexOf('\n', limit - 1);
  while (nl >= from) {
    const s = inside(nl + 1);
    if (!s) return nl + 1;
    nl = text.lastIndexOf('\n', s.start - 1);
  }
  const s = inside(limit);
  let cut = s && s.start > from ? s.start : limit;
  // Never split a surrogate pair.
  const c = text.charCodeAt(cut - 1);
  if (cut > from + 1 && c >= 0xd800 && c <= 0xdbff) cut--;
  return cut;
}

/**
 * A Transform from the bytes of a text file to its redacted text as UTF-8 bytes, for file
 * downloads. Input is decoded as UTF-8 across chunk edges (invalid bytes become U+FFFD, so
 * the output equals the input for valid UTF-8 without secrets). Each step emits up to
 * STREAM_STEP characters, ending at a newline when it can, and holds back STREAM_CONTEXT
 * characters of lookahead; the last STREAM_CONTEXT characters already emitted are kept as
 * lookbehind. So a secret split across chunks is still seen whole, and memory stays about
 * 80 KiB plus one input chunk whatever the file size. A secret cut by a step whose start
 * then drops out of the lookbehind (longer than STREAM_CONTEXT) is carried over: the next
 * step masks its continuation (./spanning), so a long secret never shows in pieces; a
 * secret cut by a step shows one marker, in the part where it starts.
 * Disabled: a PassThrough (bytes untouched). `encoding` 'utf16le' reads and writes UTF-16
 * (little-endian) instead, for UTF-16 text files.
 */
export function createRedactStream(
  redactor: Redactor,
  encoding: 'utf8' | 'utf16le' = 'utf8',
): Transform {
  if (!redactor.enabled) return new PassThrough();
  const decoder = new StringDecoder(encoding);
  let behind = ''; // raw text already emitted (context)
  let pending = ''; // raw text not yet emitted
  let carried: string | null = null; // kind of the secret the last cut fell inside
  let seen: Span[] = []; // spans the last step found just past its cut (next step's offsets)

  const step = (stream: Transform, final: boolean): void => {
    while (pending.length >= STREAM_STEP + STREAM_CONTEXT || (final && pending.length > 0)) {
      const ahead = pending.slice(0, STREAM_STEP + STREAM_CONTEXT);
      const text = behind + ahead;
      const from = behind.length;
      const last = final && pending.length <= STREAM_STEP + STREAM_CONTEXT;
      const limit = last ? text.length : from + STREAM_STEP;
      let spans = redactor.findSpans(text);
      // The secret the last cut fell inside was shown as its marker: its rest shows nothing
      // and is not counted again (review r12: `pwd=ab` repeated over 1 MB, one value, was 22
      // markers here and 1 in the decoded record).
      const continued = carried !== null;
      if (carried !== null && !spans.some((s) => s.start < from && s.end > from)) {
        const end = continuationEnd(text, from, carried);
        if (end > from) spans = mergeSpans([...spans, { start: from, end, kind: carried }]);
      }
      // What the last step found just past its cut, it read with more text before: a chain
      // whose reading depends on where it starts (`password: \\t` repeated, each value the next
      // key) reads shifted from this step's start, which left one value clear at the seam
      // (review r13 M3). Both readings are masked there.
      if (seen.length > 0) spans = mergeSpans([...spans, ...seen]);
      const cut = last ? limit : chooseCut(text, from, limit, spans);
      carried = spans.find((s) => s.start < cut && s.end > cut)?.kind ?? null;
      const next = Math.min(cut, STREAM_CONTEXT);
      seen = [];
      for (const s of spans) {
        if (s.start >= cut && s.start < cut + SEAM && s.end <= text.length - SEAM)
          seen.push({ start: s.start - cut + next, end: s.end - cut + next, kind: s.kind });
      }
      stream.push(Buffer.from(redactor.mask(text, spans, from, cut, continued), encoding));
      behind = text.slice(Math.max(0, cut - STREAM_CONTEXT), cut);
      pending = pending.slice(cut - from);
    }
  };

  return new Transform({
    transform(
      this: Transform,
      chunk: Buffer | string,
      _enc: BufferEncoding,
      cb: TransformCallback,
    ) {
      try {
        pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
        step(this, false);
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
    flush(this: Transform, cb: TransformCallback) {
      try {
        pending += decoder.end();
        step(this, true);
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
  });
}
