import { Redactor } from './redactor';

/**
 * Review r17 H1 (second half): a control character between a key and its value (`\v`, `\f`, a
 * lone `\r`, `\x1f`, `\x00` after `password:`, `DB_PASSWORD=`, `mysql -p`, `curl -u bob:`,
 * `sshpass -p`). A raw JSON line spells it `\u000b` and its scan masked the value glued to it;
 * the decoded text (GraphQL, exports, the CLI) left the value clear. The decoded text now reads
 * such a gap as a line break (or as blanks before a quote), as a terminal shows it. Each case:
 * [input, the decoded text redacted, the JSON transcript line's content redacted].
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Vq7Hunter2Secret';
const P = '[REDACTED:password]';
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

const CASES: [string, string, string][] = [
  [`password:\u000b${V}`, `password:\u000b${P}`, `password:${P}`],
  [`password:\f${V}`, `password:\f${P}`, `password:${P}`],
  [`password:\r${V}`, `password:\r${P}`, `password:\r${P}`],
  [`password:\u001f${V}`, `password:\u001f${P}`, `password:${P}`],
  [`password:\u0000${V}`, `password:\u0000${P}`, `password:${P}`],
  [`password: \u000b${V}`, `password: \u000b${P}`, `password: ${P}`],
  [`password: \f${V}`, `password: \f${P}`, `password: ${P}`],
  [`password: \r${V}`, `password: \r${P}`, `password: \r${P}`],
  [`password: \u001f${V}`, `password: \u001f${P}`, `password: ${P}`],
  [`password: \u0000${V}`, `password: \u0000${P}`, `password: ${P}`],
  [`DB_PASSWORD=\u000b${V}`, `DB_PASSWORD=\u000b${P}`, `DB_PASSWORD=${P}`],
  [`DB_PASSWORD=\f${V}`, `DB_PASSWORD=\f${P}`, `DB_PASSWORD=${P}`],
  [`DB_PASSWORD=\r${V}`, `DB_PASSWORD=\r${P}`, `DB_PASSWORD=${P}`],
  [`DB_PASSWORD=\u001f${V}`, `DB_PASSWORD=\u001f${P}`, `DB_PASSWORD=${P}`],
  [`DB_PASSWORD=\u0000${V}`, `DB_PASSWORD=\u0000${P}`, `DB_PASSWORD=${P}`],
  [`export DB_PASSWORD=\u000b${V}`, `export DB_PASSWORD=\u000b${P}`, `export DB_PASSWORD=${P}`],
  [`export DB_PASSWORD=\f${V}`, `export DB_PASSWORD=\f${P}`, `export DB_PASSWORD=${P}`],
  [`export DB_PASSWORD=\r${V}`, `export DB_PASSWORD=\r${P}`, `export DB_PASSWORD=${P}`],
  [`export DB_PASSWORD=\u001f${V}`, `export DB_PASSWORD=\u001f${P}`, `export DB_PASSWORD=${P}`],
  [`export DB_PASSWORD=\u0000${V}`, `export DB_PASSWORD=\u0000${P}`, `export DB_PASSWORD=${P}`],
  [`mysql -u root -p\u000b${V}`, `mysql -u root -p\u000b${P}`, `mysql -u root -p${P}`],
  [`mysql -u root -p\f${V}`, `mysql -u root -p\f${P}`, `mysql -u root -p${P}`],
  [`mysql -u root -p\r${V}`, `mysql -u root -p\r${P}`, `mysql -u root -p${P}`],
  [`mysql -u root -p\u001f${V}`, `mysql -u root -p${P}`, `mysql -u root -p${P}`],
  [`mysql -u root -p\u0000${V}`, `mysql -u root -p${P}`, `mysql -u root -p${P}`],
  [`curl -u bob:\u000b${V}`, `curl -u bob:\u000b${P}`, `curl -u bob:${P}`],
  [`curl -u bob:\f${V}`, `curl -u bob:\f${P}`, `curl -u bob:${P}`],
  [`curl -u bob:\r${V}`, `curl -u bob:\r${P}`, `curl -u bob:${P}`],
  [`curl -u bob:\u001f${V}`, `curl -u bob:${P}`, `curl -u bob:${P}`],
  [`curl -u bob:\u0000${V}`, `curl -u bob:${P}`, `curl -u bob:${P}`],
  [`sshpass -p\u000b${V}`, `sshpass -p\u000b${P}`, `sshpass -p${P}`],
  [`sshpass -p\f${V}`, `sshpass -p\f${P}`, `sshpass -p${P}`],
  [`sshpass -p\r${V}`, `sshpass -p\r${P}`, `sshpass -p${P}`],
  [`sshpass -p\u001f${V}`, `sshpass -p${P}`, `sshpass -p${P}`],
  [`sshpass -p\u0000${V}`, `sshpass -p${P}`, `sshpass -p${P}`],
  [`"password":\f"${V}"`, `"password":\f"${P}"`, `"password":\f"${P}"`],
];

/** Control characters nowhere near a key: terminal progress, binary. */
const CLEAR: string[] = [
  'Downloading 45% [=====>    ]\rDownloading 50% [======>   ]\rDone',
  'a=1\rb=2',
  '\x00\x01binary\x02 data\x0c',
  'mysql -p\r',
];

describe('control characters between a key and its value (review r17 H1)', () => {
  it.each(CASES)('masks the value of %j, decoded and in a JSON line', (input, dec, esc) => {
    expect(r.redactText(input)).toBe(dec);
    expect(r.redactText(line(input))).toBe(line(esc));
  });
  it('reads gaps far apart, each in its own window', () => {
    const text = `password:\v${V}\n${'x'.repeat(3000)}\n`.repeat(3);
    expect(r.redactText(text)).toBe(`password:\v${P}\n${'x'.repeat(3000)}\n`.repeat(3));
  });
  it.each(CLEAR)('leaves %j clear, decoded and in a JSON line', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
  });
});
