import { redactFileRange } from './range-utf16';
import { Redactor } from './redactor';

/**
 * Review r18 H3: a step output's page (`StepOutput.text(offset, length)`) was masked with
 * 16 KiB of context around it, so a password shown again 100 KB after `mysql -p…` was clear in
 * the page while the whole text, the download and search masked it. A file of at most 2 MiB is
 * now read whole around the page.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Wd6fGh1JkL3zXc8V';
const P = '[REDACTED:password]';
const file = Buffer.from(
  `mysql -uroot -p${V} app\n${'INFO ok\n'.repeat(12_500)}login ok for ${V}\n`,
);
const read = async (a: number, b: number) => file.subarray(a, b);
const page = (offset: number, length: number) =>
  redactFileRange(r, read, file.length, offset, length);

describe("an output's page masks a secret's value shown again far from it", () => {
  it.each([20_000, 40_000, 50_000, 60_000, 70_000, file.length - 40])(
    'text(offset: %d, length: 90000)',
    async (offset) => {
      const want = file
        .subarray(offset, offset + 90_000)
        .toString()
        .replace(`for ${V}`, `for ${P}`);
      expect(await page(offset, 90_000)).toBe(want);
      expect(want.endsWith(`login ok for ${P}\n`)).toBe(true);
    },
  );

  it('the first page masks the secret itself', async () => {
    expect(await page(0, 40)).toBe(`mysql -uroot -p${P} app\nINFO`);
  });

  it('a page of a 2 MB output, 1 MB in', async () => {
    const big = Buffer.from(
      `mysql -uroot -p${V} app\n${'INFO ok\n'.repeat(250_000)}login ok for ${V}\n`,
    );
    const got = await redactFileRange(
      r,
      async (a, b) => big.subarray(a, b),
      big.length,
      1_000_000,
      1_100_000,
    );
    expect(got).toBe(big.subarray(1_000_000).toString().replace(`for ${V}`, `for ${P}`));
  });
});
