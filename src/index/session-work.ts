import type { MessagePort } from 'node:worker_threads';
import { CacheBudget } from '../brain/cache';
import type { ListedSession } from '../brain/catalog';
import { useSyncReads } from '../brain/safe-read';
import { Transcripts } from '../brain/transcript/transcript';
import { TextRedaction } from './redacted-texts';
import { SessionIndexer } from './session-indexer';
import { SessionTape, type TapeOp } from './session-tape';
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
}

/** Sessions a worker works on at once: while one waits for the disk, another parses. */
const ACTIVE = 3;

/** The worker's cache of parsed views and line indexes (full-tier twins), for all its sessions. */
const CACHE_BYTES = 32 * 1024 * 1024;

export type ToWorker =
  | { kind: 'run'; seq: number; listed: ListedSession; thorough: boolean; config: WorkerConfig }
  | { kind: 'ack'; seq: number }
  | { kind: 'abort'; seq: number };

export type FromWorker =
  | { kind: 'ready'; seq: 0 }
  | { kind: 'piece'; seq: number; ops: TapeOp[]; ms: StageMs }
  | { kind: 'done'; seq: number; ops: TapeOp[]; ms: StageMs; result: { bytes: number } | null }
  | { kind: 'error'; seq: number; error: string; ms: StageMs };

export type StageMs = Partial<Record<Stage, number>>;

/** The tools of one configuration (an index's), made once. */
interface Kit {
  transcripts: Transcripts;
  redaction: TextRedaction;
  clock: StageClock;
  /** The stage times already reported. */
  reported: Record<Stage, number>;
}

export function serve(port: MessagePort): void {
  // This thread answers no request: its file calls run synchronously (see useSyncReads).
  useSyncReads(true);
  const budget = new CacheBudget(CACHE_BYTES);
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
  }
  const tasks = new Map<number, Task>();

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
      clock,
      flush: async () => {
        await written();
        t.unacked = true;
        const reply: FromWorker = { kind: 'piece', seq: m.seq, ops: tape.take(), ms: since(kit) };
        port.postMessage(reply);
      },
    });
    let reply: FromWorker;
    try {
      const result = await indexer.index(m.listed, m.thorough, abort.signal);
      await written();
      reply = { kind: 'done', seq: m.seq, ops: tape.take(), ms: since(kit), result };
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
   * ACTIVE run at once (each holds at most two pieces); the waiting ones hold nothing.
   */
  const waiting: Extract<ToWorker, { kind: 'run' }>[] = [];
  const next = () => {
    while (tasks.size < ACTIVE && waiting.length > 0) void run(waiting.shift()!);
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
    if (m.kind === 'ack') task?.acked();
    else if (task) task.abort.abort();
    else {
      // Not started: dropped, and answered so its place is free again.
      const i = waiting.findIndex((w) => w.seq === m.seq);
      if (i >= 0) waiting.splice(i, 1);
      const dropped: FromWorker = { kind: 'done', seq: m.seq, ops: [], ms: {}, result: null };
      if (i >= 0) port.postMessage(dropped);
    }
  });
}
