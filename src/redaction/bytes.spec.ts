import { decodeUtf16, encodeUtf16, utf16Of } from './bytes';
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
