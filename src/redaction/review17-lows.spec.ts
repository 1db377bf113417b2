import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r16's lows on key names: a token key numbered like a context size holds a count or a
 * model's name (false positives), a five-digit number and more environments' and accounts'
 * suffixes name a secret still. Each case in every form a text is stored in. Values made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('numbered token keys holding counts or model names stay', () => {
  everyForm([
    ['TOKEN_2048=4096', 'TOKEN_2048=4096', 'TOKEN_2048=4096'],
    ['token2048: llama-3-8b', 'token2048: llama-3-8b', 'token2048: llama-3-8b'],
    ['token_4096: "cl100k_base"', 'token_4096: "cl100k_base"', 'token_4096: "cl100k_base"'],
    [
      'password_1234: see vault (as before)',
      'password_1234: see vault',
      'password_1234: see vault',
    ],
  ]);
});

describe('numbered and suffixed secret keys are masked', () => {
  everyForm([
    ['five digits', `password12345: ${V}`, `password12345: ${PW}`],
    ['a token after a numbered key', `token_2048: ghp_${V}${V}`, `token_2048: ${PW}`],
    ['API_KEY_2024 (review r15)', 'API_KEY_2024=sk-abc123def456', `API_KEY_2024=${PW}`],
    ['_QA', `DB_PASSWORD_QA=${V}`, `DB_PASSWORD_QA=${PW}`],
    ['_UAT', `DB_PASSWORD_UAT=${V}`, `DB_PASSWORD_UAT=${PW}`],
    ['_stg', `db_password_stg=${V}`, `db_password_stg=${PW}`],
    ['_PRD', `DB_PASSWORD_PRD=${V}`, `DB_PASSWORD_PRD=${PW}`],
    ['_ADMIN', `DB_PASSWORD_ADMIN=${V}`, `DB_PASSWORD_ADMIN=${PW}`],
    ['_ROOT', `MYSQL_PASSWORD_ROOT=${V}`, `MYSQL_PASSWORD_ROOT=${PW}`],
  ]);
});

describe('a non-breaking space after an option (review r15 lows)', () => {
  everyForm([
    ['--password NBSP', `mysql --password\u00a0${V}`, `mysql --password\u00a0${PW}`],
    ['curl -u NBSP', `curl -u\u00a0bob:${V} https://x`, `curl -u\u00a0bob:${PW} https://x`],
    ['--password2', `mycmd --password2 ${V}`, `mycmd --password2 ${PW}`],
    ['password: NBSP tab', `password:\u00a0\t${V}`, `password:\u00a0\t${PW}`],
  ]);
});
