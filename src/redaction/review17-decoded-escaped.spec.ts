import { countingRedactor } from '../../test/redaction/every-form';
import { Redactor } from './redactor';

/**
 * Review r16 H2: a value a line break or tab keeps from its key was masked in a raw JSON
 * transcript line (where `\n` is two characters and the value looks glued to its key) and served
 * clear decoded (GraphQL, steps, exports, CLI), the secrets report counting 0; and forms clear in
 * both that people write (YAML block and continued scalars, a shell `\`-newline continuation, a
 * value alone under its key, a call or a pipe over lines). ./joins reads them in decoded text;
 * the raw scan reads a line break at a value's start only before a password-like tail, as
 * decoded text does. Each fixed form: the exact text served decoded, and inside a JSON line.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Vq7Hunter2Secret';
const P = '[REDACTED:password]';
const B = '[REDACTED:bearer]';
/** The text inside a JSON line, as review r16's div.js writes it. */
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });

/** [input, decoded output, the JSON line's content output when it differs]. */
const FIXED: [string, string, string?][] = [
  // the eight divergences
  [`export PASSWORD=\\\n${V}`, `export PASSWORD=\\\n${P}`, `export PASSWORD=${P}`],
  [`mysql -u root -p\n${V}`, `mysql -u root -p\n${P}`, `mysql -u root -p${P}`],
  [`curl -u bob:\n${V}`, `curl -u bob:\n${P}`, `curl -u bob:${P}`],
  [`password: The\n${V}`, `password: ${P}`],
  [`Password: A\tb${V}`, `Password: ${P}`],
  [`Password: The\tquick${V}`, `Password: ${P}`],
  // clear in both before
  [`password:\n  ${V}`, `password:\n  ${P}`],
  [`password: |\n  ${V}`, `password: |\n  ${P}`],
  [`password: >\n  ${V}`, `password: >\n  ${P}`],
  [`password: |-\n  ${V}`, `password: |-\n  ${P}`],
  [`password: >-\n  ${V}`, `password: >-\n  ${P}`],
  [`password =\n  "${V}"`, `password =\n  "${P}"`],
  [`Password: \n${V}`, `Password: \n${P}`],
  [`password:\n${V}`, `password:\n${P}`],
  [`token:\t\n${V}`, `token:\t\n${P}`],
  [`Authorization: Bearer\n${V}`, `Authorization: ${B}`],
  [`page.fill("#password",\n "${V}")`, `page.fill("#password",\n "${P}")`],
  [
    `echo ${V}\n| docker login -u x --password-stdin`,
    `echo ${P}\n| docker login -u x --password-stdin`,
  ],
  [
    `echo ${V} |\ndocker login -u x --password-stdin`,
    `echo ${P} |\ndocker login -u x --password-stdin`,
  ],
];

/** Forms that hold no value: clear in both forms. */
const CLEAR: string[] = [
  // a prompt, then a line (review r15 L1); prose under a key
  'Password: \nnext',
  'Password:\nThe admin must reset it',
  'mysql -u root -p\nEnter password:',
  'curl -u bob:\nhttps://example.com/x',
  // code whose `:` opens a block, calls and pipes without a secret
  'if password:\n    return x',
  'for token in tokens:\n    print(token)',
  'def password(self):\n    return self._pw',
  'login(user,\n  password)',
  'echo hello |\n sudo tee /etc/x',
  'docker run \\\n  -e PASSWORD=$PW \\\n  img',
  // YAML: a key, a list, a reference, a template under a secret key
  'password:\nusername: bob',
  'secrets:\n  - name: db',
  'api_key:\n  description: the key',
  'password:\n  type: string\n  minLength: 8',
  'password:\n  ${DB_PASSWORD}',
  'password: >-\n  {{ .Values.pw }}',
  'Authorization: Basic\nrealm',
];

describe('a value after a line break or tab (review r16 H2)', () => {
  // Rows of three: a test function of three parameters given two would get jest's `done`.
  const rows = FIXED.map(([input, want, inLine]) => [input, want, inLine ?? want] as const);
  it.each(rows)('masks %j, decoded and in a JSON line', (input, want, inLine) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(inLine));
  });
  it.each(CLEAR)('leaves %j clear, decoded and in a JSON line', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
  });
  it('reads no token on after a whole value ended by a line break', () => {
    const text = `PASSWORD_1=Secr3tValue1x\nSecr3tValue0x`;
    expect(r.redactText(text)).toBe(`PASSWORD_1=${P}\nSecr3tValue0x`);
  });
});

/** Review r16's div1.json and div2.json, `{V}` the value: both forms agree on each. */
const DIV = [
  '<password>\n{V}\n</password>',
  '<token>\n{V}</token>',
  '<secret> {V}</secret>',
  'password:\n  {V}',
  'password: |\n  {V}',
  'password =\n  "{V}"',
  'api_key:\t{V}',
  'password:\t\t{V}',
  'export PASSWORD=\\\n{V}',
  'PASSWORD="{V}\nmore"',
  '"password": "{V}\ttab"',
  'mysql -u root -p\n{V}',
  '-p\n{V}',
  'Authorization: Bearer\n{V}',
  'Authorization:\n  Bearer {V}',
  'curl -u bob:\n{V}',
  'expect "Password:"\nsend "{V}\\r"',
  'machine x login bob\npassword {V}',
  'assert ok\npassword: "{V}"',
  'if ok:\n  password: None',
  'assert ok\n{"password": "{V}"}',
  '- name: DB_PASSWORD\n  value: "{V}\tx"',
  '<password>{V}\t</password>',
  '<password>{V} </password>',
  'password: "{V}"\\n',
  'password: {V}\\t',
  'echo {V}\n| docker login -u x --password-stdin',
  'echo {V} |\ndocker login -u x --password-stdin',
  'cat <<EOF | docker login --password-stdin\n{V}\nEOF',
  'Password: \n{V}',
  'password:\n{V}',
  'token:\t\n{V}',
  'password\t=\t{V}',
  '<input type="password"\n value="{V}">',
  '<input type="password" value="{V}\n">',
  'page.fill("#password",\n "{V}")',
  'Cookie: sid={V}\n; x=1',
  'DB_PASSWORD={V}\\nNEXT=1',
  '"password":"{V}\\u0022',
  'password: The\n{V}',
  'Password: A\tb{V}',
  'Password: The\tquick{V}',
  // div2.json
  'assert ok\n  api_key = "{V}"',
  'def t():\n    assert x\n    login(password="{V}")',
  '    assert resp.ok\n    DB_PASSWORD="{V}"',
  'assert (\n  password == "{V}"\n)',
  'if ok:\n  password: "{V}"',
  'assert x  # noqa\n{"password": "{V}"}',
  "# assert\npassword: '{V}'",
  'x\tassert y\tpassword="{V}"',
  'assert ok;\\npassword="{V}"',
].map((t) => t.split('{V}').join(V));

/**
 * Left clear in both, knowingly: `-p` alone is no command's option; a line break inside an
 * HTML value attribute; a comparison in an assert (review r16 H1's concern, not a value).
 */
const BOTH_CLEAR = new Set([
  `-p\n${V}`,
  `<input type="password" value="${V}\n">`,
  `assert (\n  password == "${V}"\n)`,
]);

describe("review r16's divergence lists: the decoded text and the JSON line agree", () => {
  it.each(DIV)('%j', (text) => {
    const decoded = r.redactText(text).includes(V);
    const escaped = r.redactText(line(text)).includes(V);
    expect({ decoded, escaped }).toEqual(
      BOTH_CLEAR.has(text) ? { decoded: true, escaped: true } : { decoded: false, escaped: false },
    );
  });
});

describe('values after a line break in every form a transcript stores them', () => {
  const { everyForm } = countingRedactor();
  everyForm([
    ['a YAML block scalar', `db:\n  password: |\n    ${V}`, `db:\n  password: |\n    ${P}`],
    ['a YAML continued scalar', `db:\n  password:\n    ${V}`, `db:\n  password:\n    ${P}`],
    ['a value under its key', `Password:\n${V}`, `Password:\n${P}`],
  ]);
});
