import { RANGE_LOOKBACK, RANGE_MARGIN, redactRange } from './range';
import { Redactor } from './redactor';

const on = new Redactor({ enabled: true, extraPatterns: [] });
const off = new Redactor({ enabled: false, extraPatterns: [] });

/** A file in memory, with the reads it served. */
function file(content: Buffer | string) {
  const buf = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  const reads: [number, number][] = [];
  const read = (start: number, end: number) => {
    reads.push([start, end]);
    return Promise.resolve(buf.subarray(start, Math.min(end, buf.length)));
  };
  const plain = (offset: number, length: number) =>
    buf.subarray(offset, Math.min(buf.length, offset + length)).toString('utf8');
  return { buf, read, reads, size: buf.length, plain };
}

const JWT = [
  'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ',
  'eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0',
  'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0',
].join('.');

describe('redactRange', () => {
  it('masks a secret inside the range, offsets staying raw bytes', async () => {
    const text = `héllo ${'·'.repeat(50)} password=hunter2\nnext line`;
    const f = file(text);
    const at = f.buf.indexOf('password');
    const out = await redactRange(on, f.read, f.size, at, 'password=hunter2'.length);
    expect(out).toBe('password=[REDACTED:password]');
  });

  it('masks the part of a secret cut by either slice boundary', async () => {
    const f = file(`prefix ${JWT} suffix`);
    const start = f.buf.indexOf('eyJ');
    // Cut after 10 bytes of the JWT: the part inside is masked.
    expect(await redactRange(on, f.read, f.size, 0, start + 10)).toBe('prefix [REDACTED:jwt]');
    // Starting in the middle of the JWT (where the detector alone would not see `eyJ`).
    expect(await redactRange(on, f.read, f.size, start + 20, 1000)).toBe('[REDACTED:jwt] suffix');
    // Entirely inside the secret.
    expect(await redactRange(on, f.read, f.size, start + 5, 10)).toBe('[REDACTED:jwt]');
    // A value whose key lies before the range.
    const g = file('DB_PASSWORD=correct-horse-battery rest');
    expect(await redactRange(on, g.read, g.size, 15, 100)).toBe('[REDACTED:password] rest');
  });

  it('decodes cut multi-byte characters as U+FFFD exactly like an unredacted read', async () => {
    const f = file(`€uro ${JWT} ünïcödé €`);
    const first = f.buf.indexOf('€'); // 3 bytes each
    const last = f.buf.lastIndexOf('€');
    // Cut inside the first € and inside the last one; the JWT lies wholly inside.
    const [offset, length] = [first + 1, last + 2 - (first + 1)];
    const plain = f.plain(offset, length);
    expect(plain.startsWith('\uFFFD\uFFFDuro ')).toBe(true);
    expect(plain.endsWith(' \uFFFD')).toBe(true);
    expect(await redactRange(on, f.read, f.size, offset, length)).toBe(
      plain.replace(JWT, '[REDACTED:jwt]'),
    );
    // With no secret in reach the result is the unredacted read, for every range.
    const clean = file('ab€cd🙂ef');
    for (let at = 0; at <= clean.size; at++) {
      for (let len = 0; at + len <= clean.size + 1; len++) {
        expect(await redactRange(on, clean.read, clean.size, at, len)).toBe(clean.plain(at, len));
      }
    }
  });

  it('is the unredacted read, with a single read of the range, when REDACT is off', async () => {
    const f = file(`x ${JWT} password=hunter2 €`);
    for (const [offset, length] of [
      [0, f.size],
      [3, 40],
      [f.size - 2, 2],
    ]) {
      f.reads.length = 0;
      expect(await redactRange(off, f.read, f.size, offset, length)).toBe(f.plain(offset, length));
      expect(f.reads).toEqual([[offset, Math.min(f.size, offset + length)]]);
    }
  });

  it('reads a window RANGE_MARGIN wider on each side, clamped to the file', async () => {
    const f = file('ab '.repeat(RANGE_MARGIN));
    await redactRange(on, f.read, f.size, RANGE_MARGIN + 5, 10);
    await redactRange(on, f.read, f.size, 5, 10);
    expect(f.reads).toEqual([
      [5, 2 * RANGE_MARGIN + 15],
      [0, RANGE_MARGIN + 15],
    ]);
  });

  it('reads further back when one word crosses the whole margin before the range', async () => {
    const f = file('a'.repeat(3 * RANGE_MARGIN));
    await redactRange(on, f.read, f.size, RANGE_MARGIN + 5, 10);
    expect(f.reads).toEqual([
      [5, 2 * RANGE_MARGIN + 15],
      [0, 2 * RANGE_MARGIN + 15],
    ]);
  });

  it('sees a private key that starts within the margin before the range', async () => {
    const body = Array(40)
      .fill('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj')
      .join('\n');
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
    const f = file(`${'log line\n'.repeat(100)}${pem}\ndone\n`);
    const inside = f.buf.indexOf(pem) + 1000;
    expect(await redactRange(on, f.read, f.size, inside, 100)).toBe('[REDACTED:private-key]');
    const end = f.buf.indexOf('\ndone');
    expect(await redactRange(on, f.read, f.size, end - 10, 20)).toBe(
      '[REDACTED:private-key]\ndone\n',
    );
  });

  it('handles empty, past-the-end and bad ranges', async () => {
    const f = file('password=hunter2');
    expect(await redactRange(on, f.read, f.size, 3, 0)).toBe('');
    expect(await redactRange(on, f.read, f.size, 100, 10)).toBe('');
    await expect(redactRange(on, f.read, f.size, -1, 10)).rejects.toThrow(RangeError);
    await expect(redactRange(on, f.read, f.size, 0, 1.5)).rejects.toThrow(RangeError);
  });

  describe('secrets longer than the margin, read in 4 KB ranges', () => {
    /** Base64 lines of 64 characters, all different, `n` of them (seeded, repeatable). */
    function base64Lines(n: number): string[] {
      const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      let seed = 20260601;
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        let line = '';
        for (let k = 0; k < 64; k++) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          line += abc[seed >>> 26];
        }
        lines.push(line);
      }
      return lines;
    }
    /** Every consecutive 4 KB range of the file, redacted. */
    async function ranges(f: ReturnType<typeof file>): Promise<string[]> {
      const out: string[] = [];
      for (let at = 0; at < f.size; at += 4096)
        out.push(await redactRange(on, f.read, f.size, at, 4096));
      return out;
    }

    it('never shows a line of a 40 KB PEM private key, in any range', async () => {
      const body = base64Lines(625); // 40,625 bytes of base64 lines
      const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----`;
      const f = file(
        `${'log line before\n'.repeat(300)}${pem}\nafter the key\n${'tail\n'.repeat(2000)}`,
      );
      expect(pem.length).toBeGreaterThan(40_000);
      const out = await ranges(f);
      expect(out.length).toBe(Math.ceil(f.size / 4096));
      const all = out.join('\n');
      // No whole line, nor any 12 characters of one (a line cut by a range edge).
      for (const line of body) {
        for (let k = 0; k + 12 <= line.length; k += 12)
          expect(all).not.toContain(line.slice(k, k + 12));
      }
      // The ranges inside the key are one marker each; the text around it is intact.
      const first = Math.floor(f.buf.indexOf('-----BEGIN') / 4096);
      const last = Math.floor(f.buf.indexOf('after the key') / 4096);
      for (let i = first + 1; i < last; i++) expect(out[i]).toBe('[REDACTED:private-key]');
      expect(out[last]).toMatch(/^\[REDACTED:private-key\]\nafter the key\ntail\n/);
      expect(out[0]).toBe(f.plain(0, 4096));
    });

    it('never shows a 40 KB one-line value after a secret-named key, in any range', async () => {
      const value = base64Lines(640).join('');
      const f = file(`config:\n  client_secret: ${value}\nnext: 1\n`);
      const all = (await ranges(f)).join('');
      for (let k = 0; k + 12 <= value.length; k += 4096)
        expect(all).not.toContain(value.slice(k, k + 12));
      expect(all).toMatch(/^config:\n {2}client_secret: (\[REDACTED:password\])+\nnext: 1\n$/);
    });

    it('masks as unchecked a run whose start is beyond RANGE_LOOKBACK, and only there', async () => {
      const lines = base64Lines(Math.ceil((RANGE_LOOKBACK + 2 * RANGE_MARGIN) / 65) + 100);
      const f = file(`prose before\n${lines.join('\n')}\nprose after\n`);
      const end = f.buf.indexOf('\nprose after');
      expect(await redactRange(on, f.read, f.size, end - 4096, 4096)).toBe('[REDACTED:unchecked]');
      // Near its start the run is seen whole: not a secret, so not masked.
      expect(await redactRange(on, f.read, f.size, 40_000, 100)).toBe(f.plain(40_000, 100));
      expect(await redactRange(on, f.read, f.size, end - 10, 30)).toBe(
        '[REDACTED:unchecked]\nprose after\n',
      );
    });
  });

  it('masks a value whose key the slice edge cuts inside a multi-byte character (review 11, H3)', async () => {
    const f = file('line one\nпароль: pAoZg5JzPHk5uk\nline three\n');
    const key = f.buf.indexOf('пароль');
    const value = f.buf.indexOf('pAoZ');
    // Every start inside the key's 12 bytes (each character 2 bytes), up to past the line.
    for (let offset = key; offset < value; offset++) {
      const out = await redactRange(on, f.read, f.size, offset, 40);
      expect(out).not.toMatch(/pAoZ|Zg5J|JzPH|Hk5u/);
      expect(out.endsWith('[REDACTED:password]\nline three\n')).toBe(true);
    }
    // The review's cuts, whole: inside `о` (U+FFFD for its second byte) and inside `л`.
    expect(await redactRange(on, f.read, f.size, key + 7, 40)).toBe(
      '\uFFFDль: [REDACTED:password]\nline three\n',
    );
    expect(await redactRange(on, f.read, f.size, key + 9, 10)).toBe('\uFFFDь: [REDACTED:password]');
    // An end cut inside a character of the value's line keeps its U+FFFD too.
    const g = file('пароль: pAoZg5JzPHk5uk ёж\n');
    const yo = g.buf.indexOf('ё');
    expect(await redactRange(on, g.read, g.size, 0, yo + 1)).toBe(
      'пароль: [REDACTED:password] \uFFFD',
    );
    // Both edges inside one character, and a key cut at each edge with keys between.
    expect(await redactRange(on, g.read, g.size, yo + 1, 0)).toBe('');
    const lines = Array.from({ length: 3 }, (_, i) => `пароль: pAoZg5JzPHk5u${i}`).join('\n');
    const m = file(`${lines}\n`);
    const from = m.buf.indexOf('пароль') + 3;
    const to = m.buf.lastIndexOf('пароль') + 5;
    expect(await redactRange(on, m.read, m.size, from, to - from)).toBe(
      '\uFFFDроль: [REDACTED:password]\nпароль: [REDACTED:password]\nпа\uFFFD',
    );
  });
});
