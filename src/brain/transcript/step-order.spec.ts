import { SNIFF_EMPTY as E, SNIFF_UNKNOWN as U, StepOrder } from './step-order';

describe('StepOrder', () => {
  const order = (steps: number[]) => StepOrder.of(Int32Array.from(steps), steps.length);

  it('finds the lines of a step and the unknown ones, in file order (steps in order)', () => {
    const o = order([0, 1, U, 1, E, 2, U]);
    expect(o.candidates(1)).toEqual([1, 2, 3, 6]);
    expect(o.candidates(0)).toEqual([0, 2, 6]);
    expect(o.candidates(5)).toEqual([2, 6]);
  });

  it('does the same when the steps are out of order (restarted numbering, duplicates)', () => {
    const o = order([5, 6, 0, U, 6, 1, 0, 999_999_999, E]);
    expect(o.candidates(6)).toEqual([1, 3, 4]);
    expect(o.candidates(0)).toEqual([2, 3, 6]);
    expect(o.candidates(999_999_999)).toEqual([3, 7]);
    expect(o.candidates(2)).toEqual([3]);
  });

  it('counts only the first `count` entries of the array', () => {
    const o = StepOrder.of(Int32Array.from([3, 3, 3, 0]), 2);
    expect([o.candidates(3), o.candidates(0)]).toEqual([[0, 1], []]);
  });
});
