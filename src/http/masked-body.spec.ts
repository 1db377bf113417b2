import { Redactor } from '../redaction/redactor';
import { maskBinary, maskText } from './masked-body';

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

describe('maskText on bytes that are not wholly UTF-8', () => {
  const lines = [
    '# пароль: Pl4ntedMinRu01',
    'contraseña: Pl4ntedMinEs02',
    '密码: Pl4ntedMinZh03',
    'パスワード: Pl4ntedMinJa04',
    '비밀번호: Pl4ntedMinKo05',
    'password: Pl4ntedMinEn06',
  ];

  it('masks non-ASCII password words despite one stray byte elsewhere, every other byte kept', () => {
    const raw = Buffer.concat([
      Buffer.from('bad '),
      Buffer.from([0xff]),
      Buffer.from(` byte\n${lines.join('\n')}\n`),
    ]);
    const { body, utf8 } = maskText(raw, r);
    expect(utf8).toBe(false);
    // The Latin-1 pass gives ASCII secrets their whole marker; what only the UTF-8 view sees is
    // masked at the same length (the marker cut to the secret's bytes).
    expect(body.subarray(0, 5).toString('latin1')).toBe('bad \xff');
    expect(body.subarray(5).toString('utf8').split('\n')).toEqual([
      ' byte',
      '# пароль: [REDACTED:pass',
      'contraseña: [REDACTED:pass',
      '密码: [REDACTED:pass',
      'パスワード: [REDACTED:pass',
      '비밀번호: [REDACTED:pass',
      'password: [REDACTED:password]',
      '',
    ]);
  });

  it('masks the same in a binary file (maskBytes), at the same length', () => {
    const raw = Buffer.concat([Buffer.from([0x89, 0, 0xfe]), Buffer.from(lines.join('\n'))]);
    const buf = Buffer.from(raw);
    r.maskBytes(buf);
    expect(buf.length).toBe(raw.length);
    const text = buf.subarray(3).toString('utf8');
    for (const line of lines) expect(text).not.toContain(line.slice(-14));
    expect(text).toContain('пароль: [REDACTED:pass');
  });
});

describe('maskBinary', () => {
  const RSA =
    '-----BEGIN RSA PRIVATE KEY-----\n' +
    'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n' +
    '-----END RSA PRIVATE KEY-----';
  const PNG = '\x89PNG\r\n\x1a\n\0\0\0\rIHDR';

  it('masks a password that a NUL ends, right before a key block (third outside review)', () => {
    const raw = Buffer.from(`${PNG}tEXt password=PwRsaOne-AAAAAAAAAA\0${RSA}\n`, 'latin1');
    const masked = maskBinary(Buffer.from(raw), r);
    expect(masked.length).toBe(raw.length);
    expect(masked.toString('latin1')).toBe(
      `${PNG}tEXt password=[REDACTED:password]\0[REDACTED:private-key]` +
        `${'*'.repeat(RSA.length - '[REDACTED:private-key]'.length)}\n`,
    );
  });

  it('ends a bare value at any control character, and masks only the value', () => {
    for (const c of ['\0', '\x01', '\x1b', '\x7f']) {
      expect(r.redactText(`password=PwCtl-AAAAAAAAAA${c}rest`)).toBe(
        `password=[REDACTED:password]${c}rest`,
      );
    }
  });
});
