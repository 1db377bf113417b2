import { count } from '../../console/src/components/text';
import { diffCounts } from '../../console/src/components/diff-counts';
import { parseSearch, stringifySearch } from '../../console/src/routes/search-params';
import { cellFont } from '../../console/src/views/dashboard/cell-count';
import {
  filterProblems,
  parseSessionSearch,
  toFilter,
} from '../../console/src/views/sessions/filters';

/** The console's pure rules behind the fixes of its outside review (issue 20). */
describe('the console review fixes, as rules', () => {
  it('keeps every value of a repeated query parameter, joined as the comma form', () => {
    expect(parseSearch('env=ide&env=acp&errors=true')).toEqual({
      env: 'ide,acp',
      errors: 'true',
    });
    expect(parseSearch('env=ide,acp')).toEqual({ env: 'ide,acp' });
    const search = parseSessionSearch(parseSearch('?env=ide&env=acp'));
    expect(toFilter(search).environment).toEqual(['IDE', 'ACP']);
    expect(stringifySearch({ ...search })).toBe('?env=ide,acp');
  });

  it('leaves out the filter values the API would refuse, and says what is accepted', () => {
    const search = parseSessionSearch({
      env: 'zzz,ide',
      hour: 'xyz_99',
      from: 'notadate',
      to: '2026-07-02',
    });
    const filter = toFilter(search);
    expect([filter.environment, filter.hourOfWeek, filter.createdAfter]).toEqual([
      ['IDE'],
      undefined,
      undefined,
    ]);
    expect(filter.createdBefore).toBe('2026-07-03T00:00:00.000Z');
    expect(filterProblems(search)).toEqual([
      'env=zzz names no environment (accepted: ide, cli, acp, other, comma-separated); it is left out.',
      'In hour, xyz_99 names no hour of the week (accepted: mon-00 to sun-23 in UTC, or 0 to 167, comma-separated); it is left out.',
      'from=notadate is no date (accepted: a calendar day YYYY-MM-DD, or a time such as 2026-06-01T09:00:00Z); it is left out.',
    ]);
    expect(filterProblems(parseSessionSearch({ env: 'ide', hour: 'mon-09,58' }))).toEqual([]);
    expect(toFilter(parseSessionSearch({ hour: 'mon-09,nope' })).hourOfWeek).toEqual([9]);
  });

  it('names only the parts of hour= that name no hour, and a from after its to (review 3)', () => {
    const said = (raw: Record<string, string>) => filterProblems(parseSessionSearch(raw));
    const accepted = '(accepted: mon-00 to sun-23 in UTC, or 0 to 167, comma-separated)';
    expect(said({ hour: 'mon-09,xyz' })).toEqual([
      `In hour, xyz names no hour of the week ${accepted}; it is left out, mon-09 is kept.`,
    ]);
    expect(said({ hour: 'a,mon-09,b,58' })).toEqual([
      `In hour, a and b name no hour of the week ${accepted}; they are left out, mon-09, 58 are kept.`,
    ]);
    expect(said({ from: '2026-07-04', to: '2026-07-01' })).toEqual([
      'from=2026-07-04 is not before to=2026-07-01: no session can be created between them (swap them for the range you meant).',
    ]);
    // One day (to takes the whole day) is a range.
    expect(said({ from: '2026-07-04', to: '2026-07-04' })).toEqual([]);
    // Equal times are not (review 3 L2); impossible days are no dates, not rolled over (M2).
    const t = '2026-11-01T00:00:00Z';
    expect(said({ from: t, to: t })).toEqual([
      `from=${t} is not before to=${t}: no session can be created between them (swap them for the range you meant).`,
    ]);
    const noDate = (k: string, v: string) =>
      `${k}=${v} is no date (accepted: a calendar day YYYY-MM-DD, or a time such as 2026-06-01T09:00:00Z); it is left out.`;
    expect(said({ from: '2026-02-30', to: '2026-11-31T10:00:00Z' })).toEqual([
      noDate('from', '2026-02-30'),
      noDate('to', '2026-11-31T10:00:00Z'),
    ]);
    expect(toFilter(parseSessionSearch({ to: '2026-11-31' })).createdBefore).toBeUndefined();
    expect(toFilter(parseSessionSearch({ to: '2026-11-30' })).createdBefore).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('sizes a heatmap count, written exact, to fit its cell (review 3: no 1.2k)', () => {
    expect([0, 7, 999, 1000, 9999, 36_000, 999_999, 1_250_000].map(cellFont)).toEqual([
      // Up to three digits 11.5 units (10 px at the grid's narrowest, review 6), not 10.
      11.5, 11.5, 11.5, 8.9, 8.9, 7.1, 5.9, 5.1,
    ]);
  });

  it('counts the lines of a diff as shown, its file names aside', () => {
    const diff = [
      '--- /dev/null',
      '+++ /w/key.pem',
      '@@ -0,0 +1,3 @@',
      '+before',
      '+-----BEGIN RSA PRIVATE KEY-----[REDACTED]',
      '+after',
    ].join('\n');
    expect(diffCounts(diff)).toEqual({ added: 3, removed: 0 });
    expect(diffCounts('--- a\n+++ b\n@@ -1 +1 @@\n--- old\n+++ new\n x')).toEqual({
      added: 1,
      removed: 1,
    });
    expect(diffCounts('')).toBeNull();
  });

  it('writes counts with their plural forms', () => {
    expect([count(0, 'session'), count(1, 'session'), count(2, 'tool call')]).toEqual([
      '0 sessions',
      '1 session',
      '2 tool calls',
    ]);
  });
});
