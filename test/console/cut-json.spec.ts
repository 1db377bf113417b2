import { decodeCutString } from '../../console/src/components/cut-json';

/**
 * The console's reading of an argument the compact transcript cut (the head of its JSON text,
 * then `\n<truncated N bytes>`): a string's head decoded as far as it goes, anything else null
 * (shown as written).
 */
describe('decodeCutString', () => {
  const cut = (jsonHead: string) => `${jsonHead}\n<truncated 99 bytes>`;

  it.each([
    ['line breaks and tabs', cut('"a\\nb\\tc'), 'a\nb\tc\n<truncated 99 bytes>'],
    [
      'quotes, backslashes, slashes',
      cut('"say \\"hi\\" \\\\ a\\/b'),
      'say "hi" \\ a/b\n<truncated 99 bytes>',
    ],
    ['\\u escapes, a surrogate pair', cut('"\\u00e9 \\ud83d\\ude00'), 'é 😀\n<truncated 99 bytes>'],
    ['an escape cut after its backslash', cut('"ab\\'), 'ab\n<truncated 99 bytes>'],
    ['a \\u escape cut in its digits', cut('"ab\\u00'), 'ab\n<truncated 99 bytes>'],
    [
      'the marker text itself, escaped inside',
      cut('"x\\n<truncated 5 bytes>'),
      'x\n<truncated 5 bytes>\n<truncated 99 bytes>',
    ],
  ])('decodes %s', (_name, raw, shown) => {
    expect(decodeCutString(raw)).toBe(shown);
  });

  it.each([
    ['an object', cut('{"a":"b\\nc')],
    ['a string that ended before the cut', cut('"a" x')],
    ['no marker', '"a\\nb'],
    ['a marker not at the end', '"a\n<truncated 9 bytes>\nmore'],
    ['an unknown escape', cut('"a\\qb')],
    ['a \\u escape with no hex', cut('"a\\u00zz')],
  ])('leaves %s as written (null)', (_name, raw) => {
    expect(decodeCutString(raw)).toBeNull();
  });
});
