import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Backslash forms review 12 left unread (README's redaction section): a value starting with a
 * backslash after `: ` or after a short option and a blank, a URL with its slashes escaped
 * (`:\/\/`, as sed or JSON writes them), and an unquoted value cut by an escape letter in a
 * text holding a `"` (masked whole now). Values are made up; `\` below is one backslash of the
 * text as typed (the forms escape it as they store it).
 */

const { r, kinds, everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';
const U = '[REDACTED:url-credentials]';

describe('a value starting with a backslash after a blank', () => {
  everyForm([
    ['YAML, \\t after `: `', `password: ${BS}tXq9mLw2Zr7TbQe`, `password: ${P}`],
    [
      'sshpass -p and a blank, \\/',
      `sshpass -p ${BS}/sD3mbLFecbVjaf ssh h`,
      `sshpass -p ${P} ssh h`,
    ],
    [
      'docker login -p and a blank, \\u',
      `docker login -u bob -p ${BS}uQ8wLm3Zr7TbQe reg.example.com`,
      `docker login -u bob -p ${P} reg.example.com`,
    ],
  ]);
});

describe("a URL's password starting with a backslash", () => {
  everyForm([
    [
      'postgres, \\f',
      `psql postgres://app:${BS}fZq8mLw2Rt5XyV@db/app`,
      `psql postgres://app:${U}@db/app`,
    ],
  ]);
});

describe('a URL with its slashes escaped', () => {
  everyForm([
    [
      'sed',
      `sed -i 's/^DB=.*/DB=postgres:${BS}/${BS}/app:Zq8wLmQ4rT7yXb@db${BS}/app/' .env`,
      `sed -i 's/^DB=.*/DB=postgres:${BS}/${BS}/app:${U}@db${BS}/app/' .env`,
    ],
    [
      'an assignment',
      `url=postgres:${BS}/${BS}/app:Zq8wLmQ4rT7yXb@db/app`,
      `url=postgres:${BS}/${BS}/app:${U}@db/app`,
    ],
  ]);
});

describe('an unquoted value with an escape letter in its middle is masked whole', () => {
  everyForm([
    ['mysql, glued, \\n', `mysql -pPw${BS}nW63vexlchKsAao -h db`, `mysql -p${P} -h db`],
    ['an assignment, \\t', `DB_PASSWORD=Pw${BS}tK8vexlchKsAao9`, `DB_PASSWORD=${P}`],
  ]);
});

describe('what stays a line break or a tab', () => {
  it.each([
    // A prompt, then the next line.
    JSON.stringify({ output: 'Password: \nLogin succeeded\n' }),
    JSON.stringify({ output: 'Enter password: \nok1234 done\n' }),
    JSON.stringify({ output: 'usage: -p \nfoo' }),
    // `echo -e` and its escapes.
    'echo -e \\n1abc',
  ])('leaves %s', (text) => {
    kinds.length = 0;
    expect(r.redactText(text)).toBe(text);
    expect(kinds).toEqual([]);
  });

  it.each([
    // The next line of a .env file, a command after a line break: only the value is masked.
    [
      JSON.stringify({ output: 'PASSWORD=Xyz12ab9\nAPI_URL=http://h:8080\n' }),
      JSON.stringify({ output: `PASSWORD=${P}\nAPI_URL=http://h:8080\n` }),
    ],
    [
      JSON.stringify({ c: 'mysql -pPw123ab\nls -la' }),
      JSON.stringify({ c: `mysql -p${P}\nls -la` }),
    ],
    [JSON.stringify({ c: 'mysql -pPw123ab\nab12' }), JSON.stringify({ c: `mysql -p${P}\nab12` })],
  ])('masks the value only in %s', (text, want) => {
    kinds.length = 0;
    expect(r.redactText(text)).toBe(want);
    expect(kinds).toEqual(['password']);
  });
});
