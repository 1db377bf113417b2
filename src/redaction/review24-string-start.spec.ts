import { marker, Redactor } from './redactor';

/**
 * Outside review 23 H-A: a text that is one `export NAME=V` line, V holding punctuation
 * (`export DB_PASSWORD=Ea1(Xm2vL9pT4wZ8`), was masked decoded (GraphQL, REST steps, exports)
 * and clear in its raw JSON line (`/steps/N/raw`, `/lines`, transcript downloads, `brainql
 * raw`): at a JSON string's start, `export` was not read as the line's start. The review
 * specs wrap a text in `Note:\n…\nend`, so none had a text starting a string.
 */
const r = new Redactor({ enabled: true, extraPatterns: [] });
const P = marker('password');

/** [text, its secret]: the whole text is a string's value, and a compact argument's. */
const CASES: [string, string][] = [
  ['export DB_PASSWORD=Ea1(Xm2vL9pT4wZ8', 'Ea1(Xm2vL9pT4wZ8'],
  ['export DB_PASSWORD=R12q;Xm2vL9pT4wZ8', 'R12q;Xm2vL9pT4wZ8'],
  ['export API_TOKEN=Tk7(Xm2vL9pT4wZ2', 'Tk7(Xm2vL9pT4wZ2'],
  ['export SECRET_KEY=Sk7[Xm2]vL9pT4wZ2', 'Sk7[Xm2]vL9pT4wZ2'],
  ['export DB_PASSWORD=Wb2(Xm2vL9pT4wZ8 is set', 'Wb2(Xm2vL9pT4wZ8'],
  ['export DB_PASS=Ab|cd9Kq7Zx2\nnext', 'Ab|cd9Kq7Zx2'],
];

describe('review 24: an export line at a JSON string’s start', () => {
  it.each(CASES)('masks %j decoded, in its JSON line and as a compact argument', (t, v) => {
    const want = t.replace(v, P);
    expect(r.redactText(t)).toBe(want);
    const line = (s: string) => JSON.stringify({ step_index: 0, content: s });
    expect(r.redactText(line(t))).toBe(line(want));
    const arg = (s: string) =>
      JSON.stringify({
        tool_calls: [{ args: { CommandLine: s, json: JSON.stringify({ c: s }) } }],
      });
    expect(r.redactText(arg(t))).toBe(arg(want));
    const bytes = Buffer.from(line(t));
    r.maskUtf8(bytes);
    expect(bytes.toString()).not.toContain(v.slice(-8));
  });

  // `reexport DB_PASSWORD=Ea1(Xm2vL9pT4wZ8` stayed here until review 25 M3: a name glued to a
  // long value after any word is masked (./review25-log-prefixes.spec.ts).
  it.each(['export DB_PASSWORD=os.getenv("X")', 'export DB_PASSWORD=$(cat /run/secret)'])(
    'leaves %j as it is',
    (t) => {
      expect(r.redactText(JSON.stringify({ content: t }))).toBe(JSON.stringify({ content: t }));
    },
  );
});
