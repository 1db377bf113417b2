import type { MessagePort } from 'node:worker_threads';
import { COLLECT_BYTES } from '../ops/in-flight-bytes';
import { fullGc } from '../ops/full-gc';
import { maskBinary, maskText } from '../http/masked-body';
import { Redactor, type RedactorOptions } from '../redaction/redactor';
import { learnStep, type StepLearned } from '../redaction/tier-values';
import { MaskWindows, WINDOWED_FROM, WINDOW_STEP } from '../redaction/windows';

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
  | { id: number; kind: 'text' | 'diff'; text: string; more: boolean; size: number }
  /**
   * A step of a transcript's bytes (transferred) read for its secret values after the text the
   * last step passed on (../redaction/tier-values learnStep).
   */
  | { id: number; kind: 'learn'; raw: ArrayBuffer; carry: string; last: boolean }
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
      /** The answer is the parts sent before this reply (see below). */
      parts?: true;
    }
  | {
      id: number;
      body: ArrayBuffer;
      utf8: boolean;
      /** Masked spans by kind, replayed on the main thread's metric (Redactor's onRedact). */
      counts: [string, number][];
    }
  /**
   * A large text's answer in parts, in order, before its final reply (whose `text` is then
   * null and `parts` true): `part`, masked text; `same`, a range of the job's own text that
   * came out unchanged (the main thread slices it from the text it holds).
   */
  /** A `learn` job's values and carry; nothing is counted (nothing masked). */
  | { id: number; learned: StepLearned; counts: [string, number][] }
  | { id: number; part: string }
  | { id: number; same: [number, number] }
  | { id: number; error: string };

/** What a job gives a worker to read: its text's UTF-16 units, or its bytes (and carry). */
export function jobUnits(job: RedactJob): number {
  if (job.kind === 'file') return job.raw.byteLength;
  if (job.kind === 'learn') return job.raw.byteLength + job.carry.length;
  return job.text.length;
}

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
  let large: LargeText | null = null;
  let failed = 0; // a job answered with an error: its pieces still to come are dropped
  port.on('message', (job: RedactJob) => {
    if (job.id === failed) return;
    let size = 0;
    try {
      if (job.kind === 'text' && (large || job.size > WINDOWED_FROM)) {
        // Masked as its pieces come (Redactor.redactText masks such a text in windows too).
        if (!large) {
          counts.clear();
          large = new LargeText(redactor, (m) => port.postMessage({ id: job.id, ...m }));
        }
        large.write(job.text, !job.more);
        if (job.more) return;
        const parts = large.end();
        large = null;
        size = job.size;
        port.postMessage({ id: job.id, text: null, counts: [...counts], ...(parts && { parts }) });
      } else if (job.kind === 'learn') {
        size = jobUnits(job);
        const learned = learnStep(redactor, Buffer.from(job.raw), job.carry, job.last);
        port.postMessage({ id: job.id, learned, counts: [] });
      } else if (job.kind !== 'file' && job.more) {
        pieces.push(job.text);
        return;
      } else if (job.kind === 'file') {
        counts.clear();
        size = job.raw.byteLength;
        const raw = Buffer.from(job.raw);
        const { body, utf8 } = job.binary
          ? { body: maskBinary(raw, redactor), utf8: false }
          : maskText(raw, redactor);
        const out = ownBuffer(body);
        port.postMessage({ id: job.id, body: out, utf8, counts: [...counts] }, [out]);
      } else {
        counts.clear();
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
      large = null;
      pieces = [];
      if ((job.kind === 'text' || job.kind === 'diff') && job.more) failed = job.id;
      port.postMessage({ id: job.id, error: String((err as Error)?.stack ?? err) });
    }
    // The job's strings are garbage once posted: freed before the next one starts, so a worker
    // holds one value's copies at a time (what the pool charges the budget for).
    if (collect && size >= COLLECT_BYTES) collect();
  });
}

/**
 * A large text masked window by window as its pieces arrive (Redactor.redactText's way for a
 * text past WINDOWED_FROM), each window's part sent as it is made: the worker never holds the
 * whole text, its masked copy or one message of it (a 32 MB keyword-dense step masked whole
 * and sent back in one message cost the process about 110 MiB more at its peak). Unchanged
 * stretches are sent as ranges of the caller's text; nothing at all when no window changed.
 */
class LargeText {
  private readonly windows: MaskWindows;
  private same = 0; // where the unchanged stretch not yet sent starts
  private at = 0; // how much of the text the parts sent so far stand for

  constructor(
    redactor: Redactor,
    private readonly send: (m: { part: string } | { same: [number, number] }) => void,
  ) {
    this.windows = new MaskWindows(redactor, WINDOW_STEP);
  }

  write(piece: string, final: boolean): void {
    this.windows.write(piece, final, (part, changed, rawEnd) => {
      if (changed) {
        if (this.same < this.at) this.send({ same: [this.same, this.at] });
        this.send({ part });
        this.same = rawEnd;
      }
      this.at = rawEnd;
    });
  }

  /** Sends the last unchanged stretch; false when nothing was masked (no part was sent). */
  end(): boolean {
    if (!this.windows.masked) return false;
    if (this.same < this.at) this.send({ same: [this.same, this.at] });
    return true;
  }
}
