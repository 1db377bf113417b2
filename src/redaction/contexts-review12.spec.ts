import { countingRedactor } from '../../test/redaction/every-form';

/**
 * The twelfth outside review of issue 19 (high): a password-like value with a backslash before
 * an escape letter (`n t r b f u /`) inside it or at its start was served with nothing masked.
 * Values are made up; `\` below is one backslash of the text as typed (the forms escape it as
 * they store it: a raw JSON line, JSON inside JSON, a plain file, a diff).
 */

const { r, kinds, everyForm } = countingRedactor();
const BS = '\\';

const P = '[REDACTED:password]';
describe('review 12: a backslash and an escape letter inside a quoted value', () => {
  everyForm([
    [
      'mysql, single quotes, \\n',
      `mysql -u root -p'Pw${BS}nZqumpm08hsE8JN' app`,
      `mysql -u root -p'${P}' app`,
    ],
    [
      'TOML, an escaped backslash before n first',
      `password = "${BS}${BS}nmFKB8KyVQ3JYmz"`,
      `password = "${P}"`,
    ],
    [
      'TOML, an escaped backslash before r first',
      `password = "${BS}${BS}rzDhhhyeg9jJVR"`,
      `password = "${P}"`,
    ],
    [
      'docker login, \\b',
      `docker login -u bob -p 'X${BS}bAjlb0cdkbx9ZFq' reg.example.com`,
      `docker login -u bob -p '${P}' reg.example.com`,
    ],
    [
      'docker login, \\b after two letters',
      `docker login -u bob -p 'po${BS}bZIJCn6BUYst' registry.example.com`,
      `docker login -u bob -p '${P}' registry.example.com`,
    ],
    [
      'curl -u, \\u',
      `curl -u 'bob:X${BS}uzsj6HoV5D0bA2D' https://a.example.com`,
      `curl -u 'bob:${P}' https://a.example.com`,
    ],
  ]);
});

describe('review 12: a value starting with a backslash and an escape letter', () => {
  everyForm([
    ['mysql, glued, \\/', `mysql -u root -p${BS}/sD3mbLFecbVjaf app`, `mysql -u root -p${P} app`],
    ['an assignment, \\t', `DB_PASSWORD=${BS}tz3qyV4J1TQt7fr`, `DB_PASSWORD=${P}`],
    ['an assignment, \\u', `DB_PASSWORD=${BS}u75i3tsH6QlgsM`, `DB_PASSWORD=${P}`],
  ]);
});

describe("review 12: a URL's password holding a backslash and an escape letter", () => {
  everyForm([
    [
      'postgres, \\f',
      `psql postgres://app:ab${BS}frzIe3mGxHoL43S@db/app`,
      'psql postgres://app:[REDACTED:url-credentials]@db/app',
    ],
  ]);
});

describe('review 12: an unquoted value with \\n in its middle is masked whole', () => {
  // A tail of 8+ letters and digits (both) is read as the value's (./values passwordTail).
  everyForm([['mysql, glued', `mysql -pPw${BS}nW63vexlchKsAao -h db`, `mysql -p${P} -h db`]]);
});

describe('review 12: what stays a line break', () => {
  it.each([
    // A port before a JSON line break, a mail address on the next line.
    JSON.stringify({ url: 'see https://a.example.com:8080\nfoo@bar' }),
    // A JSON string's own escapes; quoted text in code and output.
    `{"c":"echo 'hi'\\nnext"}`,
    JSON.stringify({ output: "echo 'hello\\nworld'\nprintf 'a\\tb'\n" }),
    JSON.stringify({ CodeContent: 'x = "foo\\nbar"\nconst s = `a\\nb`;\n' }),
    JSON.stringify({ CommandLine: "sed -e 's/a\\/b/c/' f" }),
    JSON.stringify({ CommandLine: 'export PATH=\\/usr/bin:$PATH' }),
  ])('leaves %s', (text) => {
    kinds.length = 0;
    expect(r.redactText(text)).toBe(text);
    expect(kinds).toEqual([]);
  });
});
