import { Redactor } from '../redaction/redactor';
import { maskText } from './masked-body';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';

describe('maskText', () => {
  it('masks a UTF-8 log whose later part is UTF-16LE, at the same length there', () => {
    const raw = Buffer.concat([
      Buffer.from('token=ghp_x? no: é\nPS> Get-Content .env\n'),
      Buffer.from(`GITHUB_TOKEN=${GHP}\r\n`, 'utf16le'),
    ]);
    const { body, utf8 } = maskText(raw, r);
    expect(utf8).toBe(true);
    expect(body.toString('hex')).toBe(
      Buffer.concat([
        Buffer.from('token=ghp_x? no: é\nPS> Get-Content .env\n'),
        Buffer.from('GITHUB_TOKEN=[REDACTED:github-token]*****************\r\n', 'utf16le'),
      ]).toString('hex'),
    );
  });
});
