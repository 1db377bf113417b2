import { compareStrings, problem, refusalProblem, sortProblems } from './problems';

describe('problems', () => {
  it('builds a problem with null file and line by default', () => {
    expect(problem('MALFORMED_LINE', 'bad')).toEqual({
      code: 'MALFORMED_LINE',
      message: 'bad',
      file: null,
      line: null,
    });
  });

  it('maps refusals to problem codes', () => {
    expect(refusalProblem('UNSAFE_PATH', 'm', 'a')).toEqual(problem('UNSAFE_PATH', 'm', 'a'));
    expect(refusalProblem('UNREADABLE', 'm', 'a')).toEqual(problem('UNREADABLE_FILE', 'm', 'a'));
    expect(refusalProblem('ABSENT', 'm', 'a')).toBeNull();
    expect(refusalProblem('NOT_REGULAR', 'm', 'a')).toBeNull();
    expect(refusalProblem('BAD_NAME', 'm', 'a')).toBeNull();
  });

  it('sorts by file, line, code and drops duplicates', () => {
    const sorted = sortProblems([
      problem('UNSAFE_PATH', 'x', 'b.md'),
      problem('MALFORMED_LINE', 'm', 'a', 10),
      problem('UNSAFE_PATH', 'other words', 'b.md'),
      problem('PARTIAL_LAST_LINE', 'p', 'a', 2),
      problem('MALFORMED_LINE', 'm', 'a', 2),
    ]);
    expect(sorted.map((p) => [p.file, p.line, p.code])).toEqual([
      ['a', 2, 'MALFORMED_LINE'],
      ['a', 2, 'PARTIAL_LAST_LINE'],
      ['a', 10, 'MALFORMED_LINE'],
      ['b.md', null, 'UNSAFE_PATH'],
    ]);
  });

  it('compares code units, not locale', () => {
    expect(['b', 'B', '_', '.a', 'a'].sort(compareStrings)).toEqual(['.a', 'B', '_', 'a', 'b']);
  });
});
