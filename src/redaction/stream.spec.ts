import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Redactor } from './redactor';
import { createRedactStream, STREAM_CONTEXT, STREAM_STEP } from './stream';

const on = () => new Redactor({ enabled: true, extraPatterns: [] });

/** Pipes `chunks` through the stream; returns the output bytes and the largest push. */
async function run(redactor: Redactor, chunks: Buffer[]) {
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out.push(chunk);
      cb();
    },
  });
  await pipeline(Readable.from(chunks), createRedactStream(redactor), sink);
  return { bytes: Buffer.concat(out), largest: Math.max(0, ...out.map((c) => c.length)) };
}

/** `text` as UTF-8 cut into chunks of `size` bytes (cutting characters too). */
function chunked(text: string | Buffer, size: number): Buffer[] {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  return chunks;
}

const JWT = ['eyJhbGciOiJFUzI1NiJ9', 'eyJzdWIiOiIwMDcifQ', 'MEUCIQDf9HkXy7Yb2mRr0iR1wGmZ'].join(
  '.',
);

describe('createRedactStream', () => {
  it('catches a secret split across two chunks', async () => {
    const text = `line one\nAuthorization: Bearer ${JWT}\nline three password=hunter2\n`;
    const cut = text.indexOf(JWT) + 12;
    const chunks = [Buffer.from(text.slice(0, cut)), Buffer.from(text.slice(cut))];
    const { bytes } = await run(on(), chunks);
    expect(bytes.toString('utf8')).toBe(
      'line one\nAuthorization: Bearer [REDACTED:jwt]\nline three password=[REDACTED:password]\n',
    );
  });

  it('gives the same text for any chunking, including cut UTF-8 characters', async () => {
    const unit = `€ ünïcödé ${JWT} and password=hunter2 then 🙂\n`;
    const text = unit.repeat(5000); // about 400 KB: many steps
    const expected = on().redactText(text);
    for (const size of [1, 7, 4096, 65536, 1 << 20]) {
      const chunks = chunked(text, size).slice(0, size === 1 ? 3000 : undefined);
      const input = Buffer.concat(chunks).toString('utf8');
      const want = size === 1 ? on().redactText(input) : expected;
      const { bytes } = await run(on(), chunks);
      expect(bytes.toString('utf8')).toBe(want);
    }
  });

  it('keeps a private key whole across step boundaries', async () => {
    const body = Array(60)
      .fill('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj')
      .join('\n');
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
    const filler = 'x'.repeat(STREAM_STEP - 2000) + '\n';
    const text = `${filler}${pem}\n${filler}`;
    const { bytes } = await run(on(), chunked(text, 1000));
    expect(bytes.toString('utf8')).toBe(`${filler}[REDACTED:private-key]\n${filler}`);
  });

  it('never shows a line of a private key longer than a step plus its context', async () => {
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const lines = Array.from({ length: 3000 }, (_, i) =>
      Array.from({ length: 64 }, (_, k) => abc[(i * 7 + k * 13 + ((i * k) % 5)) % 64]).join(''),
    ); // 195 KB of base64 lines, several steps
    const pem = `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----`;
    const text = `before\n${pem}\nafter\n`;
    const { bytes } = await run(on(), chunked(text, 65536));
    const out = bytes.toString('utf8');
    expect(out).toMatch(/^before\n(\[REDACTED:private-key\])+\nafter\n$/);
    expect(on().redactText(text)).toBe('before\n[REDACTED:private-key]\nafter\n');
  });

  it('never shows the rest of a one-word value longer than a step plus its context', async () => {
    const value = 'Zx9'.repeat(40_000);
    const text = `head\nclient_secret=${value}\ntail\n`;
    const { bytes } = await run(on(), chunked(text, 65536));
    expect(bytes.toString('utf8')).toMatch(
      /^head\nclient_secret=(\[REDACTED:password\])+\ntail\n$/,
    );
  });

  it('shows a value longer than a step as one marker, counted once, as the decoded text does', async () => {
    // Review r12: `pwd=ab` repeated over 1 MB is one value; the download showed (and counted)
    // a marker per step (22), the record and the secrets report one.
    const kinds: string[] = [];
    const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
    const text = `{"content":"${'pwd=ab'.repeat(30_000)} PGPASSWORD=K8yAbCdEfGhIjKlMn psql"}\n`;
    const { bytes } = await run(r, chunked(text, 65536));
    const want = '{"content":"pwd=[REDACTED:password] PGPASSWORD=[REDACTED:password] psql"}\n';
    expect(bytes.toString('utf8')).toBe(want);
    expect(kinds).toHaveLength(2);
    kinds.length = 0;
    expect(r.redactText(text)).toBe(want);
    expect(kinds).toHaveLength(2);
  });

  it('masks a line longer than a step without losing any text', async () => {
    const long = 'a '.repeat(STREAM_STEP) + `token=${'Z9'.repeat(100)} ` + 'b '.repeat(STREAM_STEP);
    const { bytes } = await run(on(), chunked(long, 10000));
    expect(bytes.toString('utf8')).toBe(on().redactText(long));
  });

  it('uses bounded memory: output flows in steps, whatever the file size', async () => {
    const text = 'clean log line with nothing secret in it\n'.repeat(50000); // 2 MB
    const { bytes, largest } = await run(on(), chunked(text, 65536));
    expect(bytes.toString('utf8')).toBe(text);
    expect(largest).toBeLessThanOrEqual(STREAM_STEP + STREAM_CONTEXT);
  });

  it('is a byte-exact pass-through when disabled', async () => {
    const raw = Buffer.from([0x70, 0x61, 0xff, 0xe2, 0x82, 0x41, 0x0a]); // invalid UTF-8 kept
    const off = new Redactor({ enabled: false, extraPatterns: [] });
    const { bytes } = await run(off, [raw, Buffer.from('password=hunter2')]);
    expect(bytes).toEqual(Buffer.concat([raw, Buffer.from('password=hunter2')]));
  });

  it('decodes invalid UTF-8 as U+FFFD when enabled (like the text readers)', async () => {
    const raw = Buffer.from([0x61, 0xff, 0x62]);
    const { bytes } = await run(on(), [raw]);
    expect(bytes.toString('utf8')).toBe(raw.toString('utf8'));
  });
});
