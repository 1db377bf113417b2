import { fourForms } from '../../test/redaction/four-forms';

/**
 * Values review 23 found cut short, left by review 24's rules (each masked whole now, and its
 * echo with it):
 *
 * 1. A quote inside a single-quoted value, the shell's way (`'it'\''s…'`) and YAML's or SQL's
 *    (`'Xy''q…'`): masked up to the inner quote, the rest clear.
 * 2. The shell's escaped backtick inside double quotes (`"Jh\`Xm2…"`): masked up to the `\`.
 * 3. A bare value holding an `&` written as HTML writes it (`Jd&#x26;Xm2…`, `&amp;`, `&#38;`):
 *    masked up to the `&`.
 *
 * Each form as ./review24-values: decoded, a JSON line, its bytes, JSON inside JSON, and the text
 * as a string's whole value, decoded and in place.
 */

const { forms, maskedAll, clear } = fourForms();

/** [input, its secrets in order of showing]: each was cut short (the tail clear) on main. */
const MASKED: [string, string[]][] = [
  ["export DB_PASSWORD='it'\\''sX9kLm3Qz'", ["it'\\''sX9kLm3Qz"]],
  ["DB_PASSWORD='a'\\''b'\\''cX9kLm3Qz' ./run", ["a'\\''b'\\''cX9kLm3Qz"]],
  ["password: 'Xy''quoteX9kLm3'", ["Xy''quoteX9kLm3"]],
  ["db:\n  password: 'Xy''q''uoteX9kLm3'\n  user: app", ["Xy''q''uoteX9kLm3"]],
  ['DB_PASSWORD="Jh\\`Xm2vL9pT4wZ"', ['Jh\\`Xm2vL9pT4wZ']],
  ['password=Jd&#x26;Xm2vL9pT4wZ', ['Jd&#x26;Xm2vL9pT4wZ']],
  ['password=Jd&#38;Xm2vL9pT4wZ', ['Jd&#38;Xm2vL9pT4wZ']],
  ['<td>password=Jd&amp;Xm2vL9pT4wZ</td>', ['Jd&amp;Xm2vL9pT4wZ']],
  // Their echoes, as the shell or YAML gives the value back.
  [
    "export DB_PASSWORD='it'\\''sX9kLm3Qz'\necho it'sX9kLm3Qz",
    ["it'\\''sX9kLm3Qz", "it'sX9kLm3Qz"],
  ],
  ["password: 'Xy''quoteX9kLm3'\nlater Xy'quoteX9kLm3", ["Xy''quoteX9kLm3", "Xy'quoteX9kLm3"]],
  ['DB_PASSWORD="Jh\\`Xm2vL9pT4wZ"\necho Jh`Xm2vL9pT4wZ', ['Jh\\`Xm2vL9pT4wZ', 'Jh`Xm2vL9pT4wZ']],
  ['password=Jd&#x26;Xm2vL9pT4wZ\nwith Jd&Xm2vL9pT4wZ', ['Jd&#x26;Xm2vL9pT4wZ', 'Jd&Xm2vL9pT4wZ']],
];

/** Near misses: clear in every form. */
const CLEAR = [
  "echo 'it'\\''s fine'",
  "name: 'O''Brien'",
  "password: ''",
  "password: '' # none",
  "DB_PASSWORD=''",
  '?password=&amp;user=bob',
  'echo "run \\`date\\` now"',
  'Tom &amp; Jerry',
];

describe('review 25: quotes and entities inside a value', () => {
  it.each(MASKED)('masks %j in every form', (t, vs) => {
    expect(forms(t)).toEqual(maskedAll(t, vs));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });
});
