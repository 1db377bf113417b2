import * as patterns from './patterns';
import { Redactor } from './redactor';

/**
 * Review 12's rescan (redactor.ts backslashSpans) read a whole text again for its literal
 * backslash runs: a long text with one run was scanned twice whole, and a text dense with runs
 * cost several times its first scan (1 MB of `=\n`: 70 ms, figure 7's adversarial row over its
 * 50 ms bound). Now only windows around the runs (merged) are read again, and the windows'
 * texts are built without a callback per run (timed by the bench, not here: Jest's module
 * sandbox times typed arrays and closures unlike Node).
 */
const r = new Redactor({ enabled: true, extraPatterns: [] });

afterEach(() => jest.restoreAllMocks());

describe('the backslash rescan reads windows around the runs only', () => {
  it('reads a long text with one run a second time around the run only', () => {
    const pad = 'lorem ipsum dolor '.repeat(30_000);
    const text = `${pad}\nmysql -u root -p\\/sD3mbLFecbVjaf app\n${pad}`;
    const scan = jest.spyOn(patterns, 'scanBuiltins');
    expect(r.redactText(text)).toBe(`${pad}\nmysql -u root -p[REDACTED:password] app\n${pad}`);
    const read = scan.mock.calls.reduce((n, [t]) => n + t.length, 0);
    // The first scan reads it whole; the rescan at most its run and 1,024 characters each side.
    expect(read - text.length).toBeLessThanOrEqual(2 * 1024 + 2);
    expect(read - text.length).toBeGreaterThan(0);
  });

  it('still masks a value after a run, with a long text before and after', () => {
    const pad = 'lorem ipsum '.repeat(500);
    const line = (v: string) => `${pad}\nmysql -u root -p${v} app\n${pad}C:\\Users\\bob\n`;
    expect(r.redactText(line('\\/sD3mbLFecbVjaf'))).toBe(line('[REDACTED:password]'));
    const url = `${pad}psql postgres://app:ab\\frzIe3mGxHoL43S@db/app ${pad}`;
    expect(r.redactText(url)).toBe(
      `${pad}psql postgres://app:[REDACTED:url-credentials]@db/app ${pad}`,
    );
  });
});

describe('the letter of an escape is no key', () => {
  it('reads no value after `\\n=` (figure 7: `=\\n` repeated found a run at each `=`)', () => {
    const scan = jest.spyOn(patterns, 'scanBuiltins');
    const text = JSON.stringify({ o: '=\\n'.repeat(1000) });
    expect(r.redactText(text)).toBe(text);
    // The first scans only (the text, its decoded string): no rescan of the runs.
    expect(scan.mock.calls.every(([t]) => !t.includes('x'))).toBe(true);
  });

  it('still reads one after a key: `DB_PASSWORD=\\t…`', () => {
    expect(r.redactText('DB_PASSWORD=\\tz3qyV4J1TQt7fr')).toBe('DB_PASSWORD=[REDACTED:password]');
  });
});
