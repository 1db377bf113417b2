import { visibleJson, visibleText } from './visible-text';

/** What a person is shown of brain text: nothing that drives a terminal or reorders text. */

const ESC = '\u001b';
const HOSTILE = `a${ESC}]52;c;ZXZpbA==\u0007 b\u009b31m c\u007f d\u202etxt.exe\u2066e\u2069 f\u200e\u061c`;

it('shows controls and bidi formatting characters as U+FFFD, drops CR, keeps the rest', () => {
  expect(visibleText(HOSTILE)).toBe(
    'a\uFFFD]52;c;ZXZpbA==\uFFFD b\uFFFD31m c\uFFFD d\uFFFDtxt.exe\uFFFDe\uFFFD f\uFFFD\uFFFD',
  );
  expect(visibleText('line\r\nnext\ttab')).toBe('line\nnext\ttab');
  const family = '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}';
  expect(visibleText(`x\u200by ${family} é`)).toBe(`x\u200by ${family} é`);
});

it('escapes them in JSON text: the same value for a parser, nothing raw for a viewer', () => {
  const value = { text: HOSTILE, nested: [`\u2028${HOSTILE}\u2029`], plain: 'é 😀' };
  const json = visibleJson(JSON.stringify(value, null, 2));
  expect(JSON.parse(json)).toEqual(value);
  expect(json).toContain(
    '"a\\u001b]52;c;ZXZpbA==\\u0007 b\\u009b31m c\\u007f d\\u202etxt.exe\\u2066e\\u2069 f\\u200e\\u061c"',
  );
  expect(json).toContain('"\\u2028a');
  expect(json).toContain('"plain": "é 😀"');
  // eslint-disable-next-line no-control-regex
  expect(/[\u0000-\u001f\u007f-\u009f\u202e\u2028]/.test(json.replace(/\n/g, ''))).toBe(false);
});
