import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r12's probes (extra.py, benign2.py): a long option and a blank before a value starting
 * with a backslash (`--password \/…`) was served clear while `--password X…` was masked; the
 * word for password in Hungarian, Vietnamese and full-width ASCII named no secret; printf's
 * placeholders (`%s`) and a lone escape (`\t`) after `password: ` were masked as values. Values
 * are made up; `\` below is one backslash of the text as typed (the forms escape it as they
 * store it).
 */

const { everyForm } = countingRedactor();
const BS = '\\';
const P = '[REDACTED:password]';

describe('a long option, a blank and a value starting with a backslash', () => {
  everyForm([
    [
      'docker login --password \\/',
      `docker login -u bob --password ${BS}/XqM5qHwLb1o5b4yx reg`,
      `docker login -u bob --password ${P} reg`,
    ],
    [
      'mysql --password \\/',
      `mysql -u root --password ${BS}/XqM5qHwLb1o5b4yx db`,
      `mysql -u root --password ${P} db`,
    ],
  ]);
});

describe('the word for password in more languages', () => {
  everyForm([
    ['Hungarian', 'jelszó: XqM5qHwLb1o5b4yx', `jelszó: ${P}`],
    ['Hungarian, upper case, `=`', 'DB_JELSZÓ=XqM5qHwLb1o5b4yx', `DB_JELSZÓ=${P}`],
    ['Vietnamese', 'mật khẩu: XqM5qHwLb1o5b4yx', `mật khẩu: ${P}`],
    ['Vietnamese, capitalised', 'Mật khẩu: XqM5qHwLb1o5b4yx', `Mật khẩu: ${P}`],
    ['full-width ASCII', 'ｐａｓｓｗｏｒｄ: XqM5qHwLb1o5b4yx', `ｐａｓｓｗｏｒｄ: ${P}`],
    ['full-width ASCII and colon', 'ＰＡＳＳＷＯＲＤ：XqM5qHwLb1o5b4yx', `ＰＡＳＳＷＯＲＤ：${P}`],
  ]);
});

describe('placeholders and escapes are no value', () => {
  const same = (name: string, text: string) => [name, text, text] as const;
  everyForm([
    same("Go's Printf", `fmt.Printf("password: %s${BS}n", pw)`),
    same('%v', 'log.Printf("password: %v", pw)'),
    same('%+v and %-10s', 'password: %+v token: %-10s'),
    same('%d after =', 'password=%d'),
    same('%q, %x', 'password: %q secret: %x'),
    same("Python's {} and {0}", 'print("password: {}".format(pw), "password: {0}")'),
    same('a lone \\t', `password = input("Password: ${BS}t")`),
    same('two escapes', `password: ${BS}t${BS}t`),
    ['a value after a placeholder-like start', 'password: %Zq8mLw2', `password: ${P}`],
    ['a value after \\t', `password: ${BS}tXq9mLw2Zr7TbQe`, `password: ${P}`],
  ]);
});
