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
    // Two ids that differ only after their first '-': a cut at 9 would end in '-'.
    const dashed = ['12345678-aaaa-4000', '12345678-bbbb-4000', 'abcdef01-0000'];
    expect(dashed.map(shortIds(dashed))).toEqual(['12345678-a', '12345678-b', 'abcdef01-0']);
    const pair = ['abcd0001-x', 'abcd0002-y', 'abcd00010'];
    expect(pair.map(shortIds(pair))).toEqual(['abcd0001-x', 'abcd0002-y', 'abcd00010']);
    expect(shortIds([])('ba5e0000-0000')).toBe('ba5e0000');
  });
});

describe('a table narrower than its cells', () => {
  const columns = [
    { header: 'id' },
    { header: 'created' },
    { header: 'steps', align: 'right' as const },
    { header: 'tools', align: 'right' as const },
    { header: 'errors', align: 'right' as const },
    { header: 'model' },
    { header: 'request', flex: true },
  ];
  const rows = [
    [
      'abcd0001-0',
      '2026-06-03 10:00',
      '1234',
      '1',
      '0',
      'Gemini 3.5 Flash (High) with a long name',
      'Deploy it',
    ],
    ['abcd0002-0', '2026-06-02 09:00', '3', '12', '0', 'Claude', 'Run the tests please'],
  ];

  it('fits COLUMNS=40: the widest cells are cut first, numbers never', () => {
    const out = renderTable(columns, rows, 40);
    expect(out.split('\n').map((l) => Array.from(l).length <= 40)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(out).toBe(
      [
        'id    cre…  ste…  too…  err…  mod…  req…',
        'abc…  202…  1234     1     0  Gem…  Dep…',
        'abc…  202…     3    12     0  Cla…  Run…',
        '',
      ].join('\n'),
    );
  });

  it('lets a model name give way before the day a session was created and its request (COLUMNS=60)', () => {
    const kept = columns.map((c) =>
      c.header === 'id'
        ? { ...c, keep: 8 }
        : c.header === 'created'
          ? { ...c, keep: 11 }
          : c.header === 'request'
            ? { ...c, keep: 12 }
            : c,
    );
    expect(renderTable(kept, rows, 60)).toBe(
      [
        'id        created      ste…  too…  err…  model  request',
        'abcd000…  2026-06-03…  1234     1     0  Gemi…  Deploy it',
        'abcd000…  2026-06-02…     3    12     0  Clau…  Run the tes…',
        '',
      ].join('\n'),
    );
    // Without `keep`, the date is cut like any wide cell.
    expect(renderTable(columns, rows, 60).split('\n')[1]).toContain(' 2026-06…  ');
  });

  it('leaves droppable columns out, lowest first, only when the kept widths cannot fit', () => {
    // As `brainql list` orders them: tools, steps, errors, model, then the day.
    const drop: Record<string, number> = { tools: 1, steps: 2, errors: 3, model: 4, created: 5 };
    const keep: Record<string, number> = { id: 8, created: 11, request: 12 };
    const droppable = columns.map((c) => ({ ...c, keep: keep[c.header], drop: drop[c.header] }));
    const headers = (width: number) => renderTable(droppable, rows, width).split('\n')[0];
    expect([30, 40, 60, 200].map(headers)).toEqual([
      'id          request',
      'id          created         request',
      'id        created      steps  errors  model     request',
      'id          created           steps  tools  errors  model                                     request',
    ]);
  });

  it('fits every width from 40 up, cutting less as it widens', () => {
    for (let width = 40; width <= 120; width++) {
      for (const line of renderTable(columns, rows, width).trimEnd().split('\n'))
        expect([width, Array.from(line).length <= width]).toEqual([width, true]);
    }
    expect(renderTable(columns, rows, 200).split('\n')[1]).toBe(
      'abcd0001-0  2026-06-03 10:00   1234      1       0  Gemini 3.5 Flash (High) with a long name  Deploy it',
    );
  });
});
