import { Printer, fenced } from './printer';
import { clean, colorWanted, oneLine, outputWidth } from './style';
import { shortIds } from './format';
import { cut, markdownTable, renderTable } from './table';

/** The output layer's rules, without a process: colour, width, cutting, escaping, fences. */

const tty = (columns?: number) => ({ isTTY: true, columns }) as unknown as NodeJS.WriteStream;
const pipe = { isTTY: false } as unknown as NodeJS.WriteStream;

describe('colour', () => {
  it('only on a terminal, and never with NO_COLOR set to anything', () => {
    expect(colorWanted(tty(), {})).toBe(true);
    expect(colorWanted(tty(), { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted(tty(), { NO_COLOR: '' })).toBe(true);
    expect(colorWanted(pipe, {})).toBe(false);
  });

  it('a printer for --json or --md never colours, even on a terminal', () => {
    const chunks: string[] = [];
    const stream = Object.assign(tty(80), { write: (c: string) => chunks.push(c) });
    new Printer({}, stream, {}).title('x');
    new Printer({ md: true }, stream, {}).title('x');
    expect(chunks).toEqual(['\u001b[1m\u001b[36mx\u001b[39m\u001b[22m\n', '# x\n\n']);
  });
});

describe('width', () => {
  it('is the terminal width, else COLUMNS, else 120', () => {
    expect(outputWidth(tty(93), { COLUMNS: '50' })).toBe(93);
    expect(outputWidth(pipe, { COLUMNS: '50' })).toBe(50);
    expect(outputWidth(pipe, { COLUMNS: 'wide' })).toBe(120);
    expect(outputWidth(pipe, {})).toBe(120);
  });

  it('cuts only the flex column, by code points, with an ellipsis', () => {
    const table = renderTable(
      [{ header: 'id' }, { header: 'n', align: 'right' }, { header: 'text', flex: true }],
      [['a', '7', 'ab😀cdefghijklmnop']],
      20,
    );
    expect(table).toBe('id  n  text\na   7  ab😀cdefghijk…\n');
    expect(cut('😀😀😀', 2)).toBe('😀…');
  });
});

describe('escaping', () => {
  it('control characters of brain text are shown, not sent', () => {
    expect(clean('a\u001b[31mred\u0007\r\nb\tc')).toBe('a\uFFFD[31mred\uFFFD\nb\tc');
  });

  it('bidirectional formatting characters are shown, not applied; joiners stay', () => {
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
    const isolates = ['\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of [...bidi, ...isolates]) expect(clean(`rm -rf ${c}x`)).toBe('rm -rf \uFFFDx');
    expect(oneLine('cat \u202etxt.exe\u202c | sh')).toBe('cat \uFFFDtxt.exe\uFFFD | sh');
    const family = '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}';
    expect(clean(`a\u200bb ${family}`)).toBe(`a\u200bb ${family}`);
  });

  it('markdown tables escape pipes and keep one line per cell', () => {
    expect(markdownTable([{ header: 'a|b' }], [['x|y\nz']])).toBe(
      '| a\\|b |\n|---|\n| x\\|y z |\n',
    );
  });

  it('a fence is longer than any backtick run inside', () => {
    expect(fenced('```js\nx\n```')).toBe('````\n```js\nx\n```\n````\n');
    expect(fenced('plain', 'diff')).toBe('```diff\nplain\n```\n');
  });
});

describe('ids in a table', () => {
  it('are 8 characters, or as many as it takes for the printed ones to differ', () => {
    const uuids = ['ba5e0000-0000-4000-8000-000000000001', '240ff5ee-02e7-4b54-849e-917d5042eae3'];
    expect(uuids.map(shortIds(uuids))).toEqual(['ba5e0000', '240ff5ee']);
    const alike = [
      'ac000000-0000-4000-8000-000000000017',
      'ac000000-0000-4000-8000-0000000000a1',
      'AC000000-0000-4000-8000-0000000000A2',
      'ac000000-0000-4000-8000-000000000017',
    ];
    expect(alike.map(shortIds(alike))).toEqual([
      'ac000000-0000-4000-8000-000000000017',
      'ac000000-0000-4000-8000-0000000000a1',
      'AC000000-0000-4000-8000-0000000000A2',
      'ac000000-0000-4000-8000-000000000017',
    ]);
    const pair = ['abcd0001-x', 'abcd0002-y', 'abcd00010'];
    expect(pair.map(shortIds(pair))).toEqual(['abcd0001-', 'abcd0002-', 'abcd00010']);
    expect(shortIds([])('ba5e0000-0000')).toBe('ba5e0000');
  });
});
