import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Redactor } from './redactor';
import { createRedactStream } from './stream';
import { maskInWindows, MaskWindows, WINDOWED_FROM, WINDOW_STEP } from './windows';

/**
 * A text past WINDOWED_FROM is masked window by window (Redactor.redactText), in bounded
 * memory: it must give what the whole text masked at once gives, marker for marker and count
 * for count, with secrets across the windows' cuts and longer than their context.
 */

function counted() {
  const counts = new Map<string, number>();
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) =>
    counts.set(k, (counts.get(k) ?? 0) + 1),
  );
  return { r, counts };
}

const rep = (unit: string, units: number) => unit.repeat(Math.ceil(units / unit.length));
const KEY = `-----BEGIN RSA PRIVATE KEY-----\n${rep('QUJDRA==', 6400).replace(/(.{64})/g, '$1\n')}\n-----END RSA PRIVATE KEY-----\n`;

const TEXTS: [string, string][] = [
  ['a password on every line', rep('password: x1\n', WINDOWED_FROM + 5)],
  [
    'five shapes, one a line',
    Array.from(
      { length: 60_000 },
      (_, i) =>
        [
          `export DB_PASSWORD=Xk9Vq7Hunter2x${i}`,
          `password: "Tr0ub4dor${i}Secret"`,
          `curl -H 'Authorization: Bearer ghp_${String(i).padStart(36, 'a')}' https://x`,
          `mysql -u root -pS3cretPass${i} app`,
        ][i % 4],
    ).join('\n'),
  ],
  // A private key block across the first cut (about 1 MiB + 16 KiB in).
  [
    'a private key across a cut',
    rep('x\n', WINDOW_STEP - 20_000) + KEY + rep('y\n', WINDOW_STEP * 2),
  ],
  // A value longer than the windows' context (16 KiB) across the first cut.
  [
    'a secret longer than the context',
    rep('a ', WINDOW_STEP - 3_000) + `token=${rep('Z9', 80_000)} ` + rep('b ', WINDOW_STEP),
  ],
  // A secret's value again 100 KB and 1.5 MiB later (review r18 H2: clear past the context).
  [
    'echoes far past their secret',
    'mysql -u root -pS3cretPw0rd9 app\n' +
      rep('INFO ok\n', 100_000) +
      'logged in with S3cretPw0rd9\n' +
      rep('INFO ok\n', WINDOW_STEP * 1.5) +
      'bye S3cretPw0rd9.\n' +
      rep('INFO ok\n', WINDOW_STEP / 2),
  ],
  // No line break near the cuts: windows end where no secret is.
  ['one long line', rep('lorem ipsum api_key=Zq9Vx8Wm7 dolor ', WINDOWED_FROM * 1.5)],
];

describe('a text past WINDOWED_FROM masked in windows', () => {
  it.each(TEXTS)('%s: the same text and counts as masked whole', (_name, text) => {
    expect(text.length).toBeGreaterThan(WINDOWED_FROM);
    const whole = counted();
    const expected = whole.r.mask(text, whole.r.findSpans(text));
    const windowed = counted();
    const got = windowed.r.redactText(text);
    expect(got.length).toBe(expected.length);
    expect(got === expected).toBe(true);
    expect(windowed.counts).toEqual(whole.counts);
    expect(windowed.counts.size).toBeGreaterThan(0);
  });

  it('a download streamed in 48 KiB steps masks the far echoes as the 1 MiB windows do', async () => {
    const text = TEXTS.find(([name]) => name.startsWith('echoes'))![1];
    const { r } = counted();
    const chunks: Buffer[] = [];
    await pipeline(Readable.from([Buffer.from(text)]), createRedactStream(r), async (source) => {
      for await (const chunk of source) chunks.push(chunk as Buffer);
    });
    const streamed = Buffer.concat(chunks).toString();
    expect(streamed).toBe(r.redactText(text));
    expect(streamed.match(/\[REDACTED:password\]/g)).toHaveLength(3);
    expect(streamed).not.toContain('S3cretPw0rd9');
  });

  it('gives the text itself back when nothing is masked', () => {
    const text = rep('lorem ipsum dolor sit amet\n', WINDOWED_FROM + 1);
    expect(maskInWindows(counted().r, text)).toBe(text);
  });

  it('emits parts that stand for the raw text in order, each marked changed or not', () => {
    const { r } = counted();
    const clean = rep('lorem ipsum\n', WINDOW_STEP * 2);
    const text = clean + 'password: hunter22x\n' + clean;
    const w = new MaskWindows(r, WINDOW_STEP);
    const seen: [boolean, number][] = [];
    let out = '';
    w.write(text, true, (part, changed, rawEnd) => {
      seen.push([changed, rawEnd]);
      out += part;
    });
    expect(out).toBe(clean + 'password: [REDACTED:password]\n' + clean);
    expect(seen.map(([c]) => c)).toEqual([false, false, true, false]);
    expect(seen.at(-1)![1]).toBe(text.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i][1]).toBeGreaterThan(seen[i - 1][1]);
  });
});
