import { Redactor } from './redactor';

/**
 * Review r19's direct probes: a secret one form of a text masks and another leaves clear. Each
 * case is checked in the four forms the routes serve: (a) the decoded text (GraphQL, REST,
 * exports, the CLI); (b) inside a JSON transcript line; (c) the raw bytes of that line masked in
 * place (the file download route: the same span, its marker cut or padded to the span's
 * length); (d) JSON inside JSON, a compact argument's `CommandLine`. Each case: [input, the
 * decoded text redacted, the JSON line's content redacted] (the two differ only where the line
 * spells a gap as an escape the mask covers, as review r17's controls do). In the inputs,
 * `\\u0041` and `\\"` are a backslash and its letters in the text (as a model writes them in
 * code), `\t` a tab, `\r\n` a CRLF.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9Vq7Hunter2';
const P = '[REDACTED:password]';
const B = '[REDACTED:bearer]';
const U = '[REDACTED:url-credentials]';

/** The text inside a JSON line, as review r17's probes write it. */
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
/** The text as a compact argument: JSON inside JSON. */
const nested = (t: string): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });

/** `raw` (a JSON line) with the one mask `masked` shows overwritten at the same length. */
function sameLength(raw: string, masked: string): string {
  const at = masked.indexOf('[REDACTED:');
  const close = masked.indexOf(']', at) + 1;
  const tail = masked.length - close;
  const length = raw.length - tail - at;
  const mark = masked.slice(at, close).slice(0, length).padEnd(length, '*');
  return raw.slice(0, at) + mark + raw.slice(raw.length - tail);
}

function bytes(t: string): string {
  const b = Buffer.from(line(t));
  r.maskUtf8(b);
  return b.toString();
}

/** [input, decoded, JSON line's content]. */
const CASES: [string, string, string][] = [
  // 1: a tab inside a URL's password (decoded clear; the line's `\t` was read as the password's).
  [
    'psql "postgresql://a:Xk9\tVq7@h/db"',
    `psql "postgresql://a:${U}@h/db"`,
    `psql "postgresql://a:${U}@h/db"`,
  ],
  [
    'x\npsql "postgresql://a:Xk9\tVq7@h/db"',
    `x\npsql "postgresql://a:${U}@h/db"`,
    `x\npsql "postgresql://a:${U}@h/db"`,
  ],
  [
    'psql postgresql://a:Xk9\tVq7@h/db',
    `psql postgresql://a:${U}@h/db`,
    `psql postgresql://a:${U}@h/db`,
  ],
  // 2: a `\u00XX` escape of an ASCII character inside a token (the lines showed its tail).
  [
    'Authorization: Bearer Xk9\\u0041Vq7Hunter2',
    `Authorization: Bearer ${B}`,
    `Authorization: Bearer ${B}`,
  ],
  [
    'x\nAuthorization: Bearer Xk9\\u0041Vq7Hunter2',
    `x\nAuthorization: Bearer ${B}`,
    `x\nAuthorization: Bearer ${B}`,
  ],
  ['x\npassword: Xk9\\u0041Vq7', `x\npassword: ${P}`, `x\npassword: ${P}`],
  // 3: a template literal holding `\"` reads as a single-quoted token.
  ['const password = `Xk9\\"Vq7`;', `const password = \`${P}\`;`, `const password = \`${P}\`;`],
  [
    'x\nconst password = `Xk9\\"Vq7`;',
    `x\nconst password = \`${P}\`;`,
    `x\nconst password = \`${P}\`;`,
  ],
  // 4: `\u0022` (a `"`) inside single quotes.
  ["password: 'Xk9\\u0022Vq7'", `password: '${P}'`, `password: '${P}'`],
  ["x\npassword: 'Xk9\\u0022Vq7'", `x\npassword: '${P}'`, `x\npassword: '${P}'`],
  // 5: `""` inside single quotes is the value's (decoded clear; `\"\"` in the line masked).
  [
    `curl -u 'bob:Xk9""Vq7' https://x`,
    `curl -u 'bob:${P}' https://x`,
    `curl -u 'bob:${P}' https://x`,
  ],
  [
    `x\ncurl -u 'bob:Xk9""Vq7' https://x`,
    `x\ncurl -u 'bob:${P}' https://x`,
    `x\ncurl -u 'bob:${P}' https://x`,
  ],
  [
    `-H 'Authorization: Bearer Xk9""Vq7Hunter2'`,
    `-H 'Authorization: Bearer ${B}'`,
    `-H 'Authorization: Bearer ${B}'`,
  ],
  [
    `x\n-H 'Authorization: Bearer Xk9""Vq7Hunter2'`,
    `x\n-H 'Authorization: Bearer ${B}'`,
    `x\n-H 'Authorization: Bearer ${B}'`,
  ],
  // 6: a value after a CRLF, as after a LF (./joins).
  [`mysql -u root -p\r\n${V}`, `mysql -u root -p\r\n${P}`, `mysql -u root -p\r\n${P}`],
  [`curl -u bob:\r\n${V}`, `curl -u bob:\r\n${P}`, `curl -u bob:\r\n${P}`],
  [`"password":\r\n"${V}"`, `"password":\r\n"${P}"`, `"password":\r\n"${P}"`],
  [`"password":\n"${V}"`, `"password":\n"${P}"`, `"password":\n"${P}"`],
  // 7: a control character after an authorization scheme.
  [`Authorization: Bearer\v${V}`, `Authorization: ${B}`, `Authorization: ${B}`],
  [`Authorization: Bearer\f${V}`, `Authorization: ${B}`, `Authorization: ${B}`],
  [`Authorization: Bearer\x1f${V}`, `Authorization: ${B}`, `Authorization: ${B}`],
  [`Authorization: Bearer\x00${V}`, `Authorization: ${B}`, `Authorization: ${B}`],
  // 8: a configuration line's value runs to the line's end (before blanks and a ` #` comment).
  ['DB_PASSWORD=Correct Horse Battery Staple', `DB_PASSWORD=${P}`, `DB_PASSWORD=${P}`],
  [
    'export DB_PASSWORD=Correct Horse Battery Staple',
    `export DB_PASSWORD=${P}`,
    `export DB_PASSWORD=${P}`,
  ],
  ['DB_PASSWORD=correct horse battery staple', `DB_PASSWORD=${P}`, `DB_PASSWORD=${P}`],
  [
    'DB_PASSWORD=Correct Horse Battery Staple # prod',
    `DB_PASSWORD=${P} # prod`,
    `DB_PASSWORD=${P} # prod`,
  ],
  ['password: Correct Horse Battery Staple', `password: ${P}`, `password: ${P}`],
  [
    '  password: Correct Horse Battery Staple   # prod',
    `  password: ${P}   # prod`,
    `  password: ${P}   # prod`,
  ],
  [
    '  password: Correct Horse Battery Staple\n  user: bob',
    `  password: ${P}\n  user: bob`,
    `  password: ${P}\n  user: bob`,
  ],
  ['- password: Correct Horse Battery Staple', `- password: ${P}`, `- password: ${P}`],
  ['secret: Correct Horse Battery Staple', `secret: ${P}`, `secret: ${P}`],
  ['db.password = Correct Horse Battery Staple', `db.password = ${P}`, `db.password = ${P}`],
  ['password: Tr0ub4dor&3', `password: ${P}`, `password: ${P}`],
];

/**
 * Lines where the value stays one word, as before (these pass on main too): a shell command
 * after `KEY=V` (a word with `-`, `/`, `.`, an option, a command's name, another assignment),
 * code or prose after `password:`, a key not at its line's start.
 */
const ONE_WORD: [string, string][] = [
  [`DB_PASSWORD=${V} some-command args`, `DB_PASSWORD=${P} some-command args`],
  [`DB_PASSWORD=${V} ./run.sh --migrate`, `DB_PASSWORD=${P} ./run.sh --migrate`],
  [`DB_PASSWORD=${V} node server.js`, `DB_PASSWORD=${P} node server.js`],
  [`DB_PASSWORD=${V} OTHER=1 make test`, `DB_PASSWORD=${P} OTHER=1 make test`],
  ['PGPASSWORD=Xk9Vq7 psql mydb', `PGPASSWORD=${P} psql mydb`],
  ['password: hunter2 is the default', `password: ${P} is the default`],
  ['password: hunter2 then hunter2 again', `password: ${P} then hunter2 again`],
  ['password: Xk9Vq7 (rotated)', `password: ${P} (rotated)`],
  ['password: Correct Horse Battery Staple,', `password: ${P} Horse Battery Staple,`],
  ['Reset your password: Correct Horse', `Reset your password: ${P} Horse`],
];

/** Near misses that stay clear in every form. */
const CLEAR: string[] = [
  `echo 'say "hi" now'`,
  `curl -u bob https://x`,
  `Authorization: Bearer\r\n`,
  `"password":\n"type": "string"`,
  `Bearer\vtoken`,
  `Token\f`,
  // 1: a port, a path before a tab.
  'see https://h:8080/x\tfoo@bar',
  'http://host:80\tuser@x',
  // 2-3: escapes outside a value, HTML escapes, non-ASCII ones.
  'x\nconst s = "caf\\u00e9 \\u4f60\\u597d"',
  'x\nmsg: a\\u0041b done',
  'x\nhtml: a\\u003cb\\u003e',
  'x\nid: abc\\u0041def',
  'echo `say \\"hi\\"`',
  'x\nlet s = `a\\"b`',
  // 8: prose and code after a password's name.
  'Password: It must be 8 characters',
  'password: String representing the password',
  'password: str = Field(default=None)',
  'password: string | null',
  'password = get_password()',
  '# password: see the vault',
  'api_key: Correct Horse Battery',
];

describe('review r19: one secret, one mask, on every route', () => {
  it.each(CASES)('masks %j in all four forms', (input, dec, esc) => {
    expect(r.redactText(input)).toBe(dec);
    expect(r.redactText(line(input))).toBe(line(esc));
    expect(bytes(input)).toBe(sameLength(line(input), line(esc)));
    expect(r.redactText(nested(input))).toBe(nested(esc));
  });
  it.each(ONE_WORD)('masks only the value of %j in all four forms', (input, want) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    expect(bytes(input)).toBe(sameLength(line(input), line(want)));
    expect(r.redactText(nested(input))).toBe(nested(want));
  });
  it.each(CLEAR)('leaves %j clear in all four forms', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
    expect(bytes(input)).toBe(line(input));
    expect(r.redactText(nested(input))).toBe(nested(input));
  });
});
