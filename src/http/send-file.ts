import { pipeline, type Readable, type Transform } from 'node:stream';
import type { Request, Response } from 'express';
import { wholeLinesEnd } from '../brain/transcript/whole-lines';
import { utf16Of, type Utf16 } from '../redaction/bytes';
import { offloadOf } from '../offload/redact-pool';
import { createRedactStream } from '../redaction/stream';
import type { Redactor } from '../redaction/redactor';
import { contentTypeOf, isVerifiablyBinary, SNIFF_BYTES } from './content-kind';
import { parseRange } from './file-path';
import { KEY_BLOCK_MAX, KeyBlockMask } from './key-blocks';
import { maskBinary, maskText, withValues } from './masked-body';
import type { SessionFile } from './session-file';
import { maskUtf16Stream } from './utf16-stream';

/** Files up to this size are masked in memory, keeping Content-Length and Range. */
const REDACT_IN_MEMORY = 8 * 1024 * 1024;

/** Charges the caller for `bytes` about to be sent; throws (429) when over the rate limit. */
export type Charge = (bytes: number) => void;
/**
 * Waits for room among the large values in flight before a file of `bytes` is read whole;
 * throws (429) when none comes in time.
 */
export type Admit = (bytes: number) => Promise<void>;

interface Download {
  req: Request;
  res: Response;
  name: string;
  file: SessionFile;
  charge: Charge;
  /** The session's secret values (../steps/session-values), masked wherever they show. */
  values: ReadonlyMap<string, string>;
}

function commonHeaders(res: Response, type: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Brain files are untrusted: an HTML page an agent saved must not run in our origin.
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
}

/**
 * Answers a `Range` request over a representation of `size` bytes: sets the status and the
 * range headers and returns the inclusive byte span to send, or null when it answered 416.
 */
function applyRange(
  req: Request,
  res: Response,
  size: number,
): { start: number; end: number } | null {
  const range = parseRange(req.headers.range, size);
  res.setHeader('Accept-Ranges', 'bytes');
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${size}`).end();
    return null;
  }
  if (range)
    res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  const span = range ?? { start: 0, end: size - 1 };
  res.setHeader('Content-Length', String(span.end - span.start + 1));
  return span;
}

/** Bytes a GET sends (a HEAD sends none), charged before anything is sent. */
function charged(d: Download, bytes: number): boolean {
  const sending = d.req.method === 'HEAD' ? 0 : bytes;
  d.charge(sending);
  return sending > 0;
}

/**
 * Streams `source` through `transforms` into the response. pipeline() destroys every stream
 * when the client goes away, so the file is closed at once rather than when collected.
 */
function stream(res: Response, source: Readable, transforms: Transform[] = []): void {
  pipeline([source, ...transforms, res], (err) => {
    if (err) res.destroy();
  });
}

/** A file small enough to mask in memory: exact Content-Length, and Range over the masked bytes. */
async function sendMasked(d: Download, redactor: Redactor, binary: boolean): Promise<void> {
  const raw = await d.file.read(0, d.file.size);
  const inThread = () =>
    binary ? { body: maskBinary(raw, redactor), utf8: false } : maskText(raw, redactor);
  // A large file in a worker, its bytes moved there and back (review 15: an 8 MB file of
  // `password:\u00a0…` held the event loop 2.4 s).
  const pool = offloadOf(redactor);
  const { body: masked, utf8 } = withValues(
    pool?.takes(raw.length) ? await pool.maskFile(raw, binary, inThread) : inThread(),
    redactor,
    d.values,
  );
  commonHeaders(d.res, contentTypeOf(d.name, binary, utf8));
  const span = applyRange(d.req, d.res, masked.length);
  if (!span) return;
  const body = masked.subarray(span.start, span.end + 1);
  d.res.end(charged(d, body.length) ? body : undefined);
}

/** A large text file: masked as it streams (UTF-16 too), so no Content-Length and no Range. */
function sendMaskedStream(d: Download, redactor: Redactor, utf16: Utf16 | null): boolean {
  commonHeaders(d.res, contentTypeOf(d.name, false, !utf16));
  d.res.setHeader('Accept-Ranges', 'none');
  d.res.status(200);
  if (!charged(d, d.file.size)) {
    d.res.end();
    return false;
  }
  const masks = utf16
    ? maskUtf16Stream(redactor, utf16)
    : [createRedactStream(redactor, 'utf8', d.values)];
  stream(d.res, d.file.stream(0, d.file.size - 1), masks);
  return true;
}

/**
 * A large binary file, or any file with redaction off: its bytes with Range. With a redactor,
 * key blocks and secrets are masked at the same length as the bytes stream (./key-blocks); the
 * read then starts and ends a block's length around the range, so a secret crossing its edges
 * is seen whole.
 */
function sendBytes(d: Download, binary: boolean, redactor: Redactor | null): boolean {
  const { res, file } = d;
  commonHeaders(res, contentTypeOf(d.name, binary, !binary));
  const span = applyRange(d.req, res, file.size);
  if (!span) return false;
  if (!charged(d, span.end - span.start + 1)) {
    res.end();
    return false;
  }
  if (!redactor) {
    stream(res, file.stream(span.start, span.end));
    return true;
  }
  const from = Math.max(0, span.start - KEY_BLOCK_MAX);
  const to = Math.min(file.size - 1, span.end + KEY_BLOCK_MAX);
  stream(res, file.stream(from, to), [
    new KeyBlockMask(span.start - from, span.end - span.start + 1, redactor),
  ]);
  return true;
}

/** Set on a masked JSONL download to the bytes of its unfinished last line, held back. */
export const HELD_BACK_HEADER = 'X-Held-Back-Bytes';

/**
 * A JSONL file (a transcript) up to its last newline. Its unfinished last line is being
 * written: it may hold the first half of a secret, which no pattern matches yet, so with
 * redaction on it is held back until its newline comes, as the push client does, and the
 * answer says how many bytes were.
 */
async function wholeLinesOnly(res: Response, file: SessionFile): Promise<SessionFile> {
  const end = await wholeLinesEnd((position, length) => file.read(position, length), file.size);
  if (end === file.size) return file;
  res.setHeader(HELD_BACK_HEADER, String(file.size - end));
  return { ...file, size: end };
}

/**
 * Sends an opened file. With redaction on, every file is masked as text (in memory up to
 * REDACT_IN_MEMORY, else as a stream) unless its content is verifiably binary; binary files
 * are masked at the same length (in memory up to REDACT_IN_MEMORY, else as they stream). With
 * REDACT=off the operator asked for raw bytes: every file goes out as it is. With redaction on,
 * a JSONL file ends at its last newline (wholeLinesOnly), but for a transcript chunk whose
 * last line goes on in the next chunk (`continues`, see ./chunk-file). `values`: the session's
 * secret values (../steps/session-values), masked wherever they show in a text file besides
 * its own findings (UTF-8; not in a UTF-16 or binary one).
 */
export async function sendFile(
  req: Request,
  res: Response,
  name: string,
  opened: SessionFile,
  redactor: Redactor,
  charge: Charge,
  admit: Admit = () => Promise.resolve(),
  values: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  let file = opened;
  let streaming = false;
  try {
    const head = await file.read(0, Math.min(SNIFF_BYTES, file.size));
    const binary = isVerifiablyBinary(head);
    // A chunk's last line that goes on in the next chunk is complete (masked with its end).
    const unfinished = !file.continues;
    if (redactor.enabled && !binary && name.endsWith('.jsonl') && !utf16Of(head) && unfinished)
      file = await wholeLinesOnly(res, file);
    const d: Download = { req, res, name, file, charge, values };
    if (!redactor.enabled) streaming = sendBytes(d, binary, null);
    else if (file.size <= REDACT_IN_MEMORY) {
      await admit(file.size);
      await sendMasked(d, redactor, binary);
    } else if (binary) streaming = sendBytes(d, binary, redactor);
    else streaming = sendMaskedStream(d, redactor, utf16Of(head));
  } finally {
    // A stream closes the file itself when it ends or is destroyed; otherwise it is ours.
    if (!streaming) await opened.close();
  }
}
