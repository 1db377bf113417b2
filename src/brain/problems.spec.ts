import {
  compareStrings,
  MAX_PROBLEMS,
  problem,
  ProblemList,
  refusalProblem,
  sortProblems,
  tooManyProblems,
} from './problems';

const F = 'f.jsonl';
const malformed = (line: number, file = F) => problem('MALFORMED_LINE', 'bad', file, line);
const lines = (from: number, to: number, file = F) =>
  Array.from({ length: to - from + 1 }, (_, i) => malformed(from + i, file));

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

  describe('the cap (MAX_PROBLEMS = 1000)', () => {
    it('keeps the first 1000 of a view and counts the rest without holding them', () => {
      expect(MAX_PROBLEMS).toBe(1000);
      const list = new ProblemList();
      for (const p of lines(1, 1500)) list.add(p);
      list.count(1501);
      expect(list.listed).toHaveLength(1000);
      expect([list.omitted, list.firstOmittedLine]).toEqual([501, 1001]);
      const snap = list.snapshot(F, [problem('PARTIAL_LAST_LINE', 'p', F, 1502)]);
      expect(snap).toHaveLength(1001);
      expect(snap[999]).toEqual(malformed(1000));
      expect(snap[1000]).toEqual({
        code: 'TOO_MANY_PROBLEMS',
        message: '502 more problems are not listed: the list stops at 1000',
        file: F,
        line: 1001,
        omitted: 502,
      });
    });

    it('lists extra problems while there is room, and nothing more when under the cap', () => {
      const list = new ProblemList();
      list.add(malformed(1));
      const tail = problem('PARTIAL_LAST_LINE', 'p', F, 2);
      expect(list.snapshot(F, [tail])).toEqual([malformed(1), tail]);
      expect(list.listed).toEqual([malformed(1)]); // the snapshot is a copy
    });

    it('says "1 more problem is" for one', () => {
      expect(tooManyProblems(1, F, 7).message).toBe(
        '1 more problem is not listed: the list stops at 1000',
      );
    });

    it('lists at most 1000 for a session and merges the counts of the views into one, last', () => {
      const compact = [...lines(1, 1000, 'a'), tooManyProblems(20, 'a', 1001)];
      const sorted = sortProblems([
        ...compact,
        ...lines(1, 5, 'b'),
        problem('UNSAFE_PATH', 'u', 'c'),
      ]);
      expect(sorted).toHaveLength(1001);
      expect(sorted.slice(0, 1000)).toEqual(lines(1, 1000, 'a'));
      // 20 left out of a, and b (5) and c (1) past the cap: three files, so no file or line.
      expect(sorted[1000]).toEqual(tooManyProblems(26, null, null));
    });

    it('names the file and its first line left out when every left-out problem is in it', () => {
      const sorted = sortProblems([...lines(1, 1003), tooManyProblems(10, F, 1500)]);
      expect(sorted.slice(0, 1000)).toEqual(lines(1, 1000));
      expect(sorted[1000]).toEqual(tooManyProblems(13, F, 1001));
    });

    it('returns the list unchanged in order when under the cap', () => {
      expect(sortProblems(lines(1, 1000))).toEqual(lines(1, 1000));
    });
  });
});
