import { refusal } from '../../console/src/api/refusal';
import { continuous } from '../../console/src/views/dashboard/buckets';

/** The third outside review's units: a continuous date axis (item 9). */
describe('continuous timeline buckets', () => {
  const empty = (start: string) => ({ start, n: 0 });
  const starts = (bs: { start: string; n: number }[]) => bs.map((b) => `${b.start} ${b.n}`);

  it('fills the empty days, weeks and months between the non-empty ones', () => {
    expect(
      starts(
        continuous(
          [
            { start: '2026-07-01T00:00:00.000Z', n: 1 },
            { start: '2026-07-04T00:00:00.000Z', n: 2 },
          ],
          'day',
          empty,
        ),
      ),
    ).toEqual([
      '2026-07-01T00:00:00.000Z 1',
      '2026-07-02T00:00:00.000Z 0',
      '2026-07-03T00:00:00.000Z 0',
      '2026-07-04T00:00:00.000Z 2',
    ]);
    expect(
      starts(
        continuous(
          [
            { start: '2026-06-29T00:00:00.000Z', n: 1 },
            { start: '2026-07-13T00:00:00.000Z', n: 2 },
          ],
          'week',
          empty,
        ),
      ),
    ).toEqual([
      '2026-06-29T00:00:00.000Z 1',
      '2026-07-06T00:00:00.000Z 0',
      '2026-07-13T00:00:00.000Z 2',
    ]);
    expect(
      starts(
        continuous(
          [
            { start: '2026-01-01T00:00:00.000Z', n: 1 },
            { start: '2026-04-01T00:00:00.000Z', n: 2 },
          ],
          'month',
          empty,
        ),
      ),
    ).toEqual([
      '2026-01-01T00:00:00.000Z 1',
      '2026-02-01T00:00:00.000Z 0',
      '2026-03-01T00:00:00.000Z 0',
      '2026-04-01T00:00:00.000Z 2',
    ]);
  });

  it('keeps an answer whose starts are off its grid as it came', () => {
    const odd = [
      { start: '2026-07-01T00:00:00.000Z', n: 1 },
      { start: '2026-07-02T12:00:00.000Z', n: 2 },
    ];
    expect(continuous(odd, 'day', empty)).toEqual(odd);
  });
});

/** Review 3 M4: a refused download says the route's reason, not only its status. */
describe('a refused download', () => {
  it("says the route's error message after the status, or the status alone", async () => {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    expect(
      await refusal(json(404, { error: { code: 'NOT_FOUND', message: 'No such file.' } })),
    ).toBe('HTTP 404: No such file.');
    expect(await refusal(json(401, { error: {} }))).toBe('HTTP 401');
    expect(await refusal(new Response('<html>', { status: 502 }))).toBe('HTTP 502');
  });
});
