import { Redactor } from '../redaction/redactor';
import { maskJsonText } from './json-text';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const ESC = `\\u0067${GHP.slice(1)}`;

describe('maskJsonText', () => {
  it('keeps a document byte for byte when structure masks nothing, else re-serializes it', () => {
    const text = '{ "a" : 1.50,\n "b": "x" }\n';
    expect(maskJsonText(r, text)).toBe(text);
    expect(maskJsonText(r, `{"a": "${GHP}"} `)).toBe('{"a":"[REDACTED:github-token]"} ');
  });

  it('re-serializes changed JSONL lines only, keeping CRLF and text masking elsewhere', () => {
    const text = `{"k":"${ESC}"}\r\n{ "ok" : 1 }\r\n{broken "${ESC}" password=LinePw0rd\r\n`;
    expect(maskJsonText(r, text)).toBe(
      '{"k":"[REDACTED:github-token]"}\r\n{ "ok" : 1 }\r\n' +
        `{broken "${ESC}" password=[REDACTED:password]\r\n`,
    );
  });

  it('keeps the indentation of a pretty-printed document', () => {
    const text = `[\n\t{"k": "${ESC}"}\n]`;
    expect(maskJsonText(r, text)).toBe('[\n\t{\n\t\t"k": "[REDACTED:github-token]"\n\t}\n]');
  });
});
