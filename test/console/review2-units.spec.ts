import type { SessionFilter } from '../../console/src/gql/graphql';
import {
  appliedSearch,
  envChoice,
  filterProblems,
  parseSessionSearch,
  toFilter,
} from '../../console/src/views/sessions/filters';
import { parseSearch } from '../../console/src/routes/search-params';
import {
  compareTable,
  neighbour,
  type FetchRows,
  type Place,
} from '../../console/src/views/session/neighbour-order';

/** The console's rules behind the fixes of its second outside review (M2, M3, M5). */
describe('the console second review fixes, as rules', () => {
  it('leaves a bad errors= value out of the query and says what is accepted (M2)', () => {
    const cases: [string, string][] = [
      ['errors=maybe', 'maybe'],
      ['errors=1', '1'],
      ['errors=TRUE', 'TRUE'],
      ['errors=', ''],
      ['errors=true&errors=false', 'true,false'],
    ];
    for (const [query, shownValue] of cases) {
      const search = parseSessionSearch(parseSearch(query));
      expect([query, toFilter(search).hasErrors]).toEqual([query, undefined]);
      expect(filterProblems(search)).toEqual([
        `errors=${shownValue} names no choice (accepted: true, false); it is left out.`,
      ]);
    }
    for (const [query, has] of [
      ['errors=true', true],
      ['errors=false', false],
    ] as const) {
      const search = parseSessionSearch(parseSearch(query));
      expect(toFilter(search).hasErrors).toBe(has);
      expect(filterProblems(search)).toEqual([]);
    }
  });

  it('shows a list of environments as one choice and Apply keeps what was not changed (M3)', () => {
    expect(envChoice('acp,cli')).toBe('acp,cli');
    expect(envChoice('ACP,zzz')).toBe('acp');
    expect(envChoice('zzz')).toBe('');
    expect(envChoice(undefined)).toBe('');
    // The form as the filter bar sends it for ?env=acp&env=cli after typing "deploy" in Text.
    const form: [string, string][] = [
      ['q', 'deploy'],
      ['env', 'acp,cli'],
      ['flavor', ''],
      ['model', ''],
      ['tool', 'run_command'],
      ['hour', ''],
      ['errors', ''],
      ['from', ''],
      ['to', ''],
    ];
    expect(appliedSearch(form)).toEqual({ q: 'deploy', env: 'acp,cli', tool: 'run_command' });
    expect(appliedSearch([['errors', 'true']])).toEqual({ errors: 'true' });
  });

  // A fake sessions API: the server's order and bounds (createdAfter inclusive, createdBefore
  // exclusive), keyset pages by position.
  const api = (sessions: (Place & { env: string })[]): FetchRows => {
    return (filter, order, first, after) => {
      const t = (s: Place) => Date.parse(s.createdAt);
      const sorted = sessions
        .filter((s) => !filter.environment || filter.environment.includes(s.env as never))
        .filter((s) => !filter.createdAfter || t(s) >= Date.parse(filter.createdAfter))
        .filter((s) => !filter.createdBefore || t(s) < Date.parse(filter.createdBefore))
        .sort((a, b) =>
          order === 'NEWEST_FIRST'
            ? compareTable(a, b)
            : t(a) - t(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
      const start = after === null ? 0 : Number(after);
      const rows = sorted.slice(start, start + first);
      return Promise.resolve({
        rows,
        endCursor: String(start + rows.length),
        hasNextPage: start + first < sorted.length,
      });
    };
  };

  it('moves through the table in its order, ties by id, filters kept, never skipping or looping (M5)', async () => {
    const T1 = '2026-07-01T10:00:00.000Z';
    const T2 = '2026-07-02T10:00:00.000Z';
    const T3 = '2026-07-03T10:00:00.000Z';
    const all = [
      { id: 'c', createdAt: T2, env: 'IDE' },
      { id: 'a', createdAt: T2, env: 'IDE' },
      { id: 'b', createdAt: T2, env: 'ACP' },
      { id: 'd', createdAt: T2, env: 'IDE' },
      { id: 'e', createdAt: T3, env: 'IDE' },
      { id: 'f', createdAt: T3, env: 'IDE' },
      { id: 'g', createdAt: T1, env: 'IDE' },
      { id: 'h', createdAt: T1, env: 'IDE' },
    ];
    const fetch = api(all);
    const walk = async (filter: object, from: string, below: boolean) => {
      const seen = [from];
      for (let here = from; ;) {
        const s = all.find((x) => x.id === here)!;
        const to = await neighbour(fetch, filter, s, below);
        if (to === null) return seen;
        seen.push(to);
        here = to;
        if (seen.length > 20) throw new Error(`loops: ${seen.join(' ')}`);
      }
    };
    // The table: e f | a b c d | g h (newest first, ties by id ascending).
    expect(await walk({}, 'e', true)).toEqual(['e', 'f', 'a', 'b', 'c', 'd', 'g', 'h']);
    expect(await walk({}, 'h', false)).toEqual(['h', 'g', 'd', 'c', 'b', 'a', 'f', 'e']);
    // ?env=ide: b is not in the table.
    const ide: SessionFilter = { environment: ['IDE'] };
    expect(await walk(ide, 'e', true)).toEqual(['e', 'f', 'a', 'c', 'd', 'g', 'h']);
    expect(await walk(ide, 'h', false)).toEqual(['h', 'g', 'd', 'c', 'a', 'f', 'e']);
    // A session the filter leaves out (opened from search) still has its place.
    expect(await neighbour(fetch, ide, all[2], true)).toBe('c');
    expect(await neighbour(fetch, ide, all[2], false)).toBe('a');
  });
});
