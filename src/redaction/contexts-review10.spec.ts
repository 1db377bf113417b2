import { maskText } from '../http/masked-body';
import { inEveryForm, markers } from './context-forms';
import { Redactor } from './redactor';

/**
 * The tenth outside review of issue 19 (high): a private key cut by the compact tier's marker
 * served its body lines after the first. Values are made up.
 */

const kinds: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
const j = (...parts: string[]) => parts.join('');
/** The key's BEGIN line and first lines are in the cut part: only its end is served. */
const HEAD = `config follows\n<truncated 1210 bytes>\n`;
const BODY = [
  j('BveYTvJIcILeca6RBZMTY1To+F', 'q9Zx4Rt8Vb3NWq7hG2kLp9Zx4Rt8Vb3Nabc'),
  j('yiMsVG2yBnmWGYKibjsz', 'Wq7hG2kLp9Zx4Rt8Vb3N/Wq7hG2kLp9Zx4=='),
];
const END = `-----END ${'PRIVATE'} KEY-----`;
const counted = (text: string) => {
  kinds.length = 0;
  return { out: r.redactText(text), kinds: [...kinds] };
};

describe('review 10 (H1): a private key cut by the marker is masked to its END line', () => {
  it('masks every body line and the END line in the decoded text, counted once', () => {
    const got = counted(`${HEAD}${BODY.join('\n')}\n${END}\nnext: value`);
    expect(got.out).toBe(
      'config follows\n<truncated 1210 bytes>\n[REDACTED:private-key]\nnext: value',
    );
    expect(got.kinds).toEqual(['private-key']);
  });

  it('masks an indented key with CRLF lines and an RSA END line', () => {
    const end = `  -----END RSA ${'PRIVATE'} KEY-----`;
    const got = counted(`${HEAD}  ${BODY[0]}\r\n  ${BODY[1]}\r\n${end}\r\ndone`);
    expect(got.out).toBe('config follows\n<truncated 1210 bytes>\n[REDACTED:private-key]\r\ndone');
  });

  it('masks the body in a raw compact line (escaped line breaks) and in the download pass', () => {
    const content = `${HEAD}${BODY.join('\n')}\n${END}\nnext`;
    const masked = `config follows\n<truncated 1210 bytes>\n[REDACTED:private-key]\nnext`;
    const raw = JSON.stringify({ step_index: 1, content });
    expect(r.redactText(raw)).toBe(JSON.stringify({ step_index: 1, content: masked }));
    const { body } = maskText(Buffer.from(`${raw}\n`, 'utf8'), r);
    expect(body.toString('utf8')).toBe(`${JSON.stringify({ step_index: 1, content: masked })}\n`);
  });

  it.each([
    [
      'base64 lines without an END line: the tail rule takes the first only',
      `${BODY[0]}\n${BODY[1]}\nplain words`,
      `[REDACTED:unchecked]\n${BODY[1]}\nplain words`,
    ],
    ['an END line alone', `${END}\nmore`, `${END}\nmore`],
    [
      'a prose line before the END line',
      `${BODY[0]}\nthis is prose\n${END}`,
      `[REDACTED:unchecked]\nthis is prose\n${END}`,
    ],
  ])('is no cut key body: %s', (_name, tail, masked) => {
    expect(r.redactText(`${HEAD}${tail}`)).toBe(`${HEAD}${masked}`);
  });
});

const V = 'Wq7hG2kLp9Zx4Rt8Vb3N';
const W = 'Zx4Rt8Vb3NWq7hG2kLp9';
const REDIS: [string, string, string][] = [
  [
    'two pairs',
    `redis-cli CONFIG SET requirepass ${V} masterauth ${W}`,
    'redis-cli CONFIG SET requirepass [R] masterauth [R]',
  ],
  [
    'a pair before',
    `redis-cli CONFIG SET maxmemory 100mb requirepass ${V}`,
    'redis-cli CONFIG SET maxmemory 100mb requirepass [R]',
  ],
  [
    'redis-cli.exe',
    `redis-cli.exe CONFIG SET requirepass ${V}`,
    'redis-cli.exe CONFIG SET requirepass [R]',
  ],
  [
    'MULTI prompt',
    `127.0.0.1:6379(TX)> CONFIG SET requirepass ${V}`,
    '127.0.0.1:6379(TX)> CONFIG SET requirepass [R]',
  ],
  [
    'MULTI prompt with a database, quoted value',
    `127.0.0.1:6379[2](TX)> CONFIG SET masterauth "${V}"`,
    '127.0.0.1:6379[2](TX)> CONFIG SET masterauth "[R]"',
  ],
];

describe('review 10 (M3): redis CONFIG SET with several pairs, redis-cli.exe, MULTI prompts', () => {
  const rows = inEveryForm(REDIS);
  it.each(rows)('%s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expected.replace(/\[R\]/g, '[REDACTED:password]'));
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    expect(kinds).toEqual(Array(markers(want)).fill('password'));
  });

  it.each([
    'redis-cli CONFIG SET maxmemory 100mb maxmemory-policy allkeys-lru',
    '127.0.0.1:6379(TX)> CONFIG SET maxmemory 100mb',
    'redis-cli.exe CONFIG GET requirepass',
    'redis-cli CONFIG SET requirepass ""',
  ])('leaves alone: %s', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});

describe('review 10 (false positives): ordinary runs after the marker are no tail', () => {
  const H = 'x\n<truncated 99 bytes>\n';
  it.each([
    'v1.2.3-beta45',
    'ubuntu-22.04',
    'python3.11',
    'node18.20.4',
    'test_123.py',
    'src/v2/api/v1/users.ts',
    '0x7ffd5e8c',
    '123e4567-e89b-12d3-a456-426614174000',
  ])('leaves %s', (run) => {
    kinds.length = 0;
    expect(r.redactText(`${H}${run} next`)).toBe(`${H}${run} next`);
    expect(kinds).toEqual([]);
  });

  it.each([
    ['a ghp_ tail', j('B3dE5fG7hJ9kL1mN3pQ5r', 'S7tV9wX1y')],
    ['an AWS secret tail', j('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCY+EXAMPLEKEY')],
    [
      'a JWT tail',
      j('eyJzdWIiOiIxMjM0NTY3ODkwIn0.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
    ],
    ['a version inside a random run', j('Ab3.4cdEF', 'gh12')],
  ])('still masks %s', (_name, run) => {
    kinds.length = 0;
    expect(r.redactText(`${H}${run} next`)).toBe(`${H}[REDACTED:unchecked] next`);
    expect(kinds).toEqual(['unchecked']);
  });
});
