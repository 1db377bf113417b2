import { argText, completeElements, decodeHead } from './text';

describe('what is left of a cut value', () => {
  it('decodes the head of a JSON string up to its last whole escape', () => {
    expect(decodeHead('"a\\nb')).toBe('a\nb');
    expect(decodeHead('"a\\')).toBe('a');
    expect(decodeHead('"a\\u00')).toBe('a');
    expect(decodeHead('"a\\u00e9')).toBe('aé');
    expect(decodeHead('"a\\\\')).toBe('a\\');
    expect(decodeHead('"')).toBe('');
    expect(decodeHead('[1,2')).toBe('[1,2'); // not a string
  });

  it('treats a marker as a cut only on a truncated compact value', () => {
    const cut = '"one\\ntwo\n<truncated 99 bytes>';
    expect(argText(cut, true)).toEqual({ text: 'one\ntwo', cut: true });
    expect(argText(cut, false)).toEqual({ text: cut, cut: false });
    expect(argText(undefined, true)).toEqual({ text: '', cut: false });
    expect(argText(5000, true)).toEqual({ text: '5000', cut: false });
  });

  it('keeps the whole elements of a cut JSON array', () => {
    expect(completeElements('[{"a":"x]}"},{"b":[1,{"c":2}]},{"d":"cu')).toEqual([
      { a: 'x]}' },
      { b: [1, { c: 2 }] },
    ]);
    expect(completeElements('[1, "s", {"a":1}]')).toEqual([{ a: 1 }]);
    expect(completeElements('[{"a":"\\"}"}')).toEqual([{ a: '"}' }]);
    expect(completeElements('')).toEqual([]);
  });
});
