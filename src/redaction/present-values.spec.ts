import { ONE_PASS_FROM, presentValues } from './present-values';

describe('presentValues', () => {
  const values = new Map([
    ['Jn7Xm2vL9pT4Q', 'password'],
    ['Qw8rT5yU2iO7pL3k', 'password'],
    ['ab\n', 'password'],
    ['Zz9Yy8Xx7Ww6', 'token'],
  ]);
  const filler = 'all good here; '.repeat(Math.ceil(ONE_PASS_FROM / 15));

  it('finds the values a large text shows, at its start, middle and end, and only those', () => {
    const text = `Jn7Xm2vL9pT4Q ${filler} ab\n ${filler} then Zz9Yy8Xx7Ww6`;
    expect([...presentValues(text, values)]).toEqual([
      ['ab\n', 'password'],
      ['Jn7Xm2vL9pT4Q', 'password'],
      ['Zz9Yy8Xx7Ww6', 'token'],
    ]);
    expect(presentValues(filler, values).size).toBe(0);
  });

  it('gives a short text every value (looked for one by one by the masking)', () => {
    expect(presentValues('short', values)).toBe(values);
  });

  it('sees values added to the same map since (a session learned further)', () => {
    const growing = new Map([['Jn7Xm2vL9pT4Q', 'password']]);
    const text = `${filler} Qw8rT5yU2iO7pL3k`;
    expect(presentValues(text, growing).size).toBe(0);
    growing.set('Qw8rT5yU2iO7pL3k', 'password');
    expect([...presentValues(text, growing).keys()]).toEqual(['Qw8rT5yU2iO7pL3k']);
  });
});
