import type { MessagePort } from 'node:worker_threads';
import type { Holder, InFlightBytes } from '../ops/in-flight-bytes';
import { CacheBudget } from '../brain/cache';
import type { ListedSession } from '../brain/catalog';
import { useSyncReads } from '../brain/safe-read';
import { Transcripts } from '../brain/transcript/transcript';
import { TextRedaction } from './redacted-texts';
import { SessionIndexer } from './session-indexer';
import { opBytes, SessionTape, type TapeOp } from './session-tape';
import { StageClock, STAGES, type Stage } from './stage-clock';

/**
 * The worker side of the SessionPool (loaded by its bootstrap): indexes one session at a time
 * onto a SessionTape (reading, parsing, texts, redaction, facts and stats all happen here) and
 * hands the tape's writes over after each batch, waiting for the previous piece to be written
 * before it hands the next: at most two pieces of a session are held at once.
 */
/** What an index asks its sessions indexed with (one pool serves every index of the process). */
export interface WorkerConfig {
  redact: boolean;
  redactPatterns: string[];
  maxRecordBytes: number;
  /** Time the stages (the bench's build): each message carries the time since the last. */
  timed: boolean;
  /** The index counts large values (LARGE_VALUES_MB): the worker's go through the main thread. */
  largeValues?: boolean;
}

/** Sessions a worker works on at once: while one waits for the disk, another parses. */
const ACTIVE = 3;

/**
 * The worker's cache of parsed views and line indexes (full-tier twins), for all its sessions:
 * outside CACHE_MAX_MB, so small. A worker reads each session once, and a session's own
 * entries (its views, its full transcript's line index: 8 bytes a line) are what it reuses.
 */
export const WORKER_CACHE_BYTES = 4 * 1024 * 1024;

export type ToWorker =
  | {
      kind: 'run';
      seq: number;
      listed: ListedSession;
      thorough: boolean;
      config: WorkerConfig;
      /** The main thread waits for this one already (see 'wanted'). */
      wanted?: boolean;
    }
  /** The piece handed over last is written (also a session's last piece): its bytes are free. */
  | { kind: 'ack'; seq: number }
  /** Not wanted any more: stop it, or drop what it handed over and is not written. */
  | { kind: 'abort'; seq: number }
  /** The main thread waits for this session's next piece: it passes the byte budget. */
  | { kind: 'wanted'; seq: number }
  /** The large value asked for (take `id`) may be read. */
  | { kind: 'granted'; seq: number; id: number };

export type FromWorker =
  | { kind: 'ready'; seq: 0 }
  | { kind: 'piece'; seq: number; ops: TapeOp[]; bytes: number; ms: StageMs }
  | {
      kind: 'done';
      seq: number;
      ops: TapeOp[];
      bytes: number;
      ms: StageMs;
      result: { bytes: number } | null;
    }
  | { kind: 'error'; seq: number; error: string; ms: StageMs }
  /**
   * A large value to read (LARGE_VALUE_BYTES on), counted in the process's LARGE_VALUES_MB
   * under the holder `id` (one batch's values); `first`: the holder holds nothing yet, and may
   * wait for room (see largeValuesVia).
   */
  | { kind: 'take'; seq: number; id: number; bytes: number; first: boolean }
  /** The holder's batch is written: its values are given back. */
  | { kind: 'release'; seq: number; id: number };

/** The size of recorded writes as the byte budget counts them (doc texts, 64 per other op). */
export function tapeBytes(ops: TapeOp[]): number {
  let n = 0;
  for (const op of ops) n += opBytes(op);
  return n;
}

export type StageMs = Partial<Record<Stage, number>>;

/** The tools of one configuration (an index's), made once. */
interface Kit {
  transcripts: Transcripts;
  redaction: TextRedaction;
  clock: StageClock;
  /** The stage times already reported. */
  reported: Record<Stage, number>;
}

/**
 * `writeBytes`: this worker's share of the bytes of recorded writes handed to the main thread
 * and not yet written there (SessionPool's WRITES_IN_FLIGHT_BYTES over its workers). Past it,
 * no session starts and no piece is handed over, except by the session the main thread waits
 * for (it would wait forever for a later one's bytes to be written): the writes in flight stay
 * under the share plus that one session's piece.
 */
export function serve(port: MessagePort, writeBytes = Infinity): void {
  // This thread answers no request: its file calls run synchronously (see useSyncReads).
  useSyncReads(true);
  const budget = new CacheBudget(WORKER_CACHE_BYTES);
  const kits = new Map<string, Kit>();
  const kitOf = (config: WorkerConfig): Kit => {
    const key = JSON.stringify(config);
    let kit = kits.get(key);
    if (!kit) {
      kit = {
        transcripts: new Transcripts({ budget, maxRecordBytes: config.maxRecordBytes }),
        redaction: new TextRedaction(config.redact, config.redactPatterns),
        clock: new StageClock(config.timed),
        reported: Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>,
      };
      // Configurations are few (one per index the process opened): a bound all the same.
      if (kits.size >= 16) kits.clear();
      kits.set(key, kit);
    }
    return kit;
  };
  /**
   * The stage times since the last report. Sessions run side by side here: a stage's time is
   * charged to the stage entered last (an await inside one counts as whichever runs then).
   */
  const since = (kit: Kit): StageMs => {
    const out: StageMs = {};
    for (const s of STAGES) {
      const d = kit.clock.ms[s] - kit.reported[s];
      if (d > 0) out[s] = d;
      kit.reported[s] = kit.clock.ms[s];
    }
    return out;
  };
  interface Task {
    seq: number;
    abort: AbortController;
    acked: () => void;
    /** A piece is handed over and not written yet. */
    unacked: boolean;
    /** The main thread waits for its next piece: the byte budget does not hold it. */
    wanted: boolean;
  }
  const tasks = new Map<number, Task>();

  /** By seq: the bytes of the piece handed over and not yet written or dropped there. */
  const held = new Map<number, number>();
  let heldBytes = 0;
  /** Pieces waiting for room under writeBytes (woken in the order they came, as they fit). */
  let gated: { t: Task; bytes: number; go: () => void }[] = [];
  const fits = (t: Task, bytes: number) =>
    t.wanted || t.abort.signal.aborted || heldBytes + bytes <= writeBytes;
  /** Wakes the gated pieces that fit now. */
  const pump = () => {
    const still: typeof gated = [];
    for (const g of gated) {
      if (fits(g.t, g.bytes)) {
        heldBytes += g.bytes; // reserved at once: the next in line sees it
        g.go();
      } else still.push(g);
    }
    gated = still;
  };
  /** Resolves once `bytes` more fit (reserved then; `hand` records them as held). */
  const room = (t: Task, bytes: number): Promise<void> => {
    if (fits(t, bytes)) {
      heldBytes += bytes;
      return Promise.resolve();
    }
    return new Promise((go) => {
      gated.push({ t, bytes, go });
      t.abort.signal.addEventListener('abort', pump, { once: true });
    });
  };
  /** Records a reserved piece as held until written; an aborted task's is given back (dropped). */
  const hand = (t: Task, bytes: number) => {
    if (t.abort.signal.aborted) {
      heldBytes -= bytes;
      pump();
    } else held.set(t.seq, (held.get(t.seq) ?? 0) + bytes);
  };
  /** The main thread wrote (or dropped) what `seq` handed over. */
  const release = (seq: number) => {
    const bytes = held.get(seq);
    if (bytes === undefined) return;
    held.delete(seq);
    heldBytes -= bytes;
    pump();
    next();
  };

  const large = largeValuesVia(port);

  const run = async (m: Extract<ToWorker, { kind: 'run' }>) => {
    const kit = kitOf(m.config);
    const { transcripts, redaction, clock } = kit;
    const tape = new SessionTape();
    const abort = new AbortController();
    let waiting: (() => void) | null = null;
    const t: Task = {
      seq: m.seq,
      abort,
      unacked: false,
      wanted: m.wanted === true,
      acked: () => {
        t.unacked = false;
        waiting?.();
        waiting = null;
      },
    };
    tasks.set(m.seq, t);
    /** Waits until the piece handed over last is written (or the task is aborted). */
    const written = () =>
      t.unacked && !abort.signal.aborted
        ? new Promise<void>((resolve) => {
            waiting = resolve;
            abort.signal.addEventListener('abort', () => resolve(), { once: true });
          })
        : Promise.resolve();
    const indexer = new SessionIndexer({
      tables: tape.asTables(),
      transcripts,
      redaction,
      maxRecordBytes: m.config.maxRecordBytes,
      largeValues: m.config.largeValues ? large.via(m.seq) : null,
      clock,
      flush: async () => {
        await written();
        const ops = tape.take();
        const bytes = tapeBytes(ops);
        await room(t, bytes);
        hand(t, bytes);
        t.unacked = true;
        const reply: FromWorker = { kind: 'piece', seq: m.seq, ops, bytes, ms: since(kit) };
        port.postMessage(reply);
      },
    });
    let reply: FromWorker;
    try {
      const result = await indexer.index(m.listed, m.thorough, abort.signal);
      await written();
      const ops = tape.take();
      const bytes = tapeBytes(ops);
      await room(t, bytes);
      hand(t, bytes);
      reply = { kind: 'done', seq: m.seq, ops, bytes, ms: since(kit), result };
    } catch (err) {
      reply = {
        kind: 'error',
        seq: m.seq,
        error: String((err as Error)?.stack ?? err),
        ms: since(kit),
      };
    }
    tasks.delete(m.seq);
    port.postMessage(reply);
    next();
  };

  /**
   * Sessions handed over ahead: the main thread hands out the next ones only when its event
   * loop turns (between its writes), so the worker keeps a few to go on with meanwhile. Only
   * ACTIVE run at once (each holds at most two pieces); the waiting ones hold nothing. None
   * starts while the writes handed over fill writeBytes, but the one the main thread waits for.
   */
  const waiting: Extract<ToWorker, { kind: 'run' }>[] = [];
  const next = () => {
    const wanted = waiting.filter((w) => w.wanted);
    if (wanted.length > 0) {
      for (const w of wanted) waiting.splice(waiting.indexOf(w), 1);
      for (const w of wanted) void run(w);
    }
    while (tasks.size < ACTIVE && waiting.length > 0 && heldBytes < writeBytes)
      void run(waiting.shift()!);
  };

  const ready: FromWorker = { kind: 'ready', seq: 0 };
  port.postMessage(ready);
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'run') {
      waiting.push(m);
      next();
      return;
    }
    const task = tasks.get(m.seq);
    if (m.kind === 'granted') {
      large.granted(m.id);
      return;
    }
    if (m.kind === 'wanted') {
      if (task) {
        task.wanted = true;
        pump();
      } else {
        const w = waiting.find((x) => x.seq === m.seq);
        if (w) w.wanted = true;
        next();
      }
      return;
    }
    if (m.kind === 'ack') {
      task?.acked();
      release(m.seq);
      return;
    }
    // Aborted: what it handed over will not be written.
    release(m.seq);
    if (task) task.abort.abort();
    else {
      // Not started: dropped, and answered so its place is free again.
      const i = waiting.findIndex((w) => w.seq === m.seq);
      if (i >= 0) waiting.splice(i, 1);
      const dropped: FromWorker = {
        kind: 'done',
        seq: m.seq,
        ops: [],
        bytes: 0,
        ms: {},
        result: null,
      };
      if (i >= 0) port.postMessage(dropped);
    }
  });
}

/**
 * The process's budget of large values (LARGE_VALUES_MB, the main thread's InFlightBytes) as a
 * worker's sessions use it: each take is asked of the main thread. A worker's batches read their
 * large values one batch at a time (the others wait for it holding nothing), and only a batch's
 * first value waits for room there: a holder that waited while holding could wait for one that
 * waits for it (the main thread's indexer, the other worker). Values after the first are counted
 * as they come, past the budget if need be, so answers wait for them; a batch is about an 8 MiB
 * scan of lines, so a worker holds at most one batch's large values at a time.
 */
function largeValuesVia(port: MessagePort) {
  let ids = 0;
  const grants = new Map<number, () => void>();
  /** Each holder (a batch): its id, and what ends its turn. */
  const holders = new WeakMap<Holder, { id: number; done: () => void }>();
  /** Ends when the batch whose values are read now is released; the next ones wait for it. */
  let turn: Promise<void> = Promise.resolve();
  const ask = (id: number, seq: number, bytes: number, first: boolean) =>
    new Promise<void>((resolve) => {
      grants.set(id, resolve);
      const m: FromWorker = { kind: 'take', seq, id, bytes, first };
      port.postMessage(m);
    });
  return {
    granted(id: number): void {
      grants.get(id)?.();
      grants.delete(id);
    },
    via(seq: number): InFlightBytes {
      const budget = {
        take: async (holder: Holder, bytes: number): Promise<boolean> => {
          let h = holders.get(holder);
          const first = h === undefined;
          if (h === undefined) {
            const before = turn;
            let done = () => undefined as void;
            turn = new Promise<void>((resolve) => (done = resolve));
            h = { id: ++ids, done };
            holders.set(holder, h);
            await before;
          }
          await ask(h.id, seq, bytes, first);
          holder.held += bytes;
          return true;
        },
        release: (holder: Holder): void => {
          const h = holders.get(holder);
          if (h === undefined) return;
          holders.delete(holder);
          holder.held = 0;
          const m: FromWorker = { kind: 'release', seq, id: h.id };
          port.postMessage(m);
          h.done();
        },
      };
      return budget as unknown as InFlightBytes;
    },
  };
}
