import type { MessagePort } from 'node:worker_threads';
import { COLLECT_BYTES } from '../ops/in-flight-bytes';
import { fullGc } from '../ops/full-gc';
import { maskBinary, maskText } from '../http/masked-body';
import { Redactor, type RedactorOptions } from '../redaction/redactor';

/**
 * The worker side of the RedactPool (loaded by its bootstrap there): the process's
 * Redactor rebuilt from the same options, masking one value at a time, so the main thread's
 * event loop keeps answering while a large keyword-dense value is masked (review 15).
 *
 * A text is posted in pieces of this many UTF-16 units: each message's serialized copy is
 * freed once the worker has read it, where one message of a whole 32 MB value left the
 * process's RSS up to 124 MB higher (a test script: 18 MB less in pieces).
 */
export const TEXT_PIECE = 1 << 20;

export type RedactJob =
  /** A text in pieces of TEXT_PIECE units, in order; `more`: pieces follow (see RedactPool). */
  | { id: number; kind: 'text' | 'diff'; text: string; more: boolean }
  /** A whole file's bytes, transferred (not copied); answered with the masked body, transferred. */
  | { id: number; kind: 'file'; raw: ArrayBuffer; binary: boolean };

export type RedactReply =
  | {
      id: number;
      /**
       * The masked text; null: unchanged (the caller keeps its own). Sent whole: masking here
       * and sending the result (a 10 MB string's copy took 8 ms on the main thread) beats
       * sending spans for the main thread to mask (Redactor.mask of a dense 4 MB text's 333,000
       * spans took it 70-115 ms).
       */
      text: string | null;
      counts: [string, number][];
    }
  | {
      id: number;
      body: ArrayBuffer;
      utf8: boolean;
      /** Masked spans by kind, replayed on the main thread's metric (Redactor's onRedact). */
      counts: [string, number][];
    }
  | { id: number; error: string };

/** An ArrayBuffer holding exactly `buf`'s bytes: its own when it spans it, else a copy. */
export function ownBuffer(buf: Buffer): ArrayBuffer {
  const whole = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength;
  const own = whole ? buf : Buffer.from(buf);
  return own.buffer as ArrayBuffer;
}

export function serve(port: MessagePort, options: RedactorOptions): void {
  const counts = new Map<string, number>();
  const redactor = new Redactor(options, (kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1));
  const collect = fullGc();
  let pieces: string[] = [];
  port.on('message', (job: RedactJob) => {
    if (job.kind !== 'file' && job.more) {
      pieces.push(job.text);
      return;
    }
    counts.clear();
    let size = 0;
    try {
      if (job.kind === 'file') {
        size = job.raw.byteLength;
        const raw = Buffer.from(job.raw);
        const { body, utf8 } = job.binary
          ? { body: maskBinary(raw, redactor), utf8: false }
          : maskText(raw, redactor);
        const out = ownBuffer(body);
        port.postMessage({ id: job.id, body: out, utf8, counts: [...counts] }, [out]);
      } else {
        pieces.push(job.text);
        const text = pieces.length === 1 ? pieces[0] : pieces.join('');
        pieces = [];
        size = text.length;
        const masked = job.kind === 'diff' ? redactor.redactDiff(text) : redactor.redactText(text);
        port.postMessage({
          id: job.id,
          text: masked === text ? null : masked,
          counts: [...counts],
        });
      }
    } catch (err) {
      port.postMessage({ id: job.id, error: String((err as Error)?.stack ?? err) });
    }
    // The job's strings are garbage once posted: freed before the next one starts, so a worker
    // holds one value's copies at a time (what the pool charges the budget for).
    if (collect && size >= COLLECT_BYTES) collect();
  });
}
