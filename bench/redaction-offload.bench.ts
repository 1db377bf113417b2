import { RedactPool } from '../src/offload/redact-pool';
import { Redactor } from '../src/redaction/redactor';
import { ms, row, type Row } from './report';

/** The longest the event loop was late for a 10 ms timer while `work` ran. */
async function loopHeld(work: () => Promise<unknown>): Promise<{ took: number; held: number }> {
  let held = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  await work();
  const took = performance.now() - t0;
  clearInterval(timer);
  held = Math.max(held, performance.now() - last - 10);
  return { took, held };
}

/**
 * Review 15: a 4 MB keyword-dense value masked in-thread holds the event loop (and /healthz)
 * for all of it; in the redaction pool (src/offload) the loop stays free. Same text, same
 * answer (checked); a first value warms the worker up.
 */
export async function benchRedactionOffload(): Promise<Row[]> {
  const options = { enabled: true, extraPatterns: [] };
  const redactor = new Redactor(options);
  const text = 'password: x '.repeat(Math.ceil(4_000_000 / 12));
  const pool = new RedactPool(redactor, options, 1, null, null);
  try {
    await pool.redactText(text.slice(0, 200_000));
    let expected = '';
    const here = await loopHeld(() => Promise.resolve((expected = redactor.redactText(text))));
    let got = '';
    const there = await loopHeld(async () => (got = await pool.redactText(text)));
    const same = got === expected;
    return [
      row(
        "7. 4 MB 'password: x …' in-thread / in the pool: time (event loop held)",
        `${ms(here.took)} (${ms(here.held)}) / ${ms(there.took)} (${ms(there.held)})`,
        'pool: loop held < 100 ms, same text',
        same && there.held < 100,
      ),
    ];
  } finally {
    await pool.close();
  }
}
