import { maskText } from '../http/masked-body';
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
