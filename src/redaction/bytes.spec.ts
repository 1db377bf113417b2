import { decodeUtf16, encodeUtf16, utf16Of } from './bytes';
import { utf16Views } from './bytes-utf16';
import { Redactor } from './redactor';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';

describe('utf16Of', () => {
  it('tells UTF-16 by its BOM or a NUL in every other byte', () => {
    expect(utf16Of(Buffer.from([0xff, 0xfe, 0x41, 0]))).toBe('utf16le');
    expect(utf16Of(Buffer.from([0xfe, 0xff, 0, 0x41]))).toBe('utf16be');
    expect(utf16Of(Buffer.from('hello world', 'utf16le'))).toBe('utf16le');
    expect(utf16Of(encodeUtf16('hello world', 'utf16be'))).toBe('utf16be');
    expect(utf16Of(Buffer.from('hello world'))).toBeNull();
    expect(utf16Of(Buffer.from('a\0b\0c d e f g'))).toBeNull();
    expect(utf16Of(Buffer.from('a\0'))).toBeNull();
  });

  it('decodes and encodes back both byte orders', () => {
    const be = encodeUtf16('\ufeffé x', 'utf16be');
    expect(be.toString('hex')).toBe('feff00e900200078');
    expect(decodeUtf16(Buffer.concat([be, Buffer.from([1])]), 'utf16be')).toBe('\ufeffé x');
  });
});

describe('Redactor.maskBytes', () => {
  it('overwrites secrets at the same length: marker padded with * or cut', () => {
    const kinds: string[] = [];
    const counted = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
    const buf = Buffer.from(`\x89\0${GHP}\0password=Pw0rd12\n\xff`, 'latin1');
    counted.maskBytes(buf);
    expect(buf.toString('latin1')).toBe(
      `\x89\0[REDACTED:github-token]*****************\0password=[REDACT\n\xff`,
    );
    expect(kinds).toEqual(['github-token', 'password']);
  });

  it('masks UTF-16 bytes in code units, only spans overlapping [from, to)', () => {
    const buf = encodeUtf16(`${GHP} password=Pw0rd12`, 'utf16be');
    r.maskBytes(buf, 'utf16be', 0, 10);
    expect(decodeUtf16(buf, 'utf16be')).toBe(
      '[REDACTED:github-token]***************** password=Pw0rd12',
    );
    const off = new Redactor({ enabled: false, extraPatterns: [] });
    const raw = Buffer.from(GHP);
    off.maskBytes(raw);
    expect(raw.toString()).toBe(GHP);
  });
});

describe('Redactor.maskBytes on UTF-16 inside bytes', () => {
  const ENV = `GITHUB_TOKEN=${GHP}\nDB_PASSWORD=Sq16Pw0rd1\n`;
  const MASKED = 'GITHUB_TOKEN=[REDACTED:github-token]*****************\nDB_PASSWORD=[REDACTED:\n';
  const head = (n: number) => Buffer.from([0x53, 0x51, 0x4c, 0x00, 0x10, 0x00, 0x01].slice(0, n));
  const tail = Buffer.from([0x00, 0x00, 0xff, 0x0d]);
  const cases: [string, (s: string) => Buffer, number][] = [
    ['UTF-16LE at an even offset', (s) => encodeUtf16(s, 'utf16le'), 4],
    ['UTF-16LE at an odd offset', (s) => encodeUtf16(s, 'utf16le'), 7],
    ['UTF-16BE at an even offset', (s) => encodeUtf16(s, 'utf16be'), 6],
    ['UTF-16BE at an odd offset', (s) => encodeUtf16(s, 'utf16be'), 5],
  ];

  it.each(cases)('masks a secret in %s, same length, counted once', (_, enc, at) => {
    const kinds: string[] = [];
    const counted = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
    const buf = Buffer.concat([head(at), enc(ENV), tail]);
    counted.maskBytes(buf);
    expect(buf.toString('hex')).toBe(Buffer.concat([head(at), enc(MASKED), tail]).toString('hex'));
    expect(kinds).toEqual(['github-token', 'password']);
  });

  it('masks an ASCII log that turns UTF-16LE part way, at an odd offset', () => {
    const ascii = 'PS> Get-Content .env\r\n';
    const buf = Buffer.concat([Buffer.from(ascii), encodeUtf16(ENV, 'utf16le')]);
    r.maskBytes(buf);
    expect(buf.toString('hex')).toBe(
      Buffer.concat([Buffer.from(ascii), encodeUtf16(MASKED, 'utf16le')]).toString('hex'),
    );
  });

  it('leaves random bytes (and short UTF-16 bits) unchanged', () => {
    let seed = 12345;
    const bytes = Buffer.alloc(1 << 20);
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
    const buf = Buffer.concat([bytes, encodeUtf16('IHDRsRG', 'utf16le'), bytes]);
    const before = Buffer.from(buf);
    expect(utf16Views(buf)).toEqual([]);
    r.maskBytes(buf);
    expect(buf.equals(before)).toBe(true);
  });
});
