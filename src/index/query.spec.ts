import { MAX_QUERY_LENGTH, parseSearchQuery, splitTerms } from './query';

const ACCEPTED =
  'expected terms of at least 3 characters (code points) separated by whitespace, a ' +
  '"quoted phrase" being one term; at most 16 terms and 512 characters (UTF-16 code units)';

describe('splitTerms', () => {
  it.each([
    ['foo', ['foo']],
    ['foo bar', ['foo', 'bar']],
    ['  foo   bar  ', ['foo', 'bar']],
    ['foo\tbar\nbaz\r\nqux', ['foo', 'bar', 'baz', 'qux']],
    ['foo\u00a0bar\u2003baz', ['foo', 'bar', 'baz']],
    ['"foo bar" baz', ['foo bar', 'baz']],
    ['baz "foo  bar"', ['baz', 'foo  bar']],
    ['"  padded  "', ['  padded  ']],
    ['"tab\there"', ['tab\there']],
    // An unclosed quote runs to the end, trailing whitespace included.
    ['foo "bar baz', ['foo', 'bar baz']],
    ['foo "bar baz  ', ['foo', 'bar baz  ']],
    ['"', ['']],
    ['""', ['']],
    ['"" foo', ['', 'foo']],
    // A closing quote ends its term; what is glued to it starts the next one.
    ['"foo bar"baz', ['foo bar', 'baz']],
    ['"a""b"', ['a', 'b']],
    // A quote inside a word is an ordinary character.
    ['foo"bar baz"', ['foo"bar', 'baz"']],
    ['key="value"', ['key="value"']],
    ['it"s', ['it"s']],
    ['', []],
    [' \t\n ', []],
  ])('%j -> %j', (query, terms) => {
    expect(splitTerms(query)).toEqual(terms);
  });
});

describe('parseSearchQuery', () => {
  it('accepts terms of 3 or more characters (code points), keeping their case', () => {
    expect(parseSearchQuery('Foo BAR')).toEqual({ terms: ['Foo', 'BAR'] });
    expect(parseSearchQuery('"a b"')).toEqual({ terms: ['a b'] });
    expect(parseSearchQuery('"   "')).toEqual({ terms: ['   '] });
    // An astral character is one character (2 code units): the index's trigrams count them so.
    expect(parseSearchQuery('\u{1F600}ab')).toEqual({ terms: ['\u{1F600}ab'] });
    expect(parseSearchQuery('é\u0301e')).toEqual({ terms: ['é\u0301e'] });
  });

  it('refuses a term holding NUL, naming its place', () => {
    expect(parseSearchQuery('abc def\u0000ghi')).toEqual({
      error: `term 2 of "query" holds a NUL character; ${ACCEPTED}`,
    });
  });

  it('refuses a query without terms', () => {
    for (const q of ['', '   ', '\n\t']) {
      expect(parseSearchQuery(q)).toEqual({ error: `"query" has no term; ${ACCEPTED}` });
    }
  });

  it('refuses a term under 3 characters, naming its place but not its text', () => {
    expect(parseSearchQuery('ab')).toEqual({
      error: `term 1 of "query" has 2 characters; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('foo ab bar x')).toEqual({
      error: `term 2 of "query" has 2 characters; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('foo ""')).toEqual({
      error: `term 2 of "query" has 0 characters; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('"')).toEqual({
      error: `term 1 of "query" has 0 characters; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('\u{1F600}')).toEqual({
      error: `term 1 of "query" has 1 character; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('\u{1F600}a')).toEqual({
      error: `term 1 of "query" has 2 characters; ${ACCEPTED}`,
    });
  });

  it('takes up to 16 terms', () => {
    const terms = Array.from({ length: 16 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    expect(parseSearchQuery(terms.join(' '))).toEqual({ terms });
    expect(parseSearchQuery([...terms, 'one'].join(' '))).toEqual({
      error: `"query" has 17 terms; ${ACCEPTED}`,
    });
  });

  it('takes up to 512 characters, whitespace and quotes included', () => {
    const longest = 'x'.repeat(MAX_QUERY_LENGTH);
    expect(parseSearchQuery(longest)).toEqual({ terms: [longest] });
    expect(parseSearchQuery(`"${'x'.repeat(510)}"`)).toEqual({ terms: ['x'.repeat(510)] });
    expect(parseSearchQuery(`${longest} `)).toEqual({
      error: `"query" has 513 characters; ${ACCEPTED}`,
    });
    // 256 astral characters are 512 code units; one more is too many.
    expect(parseSearchQuery('\u{1F600}'.repeat(256))).toEqual({
      terms: ['\u{1F600}'.repeat(256)],
    });
    expect(parseSearchQuery('\u{1F600}'.repeat(256) + 'a')).toEqual({
      error: `"query" has 513 characters; ${ACCEPTED}`,
    });
  });

  it('checks the length before counting terms, and the count before term lengths', () => {
    expect(parseSearchQuery('a '.repeat(300))).toEqual({
      error: `"query" has 600 characters; ${ACCEPTED}`,
    });
    expect(parseSearchQuery('a '.repeat(17))).toEqual({
      error: `"query" has 17 terms; ${ACCEPTED}`,
    });
  });
});
