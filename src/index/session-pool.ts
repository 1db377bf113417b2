import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ListedSession } from '../brain/catalog';
import type { Holder, InFlightBytes } from '../ops/in-flight-bytes';
import type { TapeOp } from './session-tape';
import type { FromWorker, StageMs, ToWorker, WorkerConfig } from './session-work';
import { StageClock, STAGES } from './stage-clock';
import { WORKER_PRELUDE, workerCode } from './worker-code';

/**
 * INDEX_WORKERS when unset: none on 1-2 cores, one on 3, two from 4. The main thread answers
 * requests, and on 2 cores a worker takes the core it needs: a server building the index
 * home's first index with one worker answered the newest-20 page at 2.95-3.37x its median
 * after (none: 1.72-2.22x; load 4-5), on the store's bench home 1.55x (none: 1.31-1.34x; load
 * ~1.2), for a build 10-20 % faster.
 */
export function defaultSessionWorkers(): number {
  return Math.max(0, Math.min(2, os.availableParallelism() - 2));
}

/**
 * The bytes of recorded writes (doc texts; see tapeBytes) the workers may have handed to this
 * thread and not had written yet, all workers together (each gets its share). Before, a count
 * bounded them: up to 24 sessions handed out ahead (home-indexer's AHEAD), each finished one
 * holding its last batch's writes (an 8 MiB scan batch, plus every output and artifact text of
 * the session), hundreds of MB in the worst case. Past it a worker starts no session and hands
 * over no piece, but the one this thread waits for: in flight stays under this plus that piece.
 */
export const WRITES_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/** A pool no index uses any more ends its workers after this long (a reopened index reuses them). */
const LINGER_MS = 10_000;

/** Loads session-work in the worker (see worker-code.ts), then serves the pool. */
const BOOTSTRAP = `${WORKER_PRELUDE}
require(workerData.module).serve(parentPort, workerData.writeBytes);
`;

/** A worker that failed this many times in a row is not started again: sessions stay on the main thread. */
const MAX_CRASHES = 3;

/** One piece of a session's writes, in order; the last one carries the indexer's result. */
export type Piece = { ops: TapeOp[]; bytes: number } & (
  { last: false } | { last: true; result: { bytes: number } | null }
);

/**
 * A session being indexed in a worker: its pieces, read in order with `next`. Each piece is
 * `written` once its ops are replayed (the worker builds at most one more meanwhile).
 */
export class PreparedSession {
  private readonly pieces: Piece[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private lane: Lane | null = null;
  private ended = false;
  private cancelled = false;
  /** The piece `next` returned last, until it is written (its bytes count in flight). */
  private current: Piece | null = null;
  /** This thread waits for it: told to the worker once (see 'wanted'). */
  private wanted = false;

  constructor(
    readonly seq: number,
    readonly listed: ListedSession,
    readonly thorough: boolean,
    /** The index that asked: its configuration, and the clock the worker's stage times go to. */
    readonly owner: SessionWorkers,
    private readonly pool: SessionPool,
  ) {}

  /** The next piece; throws when the worker failed (the session is then indexed anew). */
  async next(): Promise<Piece> {
    if (this.pieces.length === 0 && !this.failure && !this.wanted) {
      // Its worker may be holding it back for the byte budget: this one passes.
      this.wanted = true;
      this.lane?.send({ kind: 'wanted', seq: this.seq });
    }
    while (this.pieces.length === 0 && !this.failure) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.pieces.length > 0) return (this.current = this.pieces.shift()!);
    throw this.failure!;
  }

  /** The piece `next` returned last is written: the worker may hand over another. */
  written(): void {
    if (this.current) this.pool.held(-this.current.bytes);
    this.current = null;
    // The last piece too: the worker counts its bytes until then.
    if (!this.cancelled) this.lane?.send({ kind: 'ack', seq: this.seq });
  }

  /** Not wanted any more (the pass stopped): the worker stops at its next batch. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    // What it handed over is dropped unwritten (the worker frees it when told).
    for (const p of this.pieces.splice(0)) this.pool.held(-p.bytes);
    if (this.current) this.pool.held(-this.current.bytes);
    this.current = null;
    const ended = this.ended;
    this.ended = true;
    if (this.lane) this.lane.send({ kind: 'abort', seq: this.seq });
    else if (!ended) this.pool.unqueue(this);
  }

  /** @internal */
  started(lane: Lane): void {
    this.lane = lane;
  }

  /** @internal The run message's 'wanted': this thread asked for it before it started. */
  get waitedFor(): boolean {
    return this.wanted;
  }

  /** @internal */
  receive(r: FromWorker): void {
    if ((r.kind === 'piece' || r.kind === 'done') && !this.cancelled) this.pool.held(r.bytes);
    if (r.kind === 'piece') {
      if (!this.cancelled) this.pieces.push({ ops: r.ops, bytes: r.bytes, last: false });
    } else if (r.kind === 'done') {
      this.ended = true;
      if (!this.cancelled) {
        this.pieces.push({ ops: r.ops, bytes: r.bytes, last: true, result: r.result });
      }
    } else if (r.kind === 'error') this.fail(new Error(r.error));
    this.wake?.();
  }

  /** @internal */
  fail(err: Error): void {
    this.ended = true;
    this.failure ??= err;
    this.wake?.();
  }
}

/**
 * Sessions handed to a worker at once: it works on 3 of them at a time (session-work's ACTIVE;
 * while one waits for the disk, another parses), each holding at most two pieces, and starts
 * the others as those end, without waiting for this thread's event loop to turn.
 */
const PER_WORKER = 8;

/** One worker thread and the sessions it works on. */
class Lane {
  private worker: Worker | null = null;
  /** By seq. */
  readonly running = new Map<number, PreparedSession>();
  crashes = 0;
  /** The worker has loaded its code (under ts-node that takes a second or two). */
  ready = false;
  /** By take id: the large values a worker's batch holds in its index's LARGE_VALUES_MB. */
  private readonly large = new Map<number, { budget: InFlightBytes; holder: Holder }>();

  constructor(private readonly pool: SessionPool) {}

  send(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  run(p: PreparedSession): void {
    const worker = this.start();
    this.running.set(p.seq, p);
    p.started(this);
    worker.ref();
    try {
      const listed = plainListed(p.listed);
      const config = p.owner.config;
      const wanted = p.waitedFor;
      this.send({ kind: 'run', seq: p.seq, listed, thorough: p.thorough, config, wanted });
    } catch (err) {
      this.finish(p);
      p.fail(err as Error);
    }
  }

  start(): Worker {
    if (this.worker) return this.worker;
    this.ready = false;
    const ts = __filename.endsWith('.ts');
    const module = require.resolve(`./session-work${ts ? '.ts' : '.js'}`);
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: {
        ...workerCode(module, ts),
        writeBytes: this.pool.writeShare,
      },
    });
    worker.on('message', (r: FromWorker) => {
      if (r.kind === 'ready') {
        this.ready = true;
        if (this.running.size === 0) worker.unref();
        this.pool.idle(this);
        return;
      }
      if (r.kind === 'take' || r.kind === 'release') {
        this.largeValue(worker, r);
        return;
      }
      const p = this.running.get(r.seq);
      if (!p) return;
      p.owner.charge(r.ms);
      if (r.kind !== 'piece') {
        this.crashes = 0;
        this.finish(p);
      }
      p.receive(r);
    });
    const died = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.crashes++;
      this.dropLarge();
      for (const p of [...this.running.values()]) {
        this.finish(p);
        p.fail(err);
      }
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the session worker exited (${code})`)));
    this.worker = worker;
    // Loading holds no process open (a test's, a CLI's): sessions waiting for it do (dispatch).
    worker.unref();
    return worker;
  }

  /**
   * A worker's batch reads a large value: counted in its index's budget (LARGE_VALUES_MB) like
   * an answer's, the first one of a batch waiting for room (never refused), the next ones
   * counted as they come (see session-work's largeValuesVia).
   */
  private largeValue(
    worker: Worker,
    r: Extract<FromWorker, { kind: 'take' } | { kind: 'release' }>,
  ): void {
    if (r.kind === 'release') {
      const held = this.large.get(r.id);
      this.large.delete(r.id);
      held?.budget.release(held.holder);
      return;
    }
    const grant = () => {
      const m: ToWorker = { kind: 'granted', seq: r.seq, id: r.id };
      if (this.worker === worker) worker.postMessage(m);
    };
    const budget = this.running.get(r.seq)?.owner.largeValues ?? null;
    if (!budget) return grant();
    let held = this.large.get(r.id);
    if (!held) this.large.set(r.id, (held = { budget, holder: { held: 0 } }));
    const { holder } = held;
    void budget.take(holder, r.bytes, r.first ? Infinity : 0).then((ok) => {
      // Not waited for (it holds already): counted all the same, past the budget if need be.
      if (!ok) budget.forceTake(holder, r.bytes);
      if (this.worker !== worker || !this.large.has(r.id)) budget.release(holder);
      grant();
    });
  }

  /** The worker is gone: what its batches held is given back. */
  private dropLarge(): void {
    for (const { budget, holder } of this.large.values()) budget.release(holder);
    this.large.clear();
  }

  /** A place is free: the next queued session; an idle worker is unreferenced. */
  private finish(p: PreparedSession): void {
    if (!this.running.delete(p.seq)) return;
    if (this.running.size === 0) this.worker?.unref();
    this.pool.idle(this);
  }

  get full(): boolean {
    return this.running.size >= PER_WORKER;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    for (const p of this.running.values()) p.fail(new Error('the session pool closed'));
    this.running.clear();
    this.dropLarge();
    if (worker) await worker.terminate();
  }
}

/**
 * Worker threads that index sessions the index has no row for (SessionTape): reading, parsing,
 * texts, redaction, step facts and stats run there, and the main thread only writes the rows
 * (SessionIndexer.apply). Sessions are started in the order they were asked for, PER_WORKER
 * at once per worker; each holds at most two pieces of its writes, so memory is bounded by the
 * workers, not by how many sessions are asked for ahead. One pool serves the process (each
 * index a SessionWorkers of it): a worker starts once, not per index opened.
 */
export class SessionPool {
  private static current: SessionPool | null = null;

  /** The process's pool (made with `size` workers when there is none), for one more index. */
  static acquire(
    size: number,
    config: WorkerConfig,
    largeValues: InFlightBytes | null = null,
  ): SessionWorkers {
    const pool = (SessionPool.current ??= new SessionPool(size, SessionPool.writeBytes));
    pool.users++;
    if (pool.linger) clearTimeout(pool.linger);
    pool.linger = null;
    return new SessionWorkers(pool, config, largeValues);
  }

  private readonly lanes: Lane[];
  private readonly queue: PreparedSession[] = [];
  private seq = 0;
  private users = 0;
  private linger: NodeJS.Timeout | null = null;
  private closed = false;

  /** WRITES_IN_FLIGHT_BYTES for the pool made next (a test sets a smaller one). */
  static writeBytes = WRITES_IN_FLIGHT_BYTES;

  /** Bytes of pieces received and not yet written or dropped here, and their peak. */
  readonly inFlight = { bytes: 0, peak: 0, largestPiece: 0 };

  private constructor(
    size: number,
    private readonly writeBytes: number,
  ) {
    this.lanes = Array.from({ length: size }, () => new Lane(this));
  }

  /** @internal Each worker's share of the budget. */
  get writeShare(): number {
    return this.writeBytes / Math.max(1, this.lanes.length);
  }

  /** @internal A piece arrived (+) or was written or dropped (-). */
  held(bytes: number): void {
    const f = this.inFlight;
    f.bytes += bytes;
    f.peak = Math.max(f.peak, f.bytes);
    f.largestPiece = Math.max(f.largestPiece, bytes);
  }

  private started = false;

  /** Starts the workers the first time an indexer asks (an index opened only to read starts none). */
  private start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (const l of this.lanes) l.start();
  }

  /**
   * Some worker is up. Until then new sessions are indexed on the main thread (a small home,
   * or the first sessions of a big one, need not wait for the workers to load).
   */
  get ready(): boolean {
    this.start();
    return this.lanes.some((l) => l.ready && l.crashes < MAX_CRASHES);
  }

  /** False once every worker failed MAX_CRASHES times in a row (or the pool closed). */
  get usable(): boolean {
    return !this.closed && this.lanes.some((l) => l.crashes < MAX_CRASHES);
  }

  prepare(listed: ListedSession, thorough: boolean, owner: SessionWorkers): PreparedSession {
    const p = new PreparedSession(++this.seq, listed, thorough, owner, this);
    if (!this.usable) p.fail(new Error('the session workers are gone'));
    else {
      this.queue.push(p);
      this.dispatch();
    }
    return p;
  }

  /** @internal */
  unqueue(p: PreparedSession): void {
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
  }

  /** @internal */
  idle(_lane: Lane): void {
    // Called from a worker's message handler: start the next session after it returns.
    queueMicrotask(() => this.dispatch());
  }

  private dispatch(): void {
    // Round the lanes, one session each turn: the work spreads over the workers.
    for (let more = true; more && this.queue.length > 0;) {
      more = false;
      for (const lane of this.lanes) {
        if (this.queue.length === 0) break;
        if (lane.full || lane.crashes >= MAX_CRASHES) continue;
        // A worker that died is started again; it takes sessions once ready.
        if (!lane.ready) {
          lane.start().ref();
          continue;
        }
        lane.run(this.queue.shift()!);
        more = true;
      }
    }
    if (!this.usable) {
      for (const p of this.queue.splice(0)) p.fail(new Error('the session workers failed'));
    }
  }

  /** An index is done with the pool: its sessions are dropped; the last one ends the workers. */
  release(owner: SessionWorkers): void {
    for (const p of this.queue.filter((q) => q.owner === owner)) p.cancel();
    for (const l of this.lanes) {
      for (const p of l.running.values()) if (p.owner === owner) p.cancel();
    }
    if (--this.users > 0) return;
    // Idle workers hold no process open: nothing waits for the linger.
    this.linger = setTimeout(() => {
      if (this.users === 0) void this.close();
    }, LINGER_MS);
    this.linger.unref();
  }

  private async close(): Promise<void> {
    this.closed = true;
    if (SessionPool.current === this) SessionPool.current = null;
    for (const p of this.queue.splice(0)) p.fail(new Error('the session pool closed'));
    await Promise.all(this.lanes.map((l) => l.close()));
  }
}

/** One index's use of the process's SessionPool. */
export class SessionWorkers {
  /** The workers' stage times for this index (the bench's build), summed over the workers. */
  readonly clock: StageClock;
  private released = false;

  constructor(
    private readonly pool: SessionPool,
    readonly config: WorkerConfig,
    /** The process's budget of large values (LARGE_VALUES_MB): the workers' count there too. */
    readonly largeValues: InFlightBytes | null = null,
  ) {
    this.clock = new StageClock(config.timed);
  }

  /** New sessions may be handed out (the pool is up and some worker has loaded). */
  get usable(): boolean {
    return !this.released && this.pool.usable && this.pool.ready;
  }

  prepare(listed: ListedSession, thorough: boolean): PreparedSession {
    return this.pool.prepare(listed, thorough, this);
  }

  /** @internal */
  charge(ms: StageMs): void {
    for (const s of STAGES) this.clock.ms[s] += ms[s] ?? 0;
  }

  /** The index closes: its sessions in the workers are dropped (they are indexed next time). */
  close(): void {
    if (this.released) return;
    this.released = true;
    this.pool.release(this);
  }
}

/** What the worker needs of a listed session, as plain data (a root may carry more). */
function plainListed(l: ListedSession): ListedSession {
  const { entry } = l;
  return {
    key: l.key,
    createdAt: l.createdAt,
    entry: {
      id: entry.id,
      dir: entry.dir,
      realDir: entry.realDir,
      mtimeMs: entry.mtimeMs,
      ctimeMs: entry.ctimeMs,
      logs: entry.logs,
      root: {
        path: entry.root.path,
        realPath: entry.root.realPath,
        flavor: entry.root.flavor,
        environment: entry.root.environment,
        ...(entry.root.source !== undefined ? { source: entry.root.source } : {}),
      },
    },
  };
}
