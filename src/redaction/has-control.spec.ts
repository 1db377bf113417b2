import { hasControl } from './redactor';

// eslint-disable-next-line no-control-regex -- the regex hasControl stands for
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f]|\r(?!\n)/;

describe('hasControl', () => {
  it('answers as the CONTROL regex does, on one-byte and two-byte texts of every length', () => {
    const pieces = ['a', ' ', '\n', '\t', '\r', '\r\n', '\x1b', '\x0b', '\x00', '\x1f', '\x1c'];
    // Two-byte characters whose low byte is a control character or a line feed.
    pieces.push('\u010b', '\u010a', '\u0a0d', '\u4e00', '\ud83d\ude00', '\x7f', '\u0100');
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let t = 0; t < 20_000; t++) {
      const chars = (rnd() < 0.5 ? 'x' : 'y\n').repeat(100 + Math.floor(rnd() * 1000)).split('');
      for (let k = Math.floor(rnd() * 3); k > 0; k--)
        chars[Math.floor(rnd() * chars.length)] = pieces[Math.floor(rnd() * pieces.length)];
      if (rnd() < 0.2) chars[chars.length - 1] = '\r';
      const text = chars.join('');
      expect([text.length, hasControl(text)]).toEqual([text.length, CONTROL.test(text)]);
    }
  });
});
