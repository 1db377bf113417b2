import type { Findings } from './redacted-texts';
import type { DocRow, StepRow, Tables } from './sqlite/tables';

/**
 * A session tape's bulk (its putStep and putDoc ops, a record's step and its texts, one after
 * another) in columns, as a worker hands it to the thread that writes index.sqlite. Posted as
 * objects, each step and doc was cloned field by field, its keys spelled out each time, and
 * the main thread rebuilt every object before its handler ran: for 60,000 steps and docs of
 * 900 characters, 670-900 ms there (the worker's post 240-480 ms); packed, 280-310 ms (pack
 * and post 130-350 ms). Here the numbers are typed arrays (one copy each) and every string of
 * the run is one string, cut again by the lengths beside the numbers (a string is cloned as
 * one copy; 180,000 small ones each cost their own). The replay calls the tables with the
 * same rows in the same order (rowids follow it).
 */
export interface RowRun {
  /** Per row in order: 0 a step, 1 a doc. */
  order: Uint8Array;
  /**
   * Per step: position, stepIndex, line, start, end, createdAt, toolCalls, exitCode, and the
   * lengths of its type, status and calls in `chars`.
   */
  stepNums: Float64Array;
  /** Per step: bit 0 pendingTwin, 1 tail, 2 createdAt is null, 3 exitCode is null, 4 calls is null. */
  stepFlags: Uint8Array;
  /** Per doc: position, field, its findings' count, fresh (1 or 0), its name's and text's lengths. */
  docNums: Float64Array;
  /** Every string of the run, in order (a step's type, status, calls; a doc's name, text). */
  chars: string;
  /** The docs' findings in order: kind, then its count in `counts`. */
  kinds: string[];
  counts: Float64Array;
  /** Text bytes as the byte budget counts them (see opBytes): text length, 64 a step. */
  bytes: number;
}

const STEP_NUMS = 11;
const DOC_NUMS = 6;

/** A run is cut at about this many bytes: the replay yields between runs (see apply). */
const RUN_BYTES = 128 * 1024;

type Op = [method: string, ...args: unknown[]];

/** `ops` with every run of putStep and putDoc ops replaced by one ['rows', RowRun] op. */
export function packRows<T extends Op>(ops: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < ops.length;) {
    if (!isRow(ops[i])) {
      out.push(ops[i++]);
      continue;
    }
    let j = i;
    let bytes = 0;
    while (j < ops.length && isRow(ops[j]) && (j === i || bytes < RUN_BYTES)) {
      bytes += ops[j][0] === 'putDoc' ? (ops[j][2] as DocRow).text.length : 64;
      j++;
    }
    out.push(['rows', pack(ops.slice(i, j))] as unknown as T);
    i = j;
  }
  return out;
}

function isRow(op: Op): boolean {
  return op[0] === 'putStep' || op[0] === 'putDoc';
}

function pack(ops: Op[]): RowRun {
  const steps = ops.filter((o) => o[0] === 'putStep').map((o) => o[2] as StepRow);
  const docs = ops.filter((o) => o[0] === 'putDoc');
  const order = new Uint8Array(ops.length);
  ops.forEach((o, k) => (order[k] = o[0] === 'putDoc' ? 1 : 0));
  const stepNums = new Float64Array(steps.length * STEP_NUMS);
  const stepFlags = new Uint8Array(steps.length);
  const strings: string[] = [];
  let bytes = 0;
  // The strings in the order the replay reads them: the rows' order.
  let s = 0;
  let d = 0;
  const docNums = new Float64Array(docs.length * DOC_NUMS);
  const kinds: string[] = [];
  const counts: number[] = [];
  for (const kind of order) {
    if (kind === 0) {
      const r = steps[s];
      const calls = r.calls ?? '';
      const k = s * STEP_NUMS;
      stepNums[k] = r.position;
      stepNums[k + 1] = r.stepIndex;
      stepNums[k + 2] = r.line;
      stepNums[k + 3] = r.start;
      stepNums[k + 4] = r.end;
      stepNums[k + 5] = r.createdAt ?? 0;
      stepNums[k + 6] = r.toolCalls;
      stepNums[k + 7] = r.exitCode ?? 0;
      stepNums[k + 8] = r.type.length;
      stepNums[k + 9] = r.status.length;
      stepNums[k + 10] = calls.length;
      stepFlags[s] =
        (r.pendingTwin ? 1 : 0) |
        (r.tail ? 2 : 0) |
        (r.createdAt === null ? 4 : 0) |
        (r.exitCode === null ? 8 : 0) |
        (r.calls === null ? 16 : 0);
      strings.push(r.type, r.status, calls);
      bytes += 64;
      s++;
      continue;
    }
    const o = docs[d];
    const doc = o[2] as DocRow;
    const k = d * DOC_NUMS;
    docNums[k] = doc.position;
    docNums[k + 1] = doc.field;
    docNums[k + 2] = doc.findings.size;
    docNums[k + 3] = o[3] ? 1 : 0;
    docNums[k + 4] = doc.name.length;
    docNums[k + 5] = doc.text.length;
    strings.push(doc.name, doc.text);
    for (const [kind, count] of doc.findings) {
      kinds.push(kind);
      counts.push(count);
    }
    bytes += doc.text.length;
    d++;
  }
  const chars = strings.join('');
  return {
    order,
    stepNums,
    stepFlags,
    docNums,
    chars,
    kinds,
    counts: Float64Array.from(counts),
    bytes,
  };
}

/** Writes a run's rows with `sid`, as the ops it packs would have. */
export function replayRows(t: Tables, sid: number, r: RowRun): void {
  let s = 0;
  let d = 0;
  let f = 0;
  let at = 0;
  const next = (length: number) => r.chars.slice(at, (at += length));
  for (const kind of r.order) {
    if (kind === 0) {
      const n = r.stepNums.subarray(s * STEP_NUMS, (s + 1) * STEP_NUMS);
      const flags = r.stepFlags[s];
      const type = next(n[8]);
      const status = next(n[9]);
      const calls = next(n[10]);
      t.putStep(sid, {
        position: n[0],
        stepIndex: n[1],
        line: n[2],
        start: n[3],
        end: n[4],
        type,
        status,
        createdAt: flags & 4 ? null : n[5],
        toolCalls: n[6],
        calls: flags & 16 ? null : calls,
        exitCode: flags & 8 ? null : n[7],
        pendingTwin: (flags & 1) !== 0,
        tail: (flags & 2) !== 0,
      });
      s++;
      continue;
    }
    const n = r.docNums.subarray(d * DOC_NUMS, (d + 1) * DOC_NUMS);
    const findings: Findings = new Map();
    for (const end = f + n[2]; f < end; f++) findings.set(r.kinds[f], r.counts[f]);
    const name = next(n[4]);
    const text = next(n[5]);
    t.putDoc(sid, { position: n[0], field: n[1], name, text, findings }, n[3] === 1);
    d++;
  }
}
