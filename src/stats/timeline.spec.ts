import { countsOf, toolsOf } from './counts';
import { TimeBucket } from './stats.model';
import { bucketStart, timeline } from './timeline';

const iso = (ms: number) => new Date(ms).toISOString();
const ms = Date.parse;

describe('bucketStart', () => {
  it.each([
    [TimeBucket.HOUR, '2026-07-06T23:59:59.999Z', '2026-07-06T23:00:00.000Z'],
    [TimeBucket.DAY, '2026-07-06T23:59:59.999Z', '2026-07-06T00:00:00.000Z'],
    // Monday itself, a Sunday night, and a week across a year's end.
    [TimeBucket.WEEK, '2026-07-06T00:00:00.000Z', '2026-07-06T00:00:00.000Z'],
    [TimeBucket.WEEK, '2026-07-12T23:59:59.999Z', '2026-07-06T00:00:00.000Z'],
    [TimeBucket.WEEK, '2027-01-01T12:00:00.000Z', '2026-12-28T00:00:00.000Z'],
    // Before 1970 (negative times round down, not toward zero).
    [TimeBucket.WEEK, '1969-12-31T23:00:00.000Z', '1969-12-29T00:00:00.000Z'],
    [TimeBucket.DAY, '1969-12-31T23:00:00.000Z', '1969-12-31T00:00:00.000Z'],
    [TimeBucket.MONTH, '2026-02-28T23:59:59.999Z', '2026-02-01T00:00:00.000Z'],
    [TimeBucket.MONTH, '2024-02-29T10:00:00.000Z', '2024-02-01T00:00:00.000Z'],
    // Years 0-99 are not 1900-1999.
    [TimeBucket.MONTH, '0001-01-15T10:00:00.000Z', '0001-01-01T00:00:00.000Z'],
    [TimeBucket.MONTH, '0099-12-31T23:00:00.000Z', '0099-12-01T00:00:00.000Z'],
  ])('%s of %s starts at %s', (bucket, at, start) => {
    expect(iso(bucketStart(ms(at), bucket))).toBe(start);
  });
});

describe('timeline', () => {
  it('adds sessions and pre-counted hours into non-empty ascending buckets', () => {
    const hours: [number, number, number, number, number][] = [
      [ms('2026-08-31T23:00:00Z'), 2, 1, 0, 1],
      [ms('2026-09-01T00:00:00Z'), 3, 2, 1, 0],
    ];
    // Two steps without a time (one call, a failed command): at the session's createdAt.
    const stats = {
      model: null,
      updatedAt: null,
      stats: { hours, untimed: [2, 1, 1, 1] } as never,
    };
    expect(
      timeline(
        [
          { createdAt: ms('2026-09-02T00:00:00Z'), indexed: null },
          { createdAt: ms('2026-08-31T23:30:00Z'), indexed: stats },
          { createdAt: Number.NaN, indexed: null },
        ],
        TimeBucket.MONTH,
      ).map((b) => ({ ...b, start: iso(b.start.getTime()) })),
    ).toEqual([
      {
        start: '2026-08-01T00:00:00.000Z',
        sessions: 1,
        steps: 4,
        toolCalls: 2,
        errors: 1,
        failedCommands: 2,
      },
      {
        start: '2026-09-01T00:00:00.000Z',
        sessions: 1,
        steps: 3,
        toolCalls: 2,
        errors: 1,
        failedCommands: 0,
      },
    ]);
  });
});

describe('count lists', () => {
  it('order by count, then key in code-unit order (not locale), null last', () => {
    const m = new Map<string | null, number[]>([
      [null, [2]],
      ['é', [2]],
      ['z', [2]],
      ['Z', [2]],
      ['a', [5]],
    ]);
    expect(countsOf(m)).toEqual([
      { key: 'a', count: 5 },
      { key: 'Z', count: 2 },
      { key: 'z', count: 2 },
      { key: 'é', count: 2 },
      { key: null, count: 2 },
    ]);
  });

  it('order tools by calls, then name', () => {
    const m = new Map<string | null, number[]>([
      ['b', [1, 1]],
      ['a', [1, 0]],
      ['__proto__', [3, 0]],
    ]);
    expect(toolsOf(m)).toEqual([
      { name: '__proto__', calls: 3, errors: 0 },
      { name: 'a', calls: 1, errors: 0 },
      { name: 'b', calls: 1, errors: 1 },
    ]);
  });
});
