import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MaskedBody } from '../http/masked-body';
import { LARGE_VALUE_COST, type Holder, type InFlightBytes } from '../ops/in-flight-bytes';
import type { Redactor, RedactorOptions } from '../redaction/redactor';
import { learnStep, type StepLearned } from '../redaction/tier-values';
import { jobUnits, ownBuffer, TEXT_PIECE, type RedactJob, type RedactReply } from './redact-work';
import { WORKER_PRELUDE, workerCode } from '../index/worker-code';

/**
 * Values from this many UTF-16 units (file bytes) on are masked in a worker. Keyword-dense
 * text (`password: x ` repeated) masks at 0.25-0.45 ms per KiB on the 2-core test machine
 * (load 4-5): 128 KiB holds the event loop 30-60 ms at worst, 1 MiB 290-470 ms. Below it the
 * round trip (a copy each way) is not worth it.
 */
export const OFFLOAD_UNITS = 128 * 1024;
/** The smallest value masked in a worker once its answer masked OFFLOAD_UNITS in-thread. */
export const OFFLOAD_MIN_UNITS = 8 * 1024;

/** Workers: like the index's (at most 2), but at least one, as 2 cores give the index none. */
export function defaultRedactWorkers(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

/**
 * A text posted to a worker costs copies beside the caller's: the messages (serialized on this
 * thread, freed once the worker has read them), the worker's string and its masked copy (the
 * worker collects them after the job, see redact-work), the masked copy sent back (what the
 * in-thread path makes too). Charged to LARGE_VALUES_MB, whose holders pay LARGE_VALUE_COST
 * times what they take: taken as that share of the value. A file's bytes are moved, not
 * copied: no charge.
 */
const TEXT_COPIES = 3 / LARGE_VALUE_COST;

/** Loads ./redact-work as the index's workers load theirs (../index/worker-code). */
const BOOTSTRAP = `${WORKER_PRELUDE}
require(workerData.module).serve(parentPort, workerData.options);
`;

/**
 * A worker that masked (or searched) this much since it started is ended after its job (see
 * Lane.retire): one 32 MB value, or the 256 KiB steps of a session's transcript read for its
 * secret values (../steps/session-values), which grew the worker's heap as one large value did.
 */
const RETIRE_UNITS = 8 * 1024 * 1024;

/**
 * A worker idle this long after being given this many units since it started is ended too: a
 * session's transcript read for its values (many steps below RETIRE_UNITS) left the worker's
 * heap 30-40 MiB larger, under the large answers that came next (large-values.spec on Node 24).
 */
const IDLE_RETIRE_MS = 2_000;
const IDLE_RETIRE_UNITS = 1024 * 1024;

/** A worker that failed this many times in a row is not started again: values stay in-thread. */
const MAX_CRASHES = 3;

type Pending = {
  job: RedactJob;
  /** What the job's copies hold of the budget while a worker has it (text jobs). */
  charge: number;
  /** Its text's UTF-16 units, or its file's bytes (read before they are moved). */
  units: number;
  ok: (r: Final) => void;
  fail: (e: Error) => void;
  /** A large text's answer as it comes (RedactReply `part` / `same`). */
  parts: string[];
};

/** A job's last reply. */
type Final = Extract<RedactReply, { counts: unknown }>;

class Lane {
  worker: Worker | null = null;
  busy: Pending | null = null;
  crashes = 0;
  /** UTF-16 units (file bytes) the current worker was given since it started. */
  private units = 0;
  private idle: NodeJS.Timeout | null = null;
  private readonly holder: Holder = { held: 0 };

  constructor(private readonly pool: RedactPool) {}

  run(p: Pending): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = (this.worker ??= this.start());
    this.busy = p;
    worker.ref();
    // A string posted is copied into the worker, and its masked copy back: counted in the
    // process's large values (LARGE_VALUES_MB) while the worker has it. At once, past the
    // capacity if need be: the answer waiting for it may hold what others wait for, so it must
    // not wait (as the index's worker batches, session-pool.ts); lanes bound the overshoot.
    if (p.charge > 0) this.pool.budget?.forceTake(this.holder, Math.ceil(p.charge));
    const { job } = p;
    if (job.kind === 'file' || job.kind === 'learn') return worker.postMessage(job, [job.raw]);
    for (let at = 0; at < job.text.length; at += TEXT_PIECE) {
      const text = job.text.slice(at, at + TEXT_PIECE);
      worker.postMessage({ ...job, text, more: at + TEXT_PIECE < job.text.length });
    }
  }

  private start(): Worker {
    this.units = 0;
    const ts = __filename.endsWith('.ts');
    const module = require.resolve(`./redact-work${ts ? '.ts' : '.js'}`);
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...workerCode(module, ts), options: this.pool.options },
    });
    worker.on('message', (r: RedactReply) => {
      if ('part' in r || 'same' in r) return this.part(r);
      const p = this.done();
      if (!p || p.job.id !== r.id) return;
      this.units += p.units;
      if (this.units >= RETIRE_UNITS) this.retire(worker);
      // Cleared by the next job (run, a microtask away when one waits); holds no process open.
      else if (this.units >= IDLE_RETIRE_UNITS)
        this.idle = setTimeout(() => this.retire(worker), IDLE_RETIRE_MS).unref();
      this.crashes = 0;
      if ('error' in r) p.fail(new Error(r.error));
      else if ('text' in r && r.parts) p.ok({ ...r, text: p.parts.splice(0).join('') });
      else p.ok(r);
    });
    const died = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.crashes++;
      this.done()?.fail(err);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the redaction worker exited (${code})`)));
    return worker;
  }

  /** A part of the busy job's answer: masked text, or a range of the job's own text. */
  private part(r: Extract<RedactReply, { part: string } | { same: unknown }>): void {
    const p = this.busy;
    if (!p || p.job.id !== r.id || (p.job.kind !== 'text' && p.job.kind !== 'diff')) return;
    p.parts.push('part' in r ? r.part : p.job.text.slice(r.same[0], r.same[1]));
  }

  /**
   * Ends a worker after a large job: its isolate's memory goes back to the system at once,
   * where a worker kept alive held on to the pages a 32 MB value grew its heap to (the
   * compiled server's peak RSS rose 60-80 MiB over the in-thread path's, large-values.spec).
   * The next job starts a new one (tens of ms from dist).
   */
  private retire(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
  }

  /** The job ends: its charge comes back, an idle worker holds no process open, the next starts. */
  private done(): Pending | null {
    const p = this.busy;
    this.busy = null;
    this.pool.budget?.release(this.holder);
    this.worker?.unref();
    queueMicrotask(() => this.pool.dispatch());
    return p;
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    this.busy?.fail(new Error('the redaction pool closed'));
    this.busy = null;
    this.pool.budget?.release(this.holder);
    if (worker) await worker.terminate();
  }
}

/**
 * Worker threads that mask large values (review 15: one query for four 4 MB keyword-dense
 * steps held the event loop 3.9-4.7 s, /healthz with it). Each worker masks one value at a
 * time with its own Redactor built from the same options, so the result is the in-thread one,
 * masks and counts alike; queued values wait as they are (no copy made before a worker takes
 * one). A job a worker fails (or one asked once the workers are gone) is masked in-thread.
 */
export class RedactPool {
  private readonly lanes: Lane[];
  private readonly queue: Pending[] = [];
  private seq = 0;
  private closed = false;

  constructor(
    private readonly redactor: Redactor,
    readonly options: RedactorOptions,
    size: number,
    /** The main thread's metric (Redactor's onRedact): the spans the worker masked, by kind. */
    private readonly onCounts: ((kind: string, n: number) => void) | null,
    readonly budget: InFlightBytes | null,
  ) {
    this.lanes = Array.from({ length: Math.max(1, size) }, () => new Lane(this));
  }

  /** UTF-16 units each answer (`owner`) had masked in-thread so far. */
  private readonly spent = new WeakMap<object, number>();

  /**
   * Whether a value of `units` is masked here (else in-thread, and counted). With an `owner`
   * (one answer), values from OFFLOAD_MIN_UNITS on come here too once that answer's in-thread
   * ones reach OFFLOAD_UNITS: many values just under it (a page of 127 KiB steps) would
   * otherwise hold the loop as one large one does.
   */
  takes(units: number, owner?: object): boolean {
    if (!this.redactor.enabled || !this.usable) return false;
    if (units >= OFFLOAD_UNITS) return true;
    if (!owner) return false;
    const spent = this.spent.get(owner) ?? 0;
    if (units >= OFFLOAD_MIN_UNITS && spent + units > OFFLOAD_UNITS) return true;
    this.spent.set(owner, spent + units);
    return false;
  }

  private get usable(): boolean {
    return !this.closed && this.lanes.some((l) => l.crashes < MAX_CRASHES);
  }

  /** Redactor.redactText (or redactDiff) of `text`, in a worker: the same masks and counts. */
  async redactText(text: string, diff = false): Promise<string> {
    const inThread = () => (diff ? this.redactor.redactDiff(text) : this.redactor.redactText(text));
    if (!this.usable || text.length === 0) return inThread();
    let r: Final;
    try {
      const job: RedactJob = {
        id: ++this.seq,
        kind: diff ? 'diff' : 'text',
        text,
        more: false,
        size: text.length,
      };
      r = await this.submit(job, TEXT_COPIES * text.length);
    } catch {
      return inThread();
    }
    if (!('text' in r)) throw new Error('a text job answered as a file');
    return r.text ?? text;
  }

  /**
   * ../redaction/tier-values learnStep in a worker: a session's transcript is learned step by
   * step for its secret values; a step of keyword-dense text held the event loop for seconds
   * in-thread (redact-offload.e2e.spec: /healthz stalled past 2 s), and the garbage of reading
   * a 32 MB step stayed in the main thread's heap (large-values.spec's peak). `bytes` is handed
   * over as maskFile's `raw` is.
   */
  async learnStep(bytes: Buffer, carry: string, last: boolean): Promise<StepLearned> {
    const inThread = () => learnStep(this.redactor, bytes, carry, last);
    if (!this.usable) return inThread();
    const raw = ownBuffer(bytes);
    const moved = raw === bytes.buffer;
    try {
      const r = await this.submit({ id: ++this.seq, kind: 'learn', raw, carry, last }, 0);
      if (!('learned' in r)) throw new Error('a learn job answered as a text or file');
      return r.learned;
    } catch (err) {
      if (!moved) return inThread();
      throw err;
    }
  }

  /**
   * ./masked-body's maskText (or maskBinary) of a file's bytes, in a worker. `raw` is handed
   * over (its ArrayBuffer transferred when it is its own): the caller must not use it after.
   */
  async maskFile(raw: Buffer, binary: boolean, inThread: () => MaskedBody): Promise<MaskedBody> {
    if (!this.usable) return inThread();
    const own = ownBuffer(raw);
    // Its own ArrayBuffer is moved to the worker (no copy); a slice of a larger one was copied.
    const moved = own === raw.buffer;
    try {
      const r = await this.submit({ id: ++this.seq, kind: 'file', raw: own, binary }, 0);
      if (!('body' in r)) throw new Error('a file job answered as a text');
      return { body: Buffer.from(r.body), utf8: r.utf8 };
    } catch (err) {
      // Moved bytes went with the worker that failed: nothing is left to mask here.
      if (!moved) return inThread();
      throw err;
    }
  }

  private submit(job: RedactJob, charge: number): Promise<Final> {
    return new Promise((ok, fail) => {
      const replay = (r: Final) => {
        for (const [kind, n] of r.counts) this.onCounts?.(kind, n);
        ok(r);
      };
      this.queue.push({ job, charge, units: jobUnits(job), ok: replay, fail, parts: [] });
      this.dispatch();
    });
  }

  /** @internal Workers running now (ended after large or idle work: Lane.retire). */
  get liveWorkers(): number {
    return this.lanes.filter((l) => l.worker !== null).length;
  }

  /** @internal Hands queued jobs to idle workers. */
  dispatch(): void {
    for (const lane of this.lanes) {
      if (this.queue.length === 0) return;
      if (lane.busy || lane.crashes >= MAX_CRASHES) continue;
      lane.run(this.queue.shift()!);
    }
    if (!this.usable)
      for (const p of this.queue.splice(0)) p.fail(new Error('no redaction worker'));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.fail(new Error('the redaction pool closed'));
    await Promise.all(this.lanes.map((l) => l.close()));
  }
}

const pools = new WeakMap<Redactor, RedactPool>();

/** The pool that masks `redactor`'s large values (OffloadModule sets it); none: in-thread. */
export function offloadOf(redactor: Redactor): RedactPool | undefined {
  return pools.get(redactor);
}

export function setOffload(redactor: Redactor, pool: RedactPool | null): void {
  if (pool) pools.set(redactor, pool);
  else pools.delete(redactor);
}
