import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r15's lows. L1: a value that starts with a JSON escape (`\/`, `\t`, `\"`, `\\`,
 * `\u0041`) where the same tool's plain value is masked (each plain form below was masked on
 * main): `curl --user=bob:\/…`, `mysqladmin … password \/…`, `Authorization: Bearer \/…`...
 * L2: a secret word spelled with a dotted capital I (`ŞİFRE`), in half-width katakana
 * (`ﾊﾟｽﾜｰﾄﾞ`) or with a zero-width character inside or beside it. L3: a chain of escape-led
 * values (`password: \t` repeated), each value the next key, left the last value clear.
 * And review r13's low left then: `key = '\u0041KIA…'` past a text's first line.
 * Values are made up; `\` below is one backslash of the text as typed. The review also listed
 * `wget --ftp-password=\/…`, `mysqladmin password \\…`, `şifre: …` and a zero-width space
 * before the word: masked on main, left out here.
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';
const B = '[REDACTED:bearer]';
const V = 'Vq7MWcqmUIYttD3A';

describe("L1: a tool's value starting with an escape", () => {
  everyForm([
    [
      'curl --user=bob:\\/',
      `curl --user=bob:${BS}/${V} https://h`,
      `curl --user=bob:${P} https://h`,
    ],
    [
      'mysqladmin password \\/',
      `mysqladmin -u root password ${BS}/${V}`,
      `mysqladmin -u root password ${P}`,
    ],
    ['htpasswd -b file bob \\/', `htpasswd -b file bob ${BS}/${V}`, `htpasswd -b file bob ${P}`],
    ['xfreerdp /p:\\/', `xfreerdp /u:bob /p:${BS}/${V}`, `xfreerdp /u:bob /p:${P}`],
    [
      'net use \\\\srv\\share \\/',
      `net use ${BS}${BS}srv${BS}share ${BS}/${V} /user:bob`,
      `net use ${BS}${BS}srv${BS}share ${P} /user:bob`,
    ],
    [
      'aws configure set aws_secret_access_key \\/',
      `aws configure set aws_secret_access_key ${BS}/${V}`,
      `aws configure set aws_secret_access_key ${P}`,
    ],
    ['Authorization: Bearer \\/', `Authorization: Bearer ${BS}/${V}`, `Authorization: Bearer ${B}`],
    [
      'wget --ftp-password \\/',
      `wget --ftp-password ${BS}/${V} ftp://h`,
      `wget --ftp-password ${P} ftp://h`,
    ],
    ['YAML password: "\\t\\t"', `password: "${BS}t${BS}t${V}"`, `password: "${P}"`],
    ["YAML password: '\\/'", `password: '${BS}/${V}'`, `password: '${P}'`],
    ['password:\\t (no blank)', `password:${BS}t${V}`, `password:${P}`],
  ]);
});

// A real tab is the same bytes as `password:\t` above in every JSON form (the escape is masked
// with the value there); as typed, the tab stays.
it('password:<tab> as typed', () => {
  expect(countingRedactor().r.redactText(`password:\t${V}`)).toBe(`password:\t${P}`);
});

describe('L1: the other escapes a value may start with', () => {
  everyForm([
    ['mysqladmin password \\t', `mysqladmin password ${BS}t${V}`, `mysqladmin password ${P}`],
    ['mysqladmin password \\"', `mysqladmin password ${BS}"${V}`, `mysqladmin password ${P}`],
    [
      'mysqladmin password \\u0041',
      `mysqladmin password ${BS}u0041${V}`,
      `mysqladmin password ${P}`,
    ],
    ['Bearer \\t', `Authorization: Bearer ${BS}t${V}`, `Authorization: Bearer ${B}`],
  ]);
});

describe('L1 (benign): escapes that are no value', () => {
  everyForm([
    ['a prompt then a tab', 'read -p "Password: \\t" pw', 'read -p "Password: \\t" pw'],
    ['a prompt then a line', 'echo "Password: \\nnext"', 'echo "Password: \\nnext"'],
    ['printf of a tab', "printf 'a\\tb\\n'", "printf 'a\\tb\\n'"],
  ]);
});

describe('L2: spelling variants of a secret word', () => {
  everyForm([
    ['Turkish ŞİFRE', `ŞİFRE: ${V}`, `ŞİFRE: ${P}`],
    ['Turkish DB_ŞİFRE=', `DB_ŞİFRE=${V}`, `DB_ŞİFRE=${P}`],
    ['half-width katakana', `ﾊﾟｽﾜｰﾄﾞ: ${V}`, `ﾊﾟｽﾜｰﾄﾞ: ${P}`],
    ['U+200B inside', `pass\u200bword: ${V}`, `pass\u200bword: ${P}`],
    ['U+200C inside', `pass\u200cword: ${V}`, `pass\u200cword: ${P}`],
    ['U+200D before the colon', `password\u200d: ${V}`, `password\u200d: ${P}`],
    ['U+2060 inside', `DB_PASS\u2060WORD=${V}`, `DB_PASS\u2060WORD=${P}`],
    ['U+FEFF inside', `{"pass\ufeffword":"${V}"}`, `{"pass\ufeffword":"${P}"}`],
  ]);
});

describe('L2 (benign): the same characters in text with no secret', () => {
  everyForm([
    ['Turkish İSTANBUL', 'İSTANBUL: merkez ofis', 'İSTANBUL: merkez ofis'],
    ['half-width katakana word', 'ﾃｽﾄ: ｶﾀｶﾅ', 'ﾃｽﾄ: ｶﾀｶﾅ'],
    ['a zero-width space in prose', 'see\u200bthe docs: here', 'see\u200bthe docs: here'],
  ]);
});

describe('L3: a chain of escape-led values', () => {
  everyForm([
    ['password: \\t twice', `password: ${BS}tpassword: ${BS}t${V}`, `password: ${P} ${P}`],
    [
      'password: \\t 30 times',
      `${`password: ${BS}t`.repeat(30)}${V}`,
      `password: ${`${P} `.repeat(29)}${P}`,
    ],
  ]);
});

describe("r13's low: a \\u-escaped key id in single quotes past a text's first line", () => {
  const A = '[REDACTED:aws-access-key]';
  const K = 'Q3EGRX5TZ7KB4M2P';
  everyForm([
    ['first line then the key', `# set up\nkey = '${BS}u0041KIA${K}'`, `# set up\nkey = '${A}'`],
    ['in a list', `# set up\nkeys = ['${BS}u0041KIA${K}']`, `# set up\nkeys = ['${A}']`],
    ['an escape inside', `# set up\nk = 'AKIA${BS}u0051${K.slice(1)}'`, `# set up\nk = '${A}'`],
  ]);
});

describe("r13's low (benign): \\u escapes in single quotes with no secret", () => {
  everyForm([
    ['an accent', `# set up\nprint('caf${BS}u00e9 ok')`, `# set up\nprint('caf${BS}u00e9 ok')`],
    [
      'apostrophes around',
      `# it's\nx = '${BS}u0041BC' # don't`,
      `# it's\nx = '${BS}u0041BC' # don't`,
    ],
  ]);
});
