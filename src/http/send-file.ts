import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { Request, Response } from 'express';
import { lookup } from 'mime-types';
import { readRange } from '../brain/safe-read';
import { createRedactStream } from '../redaction/stream';
import type { Redactor } from '../redaction/redactor';
import { parseRange } from './file-path';

/** Text files up to this size are redacted in memory, keeping Content-Length and Range. */
const REDACT_IN_MEMORY = 8 * 1024 * 1024;
const SNIFF = 8192;

/**
 * Looks like text: no NUL in the first bytes and not a known binary type. Files without a
 * telling name (`.env`, `Makefile`, scratch scripts) are judged by their bytes, so secrets in
 * them are masked too.
 */
function isText(type: string | false, head: Buffer): boolean {
  if (head.includes(0)) return false;
  if (!type) return true;
  return /^text\/|[/+](json|xml|javascript|yaml|x-sh|x-python|toml|csv|markdown)|x-ndjson/.test(
    type,
  );
}

function commonHeaders(res: Response, type: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Brain files are untrusted: an HTML page an agent saved must not run in our origin.
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
}

/**
 * Answers a single `Range` request over a representation of `size` bytes: sets the status and
 * the range headers and returns the inclusive byte span to send, or null when it answered 416.
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
  res.setHeader('Content-Length', String(Math.max(0, span.end - span.start + 1)));
  return span;
}

/**
 * Streams an opened file: binary files as they are (with Range), text files with secrets
 * masked (small ones in memory so Content-Length and Range still hold; big ones as a chunked,
 * redacting stream with bounded memory and no Range).
 */
export async function sendFile(
  req: Request,
  res: Response,
  name: string,
  file: { handle: FileHandle; stats: Stats },
  redactor: Redactor,
): Promise<void> {
  const { handle, stats } = file;
  const guessed = lookup(name);
  let owned = true;
  try {
    const head = await readRange(handle, 0, Math.min(SNIFF, stats.size));
    const text = isText(guessed, head);
    // The type comes from the name only (as before redaction existed); sniffing only decides masking.
    const type = guessed || 'application/octet-stream';
    commonHeaders(res, type);
    if (text && redactor.enabled) {
      if (stats.size <= REDACT_IN_MEMORY) {
        const all = await readRange(handle, 0, stats.size);
        const masked = Buffer.from(redactor.redactText(all.toString('utf8')), 'utf8');
        const span = applyRange(req, res, masked.length);
        if (span) res.end(masked.subarray(span.start, span.end + 1));
        return;
      }
      res.setHeader('Accept-Ranges', 'none');
      res.status(200);
      owned = false;
      const stream = handle.createReadStream({ start: 0 });
      stream.on('error', () => res.destroy());
      stream.pipe(createRedactStream(redactor)).pipe(res);
      return;
    }
    const span = applyRange(req, res, stats.size);
    if (!span) return;
    if (stats.size === 0) {
      res.end();
      return;
    }
    owned = false;
    const stream = handle.createReadStream(span);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  } finally {
    // A stream closes the handle itself when it ends; otherwise it is ours to close.
    if (owned) await handle.close();
  }
}
