import { dateArg } from './stats';

describe('stats --since', () => {
  it('takes a calendar date or an ISO-8601 instant', () => {
    expect(dateArg('2026-06-01')).toBe('2026-06-01T00:00:00.000Z');
    expect(dateArg('2026-02-28T10:30:00Z')).toBe('2026-02-28T10:30:00.000Z');
    expect(dateArg('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses impossible dates as the server does, instead of rolling them over', () => {
    for (const bad of [
      '2026-02-30',
      '2026-04-31',
      '2026-02-29T00:00:00Z',
      '2026-13-01',
      'yesterday',
    ]) {
      expect(() => dateArg(bad)).toThrow(
        `--since: ${JSON.stringify(bad)} is not an ISO-8601 date, e.g. 2026-06-01`,
      );
    }
  });
});
