import { Redactor } from './redactor';
import { maskEscapedText } from './escaped-text';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const ESC = `\\u0067${GHP.slice(1)}`;
const TOKEN = '[REDACTED:github-token]';

describe('maskEscapedText', () => {
  it('keeps text byte for byte when its escapes hide nothing: numbers, spacing, escapes', () => {
    const text = '{ "id" : 12345678901234567890, "x": 1.0,\n "s": "caf\\u00e9 \\"q\\"" }\n';
    expect(maskEscapedText(r, text)).toBe(text);
  });

  it('unescapes and masks only the lines whose escapes hide a secret; numbers stay as written', () => {
    const text = `{"id":12345678901234567890,"k":"${ESC}"}\r\n{ "ok" : "a\\/b" }\r\n`;
    expect(maskEscapedText(r, text)).toBe(
      `{"id":12345678901234567890,"k":"${TOKEN}"}\r\n{ "ok" : "a\\/b" }\r\n`,
    );
  });

  it('sees through escaped keys, slashes and spaces, in JSON or not, and JSON inside JSON', () => {
    expect(maskEscapedText(r, '{"pass\\u0077ord":"EscapedKeyPw0rd"}')).toBe(
      '{"password":"[REDACTED:password]"}',
    );
    expect(
      maskEscapedText(
        r,
        'INFO payload {"hook":"https:\\/\\/hooks.slack.com\\/services\\/T0ABCDEFG\\/B0HIJKLMN\\/abcdefghijklmnopqrstuvwx"}',
      ),
    ).toBe('INFO payload {"hook":"https://[REDACTED:slack-webhook]"}');
    const inner = JSON.stringify(JSON.stringify({ t: `${GHP}` }).replace('g', '\\u0067'));
    expect(maskEscapedText(r, `{"args":{"Body":${inner}}}`)).toBe(
      `{"args":{"Body":"{\\"t\\":\\"${TOKEN}\\"}"}}`,
    );
    expect(maskEscapedText(r, `const t = "${ESC}"; // js`)).toBe(`const t = "${TOKEN}"; // js`);
  });
});
