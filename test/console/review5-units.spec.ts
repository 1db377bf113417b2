import { fitLabel } from '../../console/src/views/dashboard/fit-label';
import {
  searchOrder,
  sessionCandidates,
  sessionProblems,
} from '../../console/src/views/search/search-notes';
import { kindProblems, noneFound } from '../../console/src/views/secrets/kinds';

/** The fifth outside review's lows (#20) that are units: items 1, 2 and 3. */
describe('a bar label cut by the width of its characters (1)', () => {
  it('keeps a label that fits whole and cuts wide letters sooner than narrow ones', () => {
    expect(fitLabel('gpt-5', 212)).toBe('gpt-5');
    // 12 px a wide letter, 9.5 the ellipsis: 16 M and 16 W in 212 px, cut in the middle
    // (review 6 L5: its end kept).
    expect(fitLabel('M'.repeat(200), 212)).toBe(`${'M'.repeat(8)}…${'M'.repeat(8)}`);
    expect(fitLabel('W'.repeat(200), 212)).toBe(`${'W'.repeat(8)}…${'W'.repeat(8)}`);
    // 7.5 px a lower-case letter: 27 in 212 px.
    expect(fitLabel('a'.repeat(200), 212)).toBe(`${'a'.repeat(14)}…${'a'.repeat(13)}`);
    expect(fitLabel('<b>'.repeat(20), 100)).toBe('<b><b…b><b>');
  });

  it('keeps the end that tells two long model names apart (review 6 L5)', () => {
    expect(
      ['20250929', '20250514'].map((d) => fitLabel(`claude-sonnet-4-5-thinking-${d}`, 122)),
    ).toEqual(['claude-s…0250929', 'claude-s…0250514']);
  });
});

describe('an empty secrets list under a kind, and a kind no finding has (2)', () => {
  it('names the kind', () => {
    expect(noneFound('jwt')).toBe('No finding of kind jwt in the sessions your key reads.');
    expect(noneFound(undefined)).toBe('No secret was found in the sessions your key reads.');
  });
  it('says an unknown kind is left out', () => {
    expect(kindProblems('bogus', ['aws-access-key', 'jwt'])).toEqual([
      'kind=bogus is no kind found in the sessions your key reads (found: aws-access-key, jwt); it is left out.',
    ]);
    expect(kindProblems('jwt', ['jwt'])).toEqual([]);
  });
});

describe('a search order= and session= said when they name nothing (3)', () => {
  it('reads an order in any case and says another', () => {
    expect(searchOrder(undefined)).toEqual({ order: 'relevance', problems: [] });
    expect(searchOrder('NEWEST_FIRST')).toEqual({ order: 'newest_first', problems: [] });
    expect(searchOrder('bogus')).toEqual({
      order: 'relevance',
      problems: [
        'order=bogus names no order (accepted: relevance, newest_first); results are by relevance.',
      ],
    });
  });
  it('says a session that matches none, or several', () => {
    expect(sessionProblems(undefined, { found: false })).toEqual([]);
    expect(sessionProblems('abcd', {})).toEqual([]);
    expect(sessionProblems('abcd', { found: true })).toEqual([]);
    expect(sessionProblems('zzzz', { found: false })).toEqual([
      'session=zzzz matches no session your key reads; no hit is listed.',
    ]);
    // As the console's ApiError carries them.
    const several = Object.assign(new Error('several'), {
      code: 'AMBIGUOUS_SESSION_ID',
      candidates: ['abcd0001-0000-4000-8000-000000000001', 'abcd0002-0000-4000-8000-000000000002'],
    });
    // Several: listed whole, as links, since review 6 (sessionCandidates).
    expect(sessionCandidates('abcd', several)).toEqual({ shown: several.candidates, more: 0 });
    expect(
      sessionCandidates('abc', Object.assign(new Error('short'), { code: 'BAD_USER_INPUT' })),
    ).toBeNull();
  });
});
