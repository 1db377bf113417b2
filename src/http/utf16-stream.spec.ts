import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { encodeUtf16, type Utf16 } from '../redaction/bytes';
import { Redactor } from '../redaction/redactor';
import { maskUtf16Stream } from './utf16-stream';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';

const run = async (input: Buffer, chunk: number, enc: Utf16): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for (let i = 0; i < input.length; i += chunk) chunks.push(input.subarray(i, i + chunk));
  const [first, ...rest] = maskUtf16Stream(r, enc);
  let out = Readable.from(chunks).pipe(first);
  for (const t of rest) out = out.pipe(t);
  return buffer(out);
};

describe('maskUtf16Stream', () => {
  it('masks UTF-16 text in both byte orders whatever the chunk edges', async () => {
    const text = `\ufeffé ${GHP}\r\npassword=Stream16Pw0rd\r\n`;
    const masked = '\ufeffé [REDACTED:github-token]\r\npassword=[REDACTED:password]\r\n';
    for (const enc of ['utf16le', 'utf16be'] as const) {
      for (const chunk of [1, 7, 64, 4096]) {
        const out = await run(encodeUtf16(text, enc), chunk, enc);
        expect([enc, chunk, out.toString('hex')]).toEqual([
          enc,
          chunk,
          encodeUtf16(masked, enc).toString('hex'),
        ]);
      }
    }
  });
});
