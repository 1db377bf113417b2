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
