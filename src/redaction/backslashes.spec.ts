import { backslashesBefore, escapedAt } from './backslashes';

describe('backslashes before a character', () => {
  it('counts the run right before i, down to the floor, and says whether it escapes i', () => {
    const t = 'a\\"b\\\\"c\\\\\\"'; // a\"b\\"c\\\"
    const quotes = [...t].flatMap((c, i) => (c === '"' ? [i] : []));
    expect(quotes).toEqual([2, 6, 11]);
    expect(quotes.map((q) => backslashesBefore(t, q))).toEqual([1, 2, 3]);
    expect(quotes.map((q) => escapedAt(t, q))).toEqual([true, false, true]);
    // the floor stops the count: two of the three backslashes before the last quote
    expect(backslashesBefore(t, 11, 9)).toBe(2);
    expect(escapedAt(t, 11, 9)).toBe(false);
    expect(backslashesBefore('\\\\x', 2)).toBe(2);
    expect(backslashesBefore('x', 0)).toBe(0);
  });
});
