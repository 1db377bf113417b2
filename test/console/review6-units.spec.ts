import { countPlaces } from '../../console/src/views/dashboard/count-places';
import { activeFilters } from '../../console/src/views/dashboard/active-filters';
import { errorShare } from '../../console/src/views/dashboard/error-share';
import { kindChoice } from '../../console/src/views/secrets/kinds';
import { sessionCandidates, sessionRefused } from '../../console/src/views/search/search-notes';

describe('the console after its sixth outside review (units)', () => {
  it('always places the maximum count, over its neighbours’ room, dropping a count it covers (3)', () => {
    // 40 columns of 10 units: 302 is 21.6 units wide, its neighbours are non-zero.
    const values = Array.from({ length: 40 }, (_, i) =>
      i === 20 ? 302 : i === 19 || i === 21 ? 9 : 0,
    );
    const places = countPlaces(values, 400);
    expect(places[20]).toEqual({ x: 205, textAnchor: 'middle', over: true });
    expect([places[19], places[21]]).toEqual([null, null]);
    // A maximum with room is placed as before, not over.
    const roomy = countPlaces([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 99, 0], 1800);
    expect(roomy[16]).toEqual({ x: 1650, textAnchor: 'middle' });
    // All zeros: nothing.
    expect(countPlaces(new Array(30).fill(0), 300).every((p) => p === null)).toBe(true);
  });

  it('names the dashboard’s filters as the filter bar does (2)', () => {
    expect(activeFilters({})).toEqual([]);
    expect(
      activeFilters({
        to: '2026-12-01',
        model: 'Claude Sonnet 4.5',
        errors: 'false',
        q: 'x',
        hour: 'mon-09',
      }),
    ).toEqual([
      ['Text', 'x'],
      ['Model', 'Claude Sonnet 4.5'],
      ['Hour (UTC)', 'mon-09'],
      ['Errors', 'without'],
      ['To', '2026-12-01'],
    ]);
    expect(activeFilters({ errors: 'maybe' })).toEqual([['Errors', 'maybe']]);
  });

  it('writes a tool’s error share, never 0% beside an error (5)', () => {
    expect([
      errorShare(0, 5),
      errorShare(1, 229),
      errorShare(1, 2),
      errorShare(228, 229),
      errorShare(3, 3),
    ]).toEqual(['0%', '<1%', '50%', '>99%', '100%']);
  });

  it('keeps the known kind of several, saying the rest (8)', () => {
    expect(kindChoice('bogus,aws-access-key', ['aws-access-key', 'jwt'])).toEqual({
      kind: 'aws-access-key',
      problems: [
        'kind=bogus is no kind found in the sessions your key reads (found: aws-access-key, jwt); it is left out.',
      ],
    });
    expect(kindChoice('jwt,aws-access-key,x,y', ['aws-access-key', 'jwt'])).toEqual({
      kind: 'jwt',
      problems: [
        'kind=x, kind=y are no kind found in the sessions your key reads (found: aws-access-key, jwt); they are left out.',
        'One kind is listed at a time: jwt; aws-access-key is left out.',
      ],
    });
    expect(kindChoice(undefined, ['jwt'])).toEqual({ kind: undefined, problems: [] });
  });

  it('lists an ambiguous prefix’s ids whole, at most 10, and says a refused one plainly (6, 7)', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c5000000-0000-4000-8000-0000000000${10 + i}`);
    expect(
      sessionCandidates('c5000000', { code: 'AMBIGUOUS_SESSION_ID', candidates: ids }),
    ).toEqual({
      shown: ids.slice(0, 10),
      more: 2,
    });
    expect(sessionCandidates('c5000000', { code: 'BAD_USER_INPUT' })).toBeNull();
    expect(
      sessionRefused('c50', {
        code: 'BAD_USER_INPUT',
        message: '"filter.session" must be a full session id or a prefix of at least 4 characters',
      }),
    ).toEqual([
      'session=c50 is too short: give a whole session id or its first 4 characters or more; no hit is listed.',
    ]);
    expect(sessionRefused('c50', { code: 'BAD_USER_INPUT', message: 'query is empty' })).toEqual(
      [],
    );
  });
});
