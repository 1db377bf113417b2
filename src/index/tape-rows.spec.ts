import type { DocRow, StepRow, Tables } from './sqlite/tables';
import { packRows, replayRows, type RowRun } from './tape-rows';

/** The tables' calls a replay makes, in order. */
function replayed(ops: [string, ...unknown[]][]): unknown[][] {
  const calls: unknown[][] = [];
  const t = {
    putStep: (sid: number, r: StepRow) => calls.push(['putStep', sid, r]),
    putDoc: (sid: number, d: DocRow, fresh: boolean) => calls.push(['putDoc', sid, d, fresh]),
  } as unknown as Tables;
  for (const op of packRows(ops)) {
    if (op[0] === 'rows') replayRows(t, 7, op[1] as RowRun);
    else calls.push(op);
  }
  return calls;
}

const step = (position: number, over: Partial<StepRow> = {}): StepRow => ({
  position,
  stepIndex: position,
  line: position + 1,
  start: position * 10,
  end: position * 10 + 9,
  type: 'PLANNER_RESPONSE',
  status: 'DONE',
  createdAt: 1_700_000_000_123,
  toolCalls: 2,
  calls: '[["run_command",0]]',
  exitCode: 0,
  pendingTwin: false,
  tail: false,
  ...over,
});

const doc = (position: number, text: string, findings: [string, number][] = []): DocRow => ({
  position,
  field: 1,
  name: '',
  text,
  findings: new Map(findings),
});

describe('tape rows', () => {
  it('replay the steps and docs they pack as the ops would have, in order, with sid', () => {
    const steps = [
      step(0),
      step(1, { createdAt: null, exitCode: null, calls: null, pendingTwin: true }),
      step(2, { calls: '', exitCode: 127, tail: true, createdAt: Number.NaN, type: 'É\ud800' }),
    ];
    const docs = [
      doc(0, 'hello 🚀 world', [
        ['aws', 2],
        ['github', 1],
      ]),
      doc(-1, ''),
      { ...doc(-1, 'lone \udc00 surrogate'), name: 'notes/Plan.md', field: 4 },
      doc(2, 'x'.repeat(200_000)),
    ];
    const ops: [string, ...unknown[]][] = [
      ['ensureSession', { dir: '/d' }],
      ['putStep', -1, steps[0]],
      ['putDoc', -1, docs[0], true],
      ['putDoc', -1, docs[1], false],
      ['setHead', '/d', null],
      ['putStep', -1, steps[1]],
      ['putDoc', -1, docs[2], true],
      ['putStep', -1, steps[2]],
      ['putDoc', -1, docs[3], false],
    ];
    const expected = ops.map((op) =>
      op[0] === 'putStep'
        ? ['putStep', 7, op[2]]
        : op[0] === 'putDoc'
          ? ['putDoc', 7, op[2], op[3]]
          : op,
    );
    expect(replayed(ops)).toEqual(expected);
  });

  it('cut runs at about 128 KiB of text (the replay yields between them), none empty', () => {
    const ops: [string, ...unknown[]][] = [];
    for (let i = 0; i < 10; i++) {
      ops.push(['putStep', -1, step(i)], ['putDoc', -1, doc(i, 'y'.repeat(50_000)), true]);
    }
    const packed = packRows(ops);
    expect(packed.length).toBe(4);
    const bytes = packed.map((op) => (op[1] as RowRun).bytes);
    expect(bytes.reduce((a, b) => a + b)).toBe(10 * (50_000 + 64));
    expect(packRows([])).toEqual([]);
  });
});
