import type { LineIndexSnapshot } from '../brain/transcript/line-index';
import type {
  DocRow,
  SessionRow,
  StatsStepRow,
  StepInOrder,
  StepRow,
  Tables,
} from './sqlite/tables';
import { packRows, replayRows, type RowRun } from './tape-rows';

/**
 * The writes of one session's indexing, recorded where the session is indexed (a worker
 * thread: SessionTape stands in for Tables there) and replayed in order on the thread that
 * owns index.sqlite (replayTape). Only a session the index has no row for is indexed on a tape:
 * every read the indexer makes of such a session's rows is answered from what the tape itself
 * wrote (its steps), so the replay writes exactly the statements the indexer would have run.
 */
export type TapeOp = [method: TapeMethod, ...args: unknown[]];

type TapeMethod =
  | 'ensureSession'
  | 'deleteSteps'
  | 'deleteLineFindings'
  | 'putLineFindings'
  | 'putDoc'
  | 'putStep'
  | 'progress'
  | 'setHead'
  | 'setFilesState'
  | 'putStats'
  | 'touch'
  | 'setQuickSig'
  | 'putLineIndex'
  | 'sweepValues'
  /** Steps and docs in columns (see tape-rows.ts): what take() hands over for their ops. */
  | 'rows';

/** The sid a tape writes with: replayTape puts the row id ensureSession made in its place. */
const TAPE_SID = -1;

export class SessionTape {
  /** The indexer writes inside a group: statements run as they come (see SessionIndexer.write). */
  readonly db = { inTransaction: true, open: true };
  generation = 0;
  private ops: TapeOp[] = [];
  /** Bytes of text in `ops` (the worker flushes them in pieces of bounded size). */
  textBytes = 0;
  /** The steps written, by position (INSERT OR REPLACE): what the session's reads see. */
  private readonly steps = new Map<number, StepRow>();

  /** The ops recorded since the last take (steps and docs packed: see tape-rows.ts). */
  take(): TapeOp[] {
    const ops = this.ops;
    this.ops = [];
    this.textBytes = 0;
    return packRows(ops);
  }

  private op(method: TapeMethod, ...args: unknown[]): void {
    this.ops.push([method, ...args]);
  }

  session(): SessionRow | undefined {
    return undefined;
  }

  ensureSession(facts: unknown, existing: SessionRow | undefined): number {
    if (existing) throw new Error('a tape indexes only sessions the index has no row for');
    this.generation++;
    this.op('ensureSession', facts);
    return TAPE_SID;
  }

  deleteSteps(sid: number, from: number, to = Number.MAX_SAFE_INTEGER): void {
    for (const p of [...this.steps.keys()]) if (p >= from && p <= to) this.steps.delete(p);
    this.op('deleteSteps', sid, from, to);
  }

  deleteLineFindings(sid: number, after: number): void {
    this.op('deleteLineFindings', sid, after);
  }

  putLineFindings(sid: number, line: number, findings: unknown): void {
    this.op('putLineFindings', sid, line, findings);
  }

  putDoc(sid: number, doc: DocRow, fresh = false): void {
    this.generation++;
    this.textBytes += doc.text.length;
    this.op('putDoc', sid, doc, fresh);
  }

  putStep(sid: number, r: StepRow): void {
    this.steps.set(r.position, r);
    this.op('putStep', sid, r);
  }

  occurrences(): Map<number, number> {
    const n = new Map<number, number>();
    for (const s of this.steps.values()) {
      if (!s.tail) n.set(s.stepIndex, (n.get(s.stepIndex) ?? 0) + 1);
    }
    return n;
  }

  pendingPositions(): number[] {
    return [...this.steps.values()].filter((s) => s.pendingTwin).map((s) => s.position);
  }

  firstPositions(): Map<number, number> {
    const first = new Map<number, number>();
    for (const s of this.inOrder()) if (!first.has(s.stepIndex)) first.set(s.stepIndex, s.position);
    return first;
  }

  private inOrder(): StepRow[] {
    return [...this.steps.values()].sort((a, b) => a.position - b.position);
  }

  stepsInOrder(): StepInOrder[] {
    return this.inOrder().map((s) => ({
      position: s.position,
      step_index: s.stepIndex,
      line: s.line,
      start_byte: s.start,
      end_byte: s.end,
      type: s.type,
      pending_twin: s.pendingTwin ? 1 : 0,
      tail: s.tail ? 1 : 0,
    }));
  }

  statsRows(): StatsStepRow[] {
    return this.inOrder().map((s) => ({
      type: s.type,
      status: s.status,
      created_at: s.createdAt,
      tool_calls: s.toolCalls,
      calls: s.calls,
      exit_code: s.exitCode,
    }));
  }

  progress(values: Record<string, unknown>): void {
    this.op('progress', values);
  }

  setHead(dir: string, head: unknown): void {
    this.op('setHead', dir, head);
  }

  getFilesState(): string | null {
    return null;
  }

  setFilesState(sid: number, json: string): void {
    this.op('setFilesState', sid, json);
  }

  putStats(sid: number, json: string): void {
    this.op('putStats', sid, json);
  }

  touch(sid: number, at: number): void {
    this.op('touch', sid, at);
  }

  setQuickSig(sid: number, sig: string): void {
    this.op('setQuickSig', sid, sig);
  }

  lineIndex(): LineIndexSnapshot | null {
    return null;
  }

  lineIndexView(): string | null {
    return null;
  }

  /**
   * The session's texts written so far are masked with `values` where they are written (the
   * values travel in memory to that thread, never to CACHE_DIR).
   */
  sweepValues(sid: number, values: ReadonlyMap<string, string>): number {
    if (values.size === 0) return 0;
    this.generation++;
    this.op('sweepValues', sid, [...values]);
    return 0;
  }

  /** Nothing is committed here: the replay's commits checkpoint (Tables.checkpointIfSwept). */
  checkpointIfSwept(): void {}

  putLineIndex(sid: number, snap: LineIndexSnapshot): void {
    this.op('putLineIndex', sid, snap);
  }

  dropSession(): void {
    throw new Error('a tape never drops a session');
  }

  asTables(): Tables {
    return this as unknown as Tables;
  }
}

/** The text bytes an op carries (the replay yields between pieces of about a bounded size). */
export function opBytes(op: TapeOp): number {
  if (op[0] === 'rows') return (op[1] as RowRun).bytes;
  return op[0] === 'putDoc' ? (op[2] as DocRow).text.length : 64;
}

/**
 * Runs recorded ops against the index's tables; `at.sid` is the session's row id (0 until the
 * ensureSession op makes it, at once: a later op's error knows which session it tore). Buffers
 * come back from a worker as plain Uint8Arrays, which SQLite binds only as Buffers.
 */
export function replayTape(t: Tables, at: { sid: number }, ops: TapeOp[]): void {
  for (const op of ops) {
    const sid = at.sid;
    const a = op as unknown[];
    switch (op[0]) {
      case 'ensureSession':
        at.sid = t.ensureSession(a[1] as Parameters<Tables['ensureSession']>[0], undefined);
        break;
      case 'deleteSteps':
        t.deleteSteps(sid, a[2] as number, a[3] as number);
        break;
      case 'deleteLineFindings':
        t.deleteLineFindings(sid, a[2] as number);
        break;
      case 'putLineFindings':
        t.putLineFindings(sid, a[2] as number, a[3] as DocRow['findings']);
        break;
      case 'putDoc':
        t.putDoc(sid, a[2] as DocRow, a[3] as boolean);
        break;
      case 'putStep':
        t.putStep(sid, a[2] as StepRow);
        break;
      case 'progress':
        t.progress({ ...(a[1] as Record<string, unknown>), sid });
        break;
      case 'setHead':
        t.setHead(a[1] as string, a[2] as Parameters<Tables['setHead']>[1]);
        break;
      case 'setFilesState':
        t.setFilesState(sid, a[2] as string);
        break;
      case 'putStats':
        t.putStats(sid, a[2] as string);
        break;
      case 'touch':
        t.touch(sid, a[2] as number);
        break;
      case 'setQuickSig':
        t.setQuickSig(sid, a[2] as string);
        break;
      case 'rows':
        replayRows(t, sid, a[1] as RowRun);
        break;
      case 'sweepValues':
        t.sweepValues(sid, new Map(a[2] as [string, string][]));
        break;
      case 'putLineIndex': {
        const snap = a[2] as LineIndexSnapshot;
        t.putLineIndex(sid, {
          ...snap,
          starts: asBuffer(snap.starts),
          sniffed: asBuffer(snap.sniffed),
        });
        break;
      }
    }
  }
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
