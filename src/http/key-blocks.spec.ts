import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Redactor } from '../redaction/redactor';
import { KEY_BLOCK_MAX, KeyBlockMask, maskKeyBlocks } from './key-blocks';

const KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\n' +
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n' +
  '-----END OPENSSH PRIVATE KEY-----';
const MASKED = '[REDACTED:private-key]' + '*'.repeat(KEY.length - 22);

const masked = (input: Buffer): Buffer => {
  const copy = Buffer.from(input);
  maskKeyBlocks(copy);
  return copy;
};

describe('maskKeyBlocks', () => {
  it('overwrites a block in place, keeping the length and every other byte', () => {
    const input = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]),
      Buffer.from(`x\n${KEY}\ny`),
      Buffer.from([0xff, 0]),
    ]);
    const out = masked(input);
    expect(out.toString('latin1')).toBe(
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]),
        Buffer.from(`x\n${MASKED}\ny`),
        Buffer.from([0xff, 0]),
      ]).toString('latin1'),
    );
  });

  it('masks a block without footer up to the end of its base64, and every block', () => {
    const cut = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\\nqwerty==\n';
    const gap = '\0'.repeat(KEY_BLOCK_MAX);
    const out = masked(Buffer.from(`${cut}\0after${gap}${KEY}\0`, 'latin1')).toString('latin1');
    // The base64 run (with its escaped and real line breaks) ends at the NUL byte.
    expect(out).toBe(
      `[REDACTED:private-key]${'*'.repeat(cut.length - 22)}\0after${gap}${MASKED}\0`,
    );
    // Within reach of a later footer, a cut block is masked through it (as the redactor does).
    const near = masked(Buffer.from(`${cut}\0${KEY}\0`, 'latin1')).toString('latin1');
    expect(near).toBe(`[REDACTED:private-key]${'*'.repeat(cut.length + KEY.length - 21)}\0`);
  });

  it('leaves public keys, certificates and look-alikes alone', () => {
    const input = Buffer.from(
      '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n' +
        '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN \0',
      'latin1',
    );
    expect(masked(input).equals(input)).toBe(true);
  });
});

describe('KeyBlockMask', () => {
  /** A binary file with keys at the edges of chunks and of the hold-back window. */
  const file = (() => {
    const parts: Buffer[] = [];
    let size = 0;
    for (const at of [10, 65_530, KEY_BLOCK_MAX * 5 - 20, 200_000]) {
      const gap = Buffer.alloc(at - size, 0xa5);
      parts.push(gap, Buffer.from(KEY));
      size = at + KEY.length;
    }
    parts.push(Buffer.alloc(300, 0x5a));
    return Buffer.concat(parts);
  })();
  const whole = masked(file);

  const run = async (input: Buffer, chunk: number, skip: number, length: number) => {
    const chunks: Buffer[] = [];
    for (let i = 0; i < input.length; i += chunk) chunks.push(input.subarray(i, i + chunk));
    return buffer(Readable.from(chunks).pipe(new KeyBlockMask(skip, length)));
  };

  it('masks a streamed file exactly as the whole, whatever the chunk size', async () => {
    expect(whole.toString('latin1')).not.toContain('BEGIN OPENSSH');
    expect(whole.length).toBe(file.length);
    for (const chunk of [1000, 16_384, 65_536, file.length]) {
      const out = await run(file, chunk, 0, file.length);
      expect([chunk, out.equals(whole)]).toEqual([chunk, true]);
    }
  });

  it('cuts a range out of a window read around it, masked as in the whole file', async () => {
    for (const [start, end] of [
      [0, 9],
      [20, 40],
      [65_500, 65_560],
      [65_600, 70_000],
      [KEY_BLOCK_MAX * 5, KEY_BLOCK_MAX * 5 + 10],
      [200_050, file.length - 1],
    ]) {
      const from = Math.max(0, start - KEY_BLOCK_MAX);
      const to = Math.min(file.length - 1, end + KEY_BLOCK_MAX);
      const out = await run(file.subarray(from, to + 1), 4096, start - from, end - start + 1);
      expect([start, end, out.equals(whole.subarray(start, end + 1))]).toEqual([start, end, true]);
    }
  });

  it('with a redactor, masks every secret at the same length across chunk edges', async () => {
    const r = new Redactor({ enabled: true, extraPatterns: [] });
    const ghp = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const mark = '[REDACTED:github-token]'.padEnd(40, '*');
    // `password=` before a chunk edge, its value after; a token across the hold-back edge.
    const input = Buffer.concat([
      Buffer.alloc(4090, 0xa5),
      Buffer.from('\npassword=StreamPw0rd\n'),
      Buffer.alloc(KEY_BLOCK_MAX - 20, 0),
      Buffer.from(` ${ghp}\0`),
    ]);
    const expected = Buffer.from(input);
    expected.write('[REDACTED:p', 4090 + 10, 'latin1');
    expected.write(mark, 4090 + 22 + KEY_BLOCK_MAX - 20 + 1, 'latin1');
    for (const chunk of [100, 4096, 65_536]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < input.length; i += chunk) chunks.push(input.subarray(i, i + chunk));
      const mask = new KeyBlockMask(0, input.length, r);
      const out = await buffer(Readable.from(chunks).pipe(mask));
      expect([chunk, out.toString('latin1')]).toEqual([chunk, expected.toString('latin1')]);
    }
  });

  it('with a redactor, masks UTF-16 secrets at either alignment across window edges', async () => {
    const r = new Redactor({ enabled: true, extraPatterns: [] });
    const ghp = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const be = (s: string) => Buffer.from(s, 'utf16le').swap16();
    // A UTF-16BE token at an odd offset across the hold-back edge of the first window.
    const at = KEY_BLOCK_MAX + 4096 - 41;
    const input = Buffer.concat([Buffer.alloc(at - 1, 0xa5), be(` ${ghp}\n`), Buffer.alloc(99)]);
    const expected = Buffer.from(input);
    be('[REDACTED:github-token]'.padEnd(40, '*')).copy(expected, at + 1);
    for (const chunk of [4096, 65_536]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < input.length; i += chunk) chunks.push(input.subarray(i, i + chunk));
      const skip = at + 11;
      const out = await buffer(Readable.from(chunks).pipe(new KeyBlockMask(skip, 31, r)));
      expect([chunk, out.toString('hex')]).toEqual([
        chunk,
        expected.subarray(skip, skip + 31).toString('hex'),
      ]);
    }
  });
});
