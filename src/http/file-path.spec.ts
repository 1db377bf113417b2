import { parseRange } from './file-path';

describe('parseRange', () => {
  it('answers one range, the whole file, or unsatisfiable', () => {
    const cases: [string | undefined, number, ReturnType<typeof parseRange>][] = [
      [undefined, 100, null],
      ['bytes=0-9', 100, { start: 0, end: 9 }],
      ['bytes=10-', 100, { start: 10, end: 99 }],
      ['bytes=-5', 100, { start: 95, end: 99 }],
      ['bytes=90-1000', 100, { start: 90, end: 99 }],
      ['BYTES=1-2', 100, { start: 1, end: 2 }],
      [' bytes=1-2 ', 100, { start: 1, end: 2 }],
      // A suffix longer than the file is the whole file (RFC 9110 14.1.2).
      ['bytes=-500', 100, { start: 0, end: 99 }],
      ['bytes=-500', 0, 'unsatisfiable'],
      // Ranges that merge into one are that one range; several others get the whole file.
      ['bytes=0-4,5-9', 100, { start: 0, end: 9 }],
      ['bytes=0-9,5-20', 100, { start: 0, end: 20 }],
      ['bytes=0-1,5-6', 100, null],
      // Other units and headers without a range set are ignored.
      ['items=0-5', 100, null],
      ['bytes', 100, null],
      ['0-5', 100, null],
      // Nothing satisfiable: 416.
      ['bytes=100-', 100, 'unsatisfiable'],
      ['bytes=5-2', 100, 'unsatisfiable'],
      ['bytes=200-300', 100, 'unsatisfiable'],
      ['bytes=-0', 100, 'unsatisfiable'],
      ['bytes=0-', 0, 'unsatisfiable'],
      ['bytes=abc', 100, 'unsatisfiable'],
    ];
    for (const [header, size, expected] of cases) {
      expect([header, size, parseRange(header, size)]).toEqual([header, size, expected]);
    }
  });
});
