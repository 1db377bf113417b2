import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r16 M1 and its lows: the prose exemption is one judgement (./prose) that takes the key
 * and the separator. A passphrase is a sentence, and after `=` a sentence is the value (dotenv
 * reads the whole line): both are masked whole. After a lone `:` a sentence that begins with a
 * function word stays, capitalised too (`It`, `Forgot`, `Minimum`, `Die`, `O`), while a token
 * after such a word is still a value. Each case in every form a text is stored in (plain, a
 * JSON line, a file, a diff…). Values are made up.
 */

const { r, everyForm } = countingRedactor();
const PW = '[REDACTED:password]';

describe('a passphrase or an `=` assignment is never prose (M1)', () => {
  everyForm([
    ['GPG_PASSPHRASE=', 'GPG_PASSPHRASE=In the beginning was the word', `GPG_PASSPHRASE=${PW}`],
    ['passphrase:', 'passphrase: The cat sat on the mat', `passphrase: ${PW}`],
    ['SECRET_KEY= dotenv', 'SECRET_KEY=The quick brown fox jumps', `SECRET_KEY=${PW}`],
    ['APP_PASSPHRASE=', 'APP_PASSPHRASE=A walk in the park', `APP_PASSPHRASE=${PW}`],
    ['lower-case passphrase', 'passphrase: correct horse battery staple', `passphrase: ${PW}`],
    ['a comment after it', 'passphrase: the cat sat # rotated', `passphrase: ${PW} # rotated`],
    ['the next assignment', 'password=the cat sat user=bob', `password=${PW} user=bob`],
  ]);
});

describe('capitalised prose after `password:` is kept (M1 lows)', () => {
  everyForm([
    ['It', 'Password: It must have 8 characters.', 'Password: It must have 8 characters.'],
    ['Minimum', 'password: Minimum 12 characters', 'password: Minimum 12 characters'],
    [
      'Forgot',
      'Password: Forgot your password? Reset it',
      'Password: Forgot your password? Reset it',
    ],
    [
      'Strong',
      'Password: Strong passwords have symbols',
      'Password: Strong passwords have symbols',
    ],
    ['Updated', 'Password: Updated successfully', 'Password: Updated successfully'],
    ['Die', 'Passwort: Die Eingabe ist zu kurz', 'Passwort: Die Eingabe ist zu kurz'],
    ['O', 'Senha: O campo é obrigatório', 'Senha: O campo é obrigatório'],
    [
      'Django password2',
      'password2: The two password fields didn’t match.',
      'password2: The two password fields didn’t match.',
    ],
  ]);
});

describe('a token after a sentence word is still a value (M1)', () => {
  everyForm([
    ['It$Secr3t!', 'Password: It$Secr3t!', `Password: ${PW}`],
    ['It alone', 'Password: It', `Password: ${PW}`],
    ['Minimum alone', 'Password: Minimum', `Password: ${PW}`],
    // r19: a YAML line's value runs to the line's end (review r19 item 8): `p@ssw0rd!` too.
    ['The then a token', 'password: The p@ssw0rd!', `password: ${PW}`],
  ]);
});

it('masks a passphrase in a JSON line as in its decoded text', () => {
  const txt = 'GPG_PASSPHRASE=In the beginning was the word';
  const line = JSON.stringify({ step_index: 1, content: `Note:\n${txt}\nend` });
  expect(r.redactText(line)).toBe(
    JSON.stringify({ step_index: 1, content: `Note:\nGPG_PASSPHRASE=${PW}\nend` }),
  );
});
