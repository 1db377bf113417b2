import { fileValues } from './file-values';
import { redactFileRange } from './range-utf16';
import { Redactor } from './redactor';

/**
 * Review 19 H3: a page of a step output over 2 MiB (`text(offset: 3240037, length: 100)` of a
 * 3.25 MB output) was masked with 16 KiB of context, so a password echoed megabytes after
 * `mysql -p…` showed clear there while the whole text masked it. The file's secrets' values
 * are learned once per path and size (./file-values) and masked again in every page.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Wd6fGh1JkL3zXc8V';
const T = 'ghp_' + 'Ab12Cd34'.repeat(4) + 'Ef56';
const P = '[REDACTED:password]';
const filler = 'INFO request handled in 3 ms\n'.repeat(115_000); // 3.3 MB
const text = `mysql -uroot -p${V} app\ngh auth login --with-token ${T}\n${filler}login ok for ${V}\n`;
const file = Buffer.from(text);
let reads = 0;
const read = (a: number, b: number) => {
  reads++;
  return Promise.resolve(file.subarray(a, b));
};
const echoAt = file.length - `login ok for ${V}\n`.length;

describe('a page of an output over 2 MiB masks a value found megabytes before it', () => {
  it('masks the echo in the page, as the whole text does', async () => {
    expect(file.length).toBe(3_335_134);
    const whole = r.redactText(text);
    expect(whole.endsWith(`login ok for ${P}\n`)).toBe(true);
    expect(await redactFileRange(r, read, file.length, echoAt, 100, 'out-a')).toBe(
      `login ok for ${P}\n`,
    );
    expect(await redactFileRange(r, read, file.length, echoAt - 29, 58, 'out-a')).toBe(
      `INFO request handled in 3 ms\nlogin ok for ${P}`,
    );
  });

  it('learns the values once per key, stopping at 32', async () => {
    const values = await fileValues(r, read, file.length, 'out-b');
    expect([...values]).toEqual([
      [V, 'password'],
      [T, 'github-token'],
    ]);
    reads = 0;
    expect(await fileValues(r, read, file.length, 'out-b')).toBe(values);
    expect(reads).toBe(0);
    // 40 distinct secrets on the first lines: reading stops once 32 are known.
    const many = Buffer.from(
      Array.from({ length: 40 }, (_, i) => `export DB_PASSWORD=Xk9Vq7Hunter2x${i}\n`).join('') +
        filler,
    );
    reads = 0;
    const first = await fileValues(
      r,
      (a, b) => {
        reads++;
        return Promise.resolve(many.subarray(a, b));
      },
      many.length,
      'out-c',
    );
    expect(first.size).toBe(32);
    expect([...first.keys()][31]).toBe('Xk9Vq7Hunter2x31');
    // The first window is masked once 1 MiB and its 16 KiB of lookahead are read: of the four
    // 1 MiB reads of the file, two.
    expect(reads).toBe(2);
  });

  it('without a key (no file identity) a page is masked from its margin only', async () => {
    expect(await redactFileRange(r, read, file.length, echoAt, 100)).toBe(`login ok for ${V}\n`);
  });

  it('with REDACT off nothing is read beyond the page', async () => {
    const off = new Redactor({ enabled: false, extraPatterns: [] });
    reads = 0;
    expect(await redactFileRange(off, read, file.length, echoAt, 100, 'out-d')).toBe(
      `login ok for ${V}\n`,
    );
    expect(reads).toBe(1);
  });
});
