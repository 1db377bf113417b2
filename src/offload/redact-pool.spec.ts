import { maskBinary, maskText } from '../http/masked-body';
import { InFlightBytes } from '../ops/in-flight-bytes';
import { Redactor } from '../redaction/redactor';
import { learnStep } from '../redaction/tier-values';
import { OFFLOAD_MIN_UNITS, OFFLOAD_UNITS, RedactPool } from './redact-pool';
import { TEXT_PIECE } from './redact-work';

const options = { enabled: true, extraPatterns: ['ZQ9(?<secret>[0-9]+)'] };

function counting() {
  const counts = new Map<string, number>();
  const add = (kind: string, n = 1) => counts.set(kind, (counts.get(kind) ?? 0) + n);
  return { counts, add };
}

let pool: RedactPool;
let budget: InFlightBytes;
/** The worker's counts, replayed on the main thread (the metric). */
const worker = counting();
const main = new Redactor(options);

beforeAll(() => {
  budget = new InFlightBytes(1 << 30, { costFactor: 4 });
  pool = new RedactPool(main, options, 1, worker.add, budget);
});

afterAll(() => pool.close());

const dense = (unit: string, units: number) => unit.repeat(Math.ceil(units / unit.length));
const TEXTS = [
  dense('password: x ', 300_000),
  dense('Mot de passe\u00a0:\u00a0x ', 200_000) + '\ud800 lone ZQ9123 ',
  dense('"DB_PASSWORD=\\\\lHEA" ', 150_000),
  dense('lorem ipsum dolor ', 200_000),
  // Posted in pieces: a surrogate pair and a secret across the first piece's end.
  'a'.repeat(TEXT_PIECE - 1) +
    '\ud83d\ude00 password: hunter22x ' +
    dense('api_key=x ', TEXT_PIECE),
  // Past WINDOWED_FROM: masked window by window as its pieces come, the unchanged stretches
  // around the secrets sent back as ranges of this text.
  dense('lorem ipsum ', 1_600_000) +
    dense('password: x\n', 900_000) +
    dense('dolor sit ', 1_100_000),
  dense('token=ZQ9123\n', 2_500_000),
  // Past WINDOWED_FROM without a secret: the worker answers with no part, the text comes back.
  dense('lorem ipsum dolor\n', 2_300_000),
];

test('a value from OFFLOAD_UNITS on goes to a worker; smaller ones too once an answer masked that much', () => {
  expect(pool.takes(OFFLOAD_UNITS)).toBe(true);
  expect(pool.takes(OFFLOAD_UNITS - 1)).toBe(false);
  const answer = {};
  const each = OFFLOAD_UNITS / 4;
  for (let i = 0; i < 4; i++) expect(pool.takes(each, answer)).toBe(false);
  expect(pool.takes(each, answer)).toBe(true);
  expect(pool.takes(OFFLOAD_MIN_UNITS - 1, answer)).toBe(false);
  expect(pool.takes(each, {})).toBe(false);
  expect(
    new RedactPool(
      new Redactor({ enabled: false, extraPatterns: [] }),
      options,
      1,
      null,
      null,
    ).takes(OFFLOAD_UNITS),
  ).toBe(false);
});

test('texts and diffs: the in-thread masks and counts, the budget charged while a worker holds them', async () => {
  for (const diff of [false, true]) {
    for (const text of TEXTS) {
      const here = counting();
      const inThread = new Redactor(options, here.add);
      const expected = diff ? inThread.redactDiff(text) : inThread.redactText(text);
      worker.counts.clear();
      const pending = pool.redactText(text, diff);
      expect(budget.inFlight).toBe(4 * Math.ceil((3 * text.length) / 4)); // three copies
      const got = await pending;
      expect(got === expected).toBe(true);
      if (expected === text) expect(got).toBe(text); // the same string: nothing was sent back
      expect(worker.counts).toEqual(here.counts);
      expect(budget.inFlight).toBe(0);
    }
  }
}, 120_000);

test('whole files: maskText and maskBinary of the same bytes, moved to the worker and back', async () => {
  const big = Buffer.from(TEXTS[1], 'utf8');
  const slice = Buffer.concat([Buffer.from('head'), big]).subarray(4);
  const binary = Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(TEXTS[0], 'latin1')]);
  for (const [raw, isBinary] of [
    [big, false],
    [slice, false],
    [Buffer.from(TEXTS[2], 'utf16le'), false],
    [binary, true],
  ] as const) {
    const copy = Buffer.from(raw);
    const here = counting();
    const inThread = new Redactor(options, here.add);
    const expected = isBinary
      ? { body: maskBinary(Buffer.from(copy), inThread), utf8: false }
      : maskText(copy, inThread);
    worker.counts.clear();
    const got = await pool.maskFile(raw, isBinary, () => {
      throw new Error('not in-thread');
    });
    expect(got.utf8).toBe(expected.utf8);
    expect(got.body.equals(expected.body)).toBe(true);
    expect(worker.counts).toEqual(here.counts);
  }
}, 120_000);

test('a transcript step learned in a worker: the in-thread values and carry, its bytes moved there', async () => {
  const text = `${dense('password: x ', 100_000)}\nexport DB_PASSWORD=Xk9vQ2mLp7Rt4wZ8\n`;
  worker.counts.clear();
  for (const last of [false, true]) {
    const expected = learnStep(main, Buffer.from(text), 'api_key=Qp7Lm2Xv9Tk4Rz8\n', last);
    const own = Buffer.from(text);
    const got = await pool.learnStep(own, 'api_key=Qp7Lm2Xv9Tk4Rz8\n', last);
    expect(got).toEqual(expected);
    expect(own.length).toBe(0); // its ArrayBuffer was transferred, not copied
  }
  // The last step learns the value at its end; another step leaves it for the next (its SEAM).
  const found = async (last: boolean) =>
    (await pool.learnStep(Buffer.from(text), '', last)).found.map(([v]) => v);
  expect(await found(true)).toContain('Xk9vQ2mLp7Rt4wZ8');
  expect(await found(false)).not.toContain('Xk9vQ2mLp7Rt4wZ8');
  expect(worker.counts).toEqual(new Map()); // nothing masked, nothing counted
}, 60_000);

test('a worker given a megabyte or more is ended once idle for 2 s; a smaller job keeps it', async () => {
  const fresh = new RedactPool(main, options, 1, null, null);
  try {
    await fresh.redactText(dense('lorem ipsum ', OFFLOAD_UNITS));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fresh.liveWorkers).toBe(1);
    await fresh.learnStep(Buffer.from(dense('password: x ', 1024 * 1024)), '', true);
    expect(fresh.liveWorkers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fresh.liveWorkers).toBe(0);
    // The next job starts another one.
    expect(await fresh.redactText(dense('password: x ', OFFLOAD_UNITS))).toBe(
      main.redactText(dense('password: x ', OFFLOAD_UNITS)),
    );
    expect(fresh.liveWorkers).toBe(1);
  } finally {
    await fresh.close();
  }
}, 60_000);

test('a closed pool masks in-thread', async () => {
  const closed = new RedactPool(main, options, 1, null, null);
  await closed.close();
  expect(closed.takes(OFFLOAD_UNITS)).toBe(false);
  expect(await closed.redactText('password: hunter22')).toBe(main.redactText('password: hunter22'));
});
