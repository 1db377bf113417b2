import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r14's M2, M3 and M4: a secret name with a number or a confirmation's, database's or
 * generation's word glued on (`password2`, `passwordConfirm`, `password_db`) was not read as a
 * key; non-ASCII blanks between a key and its value (U+00A0, U+202F, U+3000...) hid the
 * value; localized "required" messages were masked where the English ones are not. Values
 * are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('a secret name with a number or a suffix glued on (M2)', () => {
  everyForm([
    [
      'Django signup JSON',
      `{"username":"bob","password1":"${V}","password2":"${V}"}`,
      `{"username":"bob","password1":"${PW}","password2":"${PW}"}`,
    ],
    [
      'curl -d form body',
      `curl -d 'password1=${V}&password2=${V}' https://h`,
      `curl -d 'password1=${PW}&password2=${PW}' https://h`,
    ],
    ['env DB_PASSWORD2', `DB_PASSWORD2=${V}`, `DB_PASSWORD2=${PW}`],
    ['env PASSWORD1', `PASSWORD1=${V}`, `PASSWORD1=${PW}`],
    ['yaml api_key2', `api_key2: ${V}`, `api_key2: ${PW}`],
    ['token2', `token2=${V}`, `token2=${PW}`],
    ['passwordConfirm', `{"passwordConfirm":"${V}"}`, `{"passwordConfirm":"${PW}"}`],
    ['password_db', `{"password_db":"${V}"}`, `{"password_db":"${PW}"}`],
    ['contraseña_db', `{"contraseña_db":"${V}"}`, `{"contraseña_db":"${PW}"}`],
    ['password_confirmation', `password_confirmation: ${V}`, `password_confirmation: ${PW}`],
    ['password_repeat', `password_repeat=${V}`, `password_repeat=${PW}`],
    ['passwordAgain', `passwordAgain: ${V}`, `passwordAgain: ${PW}`],
    ['tokenDb', `tokenDb: ${V}`, `tokenDb: ${PW}`],
    ['пароль2', `пароль2: ${V}`, `пароль2: ${PW}`],
  ]);
});

describe('names about a secret stay keys of no secret (M2, benign)', () => {
  everyForm([
    ['password_hint', `{"password_hint":"${V}"}`, `{"password_hint":"${V}"}`],
    ['password_length', 'password_length: 12', 'password_length: 12'],
    ['password_policy', `{"password_policy":"${V}"}`, `{"password_policy":"${V}"}`],
    ['passwordless', `passwordless: ${V}`, `passwordless: ${V}`],
    ['token_count', 'token_count: 123456789', 'token_count: 123456789'],
    ['tokens2 (a list, not a token)', `tokens2: ${V}`, `tokens2: ${V}`],
    ['max_tokens2', 'max_tokens2: 1234567', 'max_tokens2: 1234567'],
    ['oauth2', `oauth2: ${V}`, `oauth2: ${V}`],
    ['sha256', `sha256: ${V}`, `sha256: ${V}`],
    ['content (ends as current does)', `content: ${V}`, `content: ${V}`],
  ]);
});

describe('non-ASCII blanks between a key and its value (M3)', () => {
  everyForm([
    ['French NBSP before the colon', `Mot de passe\u00a0: ${V}`, `Mot de passe\u00a0: ${PW}`],
    ['French narrow NBSP', `Le mot de passe est\u202f: ${V}`, `Le mot de passe est\u202f: ${PW}`],
    ['Japanese ideographic space', `パスワード：\u3000${V}`, `パスワード：\u3000${PW}`],
    ['Chinese ideographic space', `密码：\u3000${V}`, `密码：\u3000${PW}`],
    ['NBSP after the colon', `password:\u00a0${V}`, `password:\u00a0${PW}`],
    ['NBSP after =', `DB_PASSWORD=\u00a0${V}`, `DB_PASSWORD=\u00a0${PW}`],
    ['NBSP in JSON', `"password":\u00a0"${V}"`, `"password":\u00a0"${PW}"`],
    ['U+2002', `password:\u2002${V}`, `password:\u2002${PW}`],
    ['U+2003', `password:\u2003${V}`, `password:\u2003${PW}`],
    ['U+2009', `password:\u2009${V}`, `password:\u2009${PW}`],
    ['U+205F', `password:\u205f${V}`, `password:\u205f${PW}`],
    ['U+1680', `password:\u1680${V}`, `password:\u1680${PW}`],
    ['U+2007', `password:\u2007${V}`, `password:\u2007${PW}`],
    ['NBSP either side of =', `password\u00a0=\u00a0${V}`, `password\u00a0=\u00a0${PW}`],
  ]);
});

describe('non-ASCII blanks in text with no secret (M3, benign)', () => {
  everyForm([
    ['French price', 'Prix\u00a0: 12\u00a0€ TTC', 'Prix\u00a0: 12\u00a0€ TTC'],
    ['NBSP before a code word', 'password:\u00a0string', 'password:\u00a0string'],
    ['ideographic space in prose', '設定：\u3000完了しました', '設定：\u3000完了しました'],
  ]);
});

describe('localized "required" messages and sentences stay (M4, benign)', () => {
  everyForm([
    ['Spanish requerida', 'contraseña: requerida', 'contraseña: requerida'],
    ['Hungarian kötelező', 'jelszó: kötelező', 'jelszó: kötelező'],
    ['French obligatoire', 'Mot de passe : obligatoire', 'Mot de passe : obligatoire'],
    ['French requis after NBSP', 'mot de passe\u00a0: requis.', 'mot de passe\u00a0: requis.'],
    ['Japanese 必須', 'パスワード: 必須', 'パスワード: 必須'],
    ['Chinese 必填', '密码：必填', '密码：必填'],
    ['Korean 필수입니다', '비밀번호: 필수입니다', '비밀번호: 필수입니다'],
    ['German erforderlich', 'Passwort: erforderlich', 'Passwort: erforderlich'],
    ['Russian обязательно', 'пароль: обязательно', 'пароль: обязательно'],
    ['Polish wymagane', 'hasło: wymagane', 'hasło: wymagane'],
    ['Portuguese obrigatória', 'senha: obrigatória', 'senha: obrigatória'],
    ['Turkish en az', 'Şifre: en az 8 karakter olmalı', 'Şifre: en az 8 karakter olmalı'],
    [
      'Spanish sentence',
      'Olvidé mi contraseña: la restablecí ayer',
      'Olvidé mi contraseña: la restablecí ayer',
    ],
    ['French voir', 'Le mot de passe : voir ci-dessous', 'Le mot de passe : voir ci-dessous'],
    ['English required', 'password: required', 'password: required'],
    ['English at least', 'Password: at least 8 characters', 'Password: at least 8 characters'],
  ]);
});

describe('values after those names are still masked (M4)', () => {
  everyForm([
    ['Spanish value', `contraseña: ${V}`, `contraseña: ${PW}`],
    ['one lower-case word', 'contraseña: secreto', `contraseña: ${PW}`],
    // r19: a YAML line's value runs to the line's end (review r19 item 8): `now` too.
    ['a word then one more', 'password: letmein now', `password: ${PW}`],
    ['German value', `Passwort: ${V}`, `Passwort: ${PW}`],
    ['Japanese value', `パスワード: ${V}`, `パスワード: ${PW}`],
    [
      'quoted required word is a placeholder',
      '{"password":"requerida"}',
      '{"password":"requerida"}',
    ],
  ]);
});
