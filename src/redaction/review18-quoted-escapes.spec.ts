import { Redactor } from './redactor';

/**
 * Review r17 HIGH 2: a quoted value holding an escaped quote (`'Xk9\"V'`, `"Xk9\"V"`). The
 * detectors' classes stop at a backslash, and the value was read on only where the decoded text
 * happened to be a text's first line (read once more as a cut JSON literal, `\"` decoded): in a
 * JSON transcript line (the text's `\"` written `\\\"`), which GraphQL, REST, exports and search
 * follow, the value ended at the backslash (`'[REDACTED:password]\"V'`), and where a detector
 * wants the closing quote right after the value (`-p'…'`, `-p "…"`, `-u "bob:…"`) it was clear
 * whole. Each form: the exact text served decoded, and inside a JSON line; both masked from
 * after the opening quote to before the closing one.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const P = '[REDACTED:password]';
/** The text inside a JSON line, as review r17's probes write it. */
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

/** Templates, `{V}` the value; single-quoted ones, then double-quoted ones. */
const SINGLE = [
  "export DB_PASSWORD='{V}'",
  "password: '{V}'",
  "api_key = '{V}'",
  "PGPASSWORD='{V}' psql",
  "mysql -u root -p'{V}' app",
  "docker login -u bob -p '{V}' registry.io",
  "DB_PASSWORD='{V}'",
  "mysql --password='{V}' app",
  "curl -u 'bob:{V}' https://x",
];
const DOUBLE = [
  'export API_KEY="{V}"',
  'mysql -u root -p"{V}" app',
  'curl -u "bob:{V}" https://x',
  'PGPASSWORD="{V}" psql',
  'mysql --password="{V}" app',
  // YAML: a double-quoted scalar after an unquoted key
  'password: "{V}"',
  'db:\n  token: "{V}"',
];

/** Values holding `\"`, `\\`, `\'` (as the text holds them: one backslash each). */
const VALUES = [
  'Xk9\\"V',
  'Xk9\\\\V',
  "Xk9\\'V",
  'Xk9\\"Vq7\\"Hunter2',
  'a\\"b\\\\c\\\'d9',
  'Vq7\\"Hunter2Tail9x',
  // at the value's start or end
  '\\"Xk9Vq7',
  'Xk9Vq7\\"',
  "\\'Xk9Vq7\\'",
  // after a blank (where an escaped quote could also open a value)
  'Vq7 \\"Hq7Tail9x',
];

const fill = (t: string, v: string) => t.split('{V}').join(v);
const rows = [...SINGLE, ...DOUBLE].flatMap((t) =>
  VALUES.map((v) => [fill(t, v), fill(t, P)] as const),
);

describe('a quoted value holding an escaped quote or backslash (review r17 HIGH 2)', () => {
  it.each(rows)('masks %j whole, decoded and in a JSON line', (input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
  });

  it('masks the value on a text first line as on any other', () => {
    const text = "export DB_PASSWORD='Xk9\\\"V'";
    expect(r.redactText(`x\n${text}`)).toBe(`x\nexport DB_PASSWORD='${P}'`);
    expect(r.redactText(text)).toBe(`export DB_PASSWORD='${P}'`);
  });

  it('masks the value in JSON inside JSON (a compact argument)', () => {
    const text = "mysql -u root -p'Xk9\\\"V' app";
    const args = JSON.stringify({ CommandLine: text });
    const record = JSON.stringify({ tool_calls: [{ args: { json: args } }] });
    const want = JSON.stringify({
      tool_calls: [
        { args: { json: JSON.stringify({ CommandLine: fill("mysql -u root -p'{V}' app", P) }) } },
      ],
    });
    expect(r.redactText(record)).toBe(want);
  });
});

describe('escaped quotes that are no value of a quoted token: as before', () => {
  const SAME: [string, string][] = [
    // The value is in escaped quotes itself: masked inside them.
    ['password: \\"Xk9V\\"', `password: \\"${P}\\"`],
    ['echo "password: \\"Xk9V\\" ok"', `echo "password: \\"${P}\\" ok"`],
    // An escaped quote right after a bare value: the value's end.
    ['echo "He said \\"password: hunter2\\" ok"', `echo "He said \\"password: ${P}\\" ok"`],
    // Prose with apostrophes and escaped quotes.
    ["it's a \\\"test\\\" for 'x'", "it's a \\\"test\\\" for 'x'"],
    ['say "a \\"quoted\\" word"', 'say "a \\"quoted\\" word"'],
    // A value in escaped quotes after `=` inside a quoted script: masked inside them.
    [
      'sed -i \'s/password=\\"old\\"/password=\\"new\\"/\' f',
      `sed -i 's/password=\\"${P}\\"/password=\\"new\\"/' f`,
    ],
    // Nothing but escaped quotes: no value.
    ["password='\\\"'", "password='\\\"'"],
    ['password="\\""', 'password="\\""'],
  ];
  it.each(SAME)('%j', (input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
  });
});
