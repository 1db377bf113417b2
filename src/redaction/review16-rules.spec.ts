import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r15's findings on the rules (issue #19): a key spelled with `\u` escapes served clear
 * where the quotes around it paired the wrong way (H1); capitalised sentences and code after a
 * password's name masked (M2, M3); suffixes the key rules missed (M4) and the lows (L5). Each
 * case in every form a text is stored in. Values are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('a key spelled with \\u escapes names its secret (H1)', () => {
  everyForm([
    ['pass\\u0077ord', `"pass\\u0077ord": "${V}"`, `"pass\\u0077ord": "${PW}"`],
    ['p\\u0061ssword', `"p\\u0061ssword": "${V}"`, `"p\\u0061ssword": "${PW}"`],
    ['\\u0070assword', `"\\u0070assword": "${V}"`, `"\\u0070assword": "${PW}"`],
    ['api_\\u006bey', `"api_\\u006bey": "${V}"`, `"api_\\u006bey": "${PW}"`],
    [
      'after an escaped quote in a command (t/pu2.txt line 1)',
      `mysql -pPw\\"Zq7QTz4dUDluYx8omAM\\" db ok "pass\\u0077ord": "${V}"`,
      `mysql -p${PW}\\"Zq7QTz4dUDluYx8omAM\\" db ok "pass\\u0077ord": "${PW}"`,
    ],
    [
      'after an odd quote',
      `say " then "pass\\u0077ord": "${V}"`,
      `say " then "pass\\u0077ord": "${PW}"`,
    ],
    [
      'after an apostrophe and a quote',
      `it's " then "pass\\u0077ord": "${V}"`,
      `it's " then "pass\\u0077ord": "${PW}"`,
    ],
    ['bare, with =', `pass\\u0077ord=${V}`, `pass\\u0077ord=${PW}`],
  ]);
});

describe('escaped keys that name no secret stay (H1, benign)', () => {
  everyForm([
    ['pass\\u0077ord_hint', `"pass\\u0077ord_hint": "${V}"`, `"pass\\u0077ord_hint": "${V}"`],
    ['to\\u006ben_count', '"to\\u006ben_count": 123456789', '"to\\u006ben_count": 123456789'],
    ['a placeholder', `"pass\\u0077ord": "required"`, `"pass\\u0077ord": "required"`],
  ]);
});

describe('a capitalised sentence after a password key is prose (M2, benign)', () => {
  everyForm([
    [
      'Django password2',
      'password2: The two password fields didn’t match.',
      'password2: The two password fields didn’t match.',
    ],
    [
      'The password is too short',
      'Password: The password is too short.',
      'Password: The password is too short.',
    ],
    ['Is required', 'Password: Is required', 'Password: Is required'],
    ['A minimum of', 'password: A minimum of 8 characters', 'password: A minimum of 8 characters'],
    ['Required. with a stop', 'Password: Required.', 'Password: Required.'],
    ['required. with a stop', 'password: required.', 'password: required.'],
    ['Required! with a bang', 'Password: Required!', 'Password: Required!'],
  ]);
});

describe('capitalised values that are secrets are still masked (M2)', () => {
  everyForm([
    ['The$ecret9', 'Password: The$ecret9', `Password: ${PW}`],
    ['a single capitalised token', 'password: Sunshine', `password: ${PW}`],
    // r19: a YAML line's value runs to the line's end (review r19 item 8), `Secret9 ok` too.
    ['The then a capital', 'password: The Secret9 ok', `password: ${PW}`],
    ['lower-case word then more', 'password: sunshine and more', `password: ${PW} and more`],
  ]);
});

describe('code after a condition on a password key is code (M3, benign)', () => {
  everyForm([
    [
      'raise after !=',
      'if password1 != password2: raise ValidationError("x")',
      'if password1 != password2: raise ValidationError("x")',
    ],
    ['elif pass', 'elif password2: pass', 'elif password2: pass'],
    ['case break', 'case password2: break', 'case password2: break'],
    ['if not raise', 'if not password2: raise', 'if not password2: raise'],
    ['while continue', '    while token2: continue', '    while token2: continue'],
    ['if return None', 'if password: return None', 'if password: return None'],
  ]);
});

describe('values after a password key outside a condition are still masked (M3)', () => {
  everyForm([
    ['raise123', 'password: raise123', `password: ${PW}`],
    ['raise alone, no condition', 'password: raise', `password: ${PW}`],
    ['a value in a condition', 'if x: password: Zq7secretX9', `if x: password: ${PW}`],
  ]);
});

describe('a quoted value on a line with `assert` is a value (review r16 H1)', () => {
  everyForm([
    [
      'pytest login',
      'assert client.login(username="admin", password="Zq7secretX9")',
      `assert client.login(username="admin", password="${PW}")`,
    ],
    ['assert then a key', 'assert password2: "Zq7secretX9"', `assert password2: "${PW}"`],
    ['assert; env', 'assert x; DB_PASSWORD="Zq7secretX9"', `assert x; DB_PASSWORD="${PW}"`],
    [
      'assert in a JSON value',
      '{"note": "assert ok", "password": "Zq7secretX9"}',
      `{"note": "assert ok", "password": "${PW}"}`,
    ],
  ]);
});

describe('XML elements named with a suffix (M4a)', () => {
  everyForm([
    ['password2', `<password2>${V}</password2>`, `<password2>${PW}</password2>`],
    [
      'password_confirm',
      `<password_confirm>${V}</password_confirm>`,
      `<password_confirm>${PW}</password_confirm>`,
    ],
    [
      'dbPasswordProd',
      `<dbPasswordProd>${V}</dbPasswordProd>`,
      `<dbPasswordProd>${PW}</dbPasswordProd>`,
    ],
    [
      'password_hint stays',
      `<password_hint>${V}</password_hint>`,
      `<password_hint>${V}</password_hint>`,
    ],
  ]);
});

describe('three or four digits after a key (M4b)', () => {
  everyForm([
    ['password_2026', `password_2026=${V}`, `password_2026=${PW}`],
    ['password_123', `password_123=${V}`, `password_123=${PW}`],
    ['password123', `password123=${V}`, `password123=${PW}`],
    ['API_KEY_2024', `API_KEY_2024: ${V}`, `API_KEY_2024: ${PW}`],
    ['TOKEN_2025', `TOKEN_2025=${V}`, `TOKEN_2025=${PW}`],
  ]);
});

describe('digits and numbers that name no secret stay (M4b, benign)', () => {
  everyForm([
    ['max_tokens2', 'max_tokens2: 1234567', 'max_tokens2: 1234567'],
    ['max_tokens_2048', 'max_tokens_2048: 1234567', 'max_tokens_2048: 1234567'],
    ['password_hint', `password_hint: ${V}`, `password_hint: ${V}`],
    ['token_count', 'token_count: 123456789', 'token_count: 123456789'],
    ['tokens_used', 'tokens_used: 123456789', 'tokens_used: 123456789'],
    ['password2 fields must match', 'password2 fields must match', 'password2 fields must match'],
    ['password2.txt', 'ls: password2.txt: No such file', 'ls: password2.txt: No such file'],
    ['a year in prose', 'the 2026 password policy: strict', 'the 2026 password policy: strict'],
    ['sha2560', `sha2560: ${V}`, `sha2560: ${V}`],
  ]);
});

describe('Kubernetes and compose env lists in YAML (M4c)', () => {
  everyForm([
    ['DB_PASSWORD', `- name: DB_PASSWORD\n  value: ${V}`, `- name: DB_PASSWORD\n  value: ${PW}`],
    [
      'quoted value',
      `- name: DB_PASSWORD\n  value: "${V}"`,
      `- name: DB_PASSWORD\n  value: "${PW}"`,
    ],
    [
      'suffixed name',
      `- name: DB_PASSWORD2\n  value: ${V}`,
      `- name: DB_PASSWORD2\n  value: ${PW}`,
    ],
    [
      'in an env list',
      `env:\n  - name: API_TOKEN\n    value: '${V}'\n  - name: REGION\n    value: eu-west-1`,
      `env:\n  - name: API_TOKEN\n    value: '${PW}'\n  - name: REGION\n    value: eu-west-1`,
    ],
    ['quoted name', `- name: "SECRET_KEY"\n  value: ${V}`, `- name: "SECRET_KEY"\n  value: ${PW}`],
  ]);
});

describe('env lists that hold no secret value stay (M4c, benign)', () => {
  everyForm([
    ['another name', `- name: REGION\n  value: ${V}`, `- name: REGION\n  value: ${V}`],
    [
      'a reference',
      '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db',
      '- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db',
    ],
    [
      'a placeholder',
      '- name: DB_PASSWORD\n  value: changeme',
      '- name: DB_PASSWORD\n  value: changeme',
    ],
    [
      'a variable',
      '- name: DB_PASSWORD\n  value: $(DB_PASS)',
      '- name: DB_PASSWORD\n  value: $(DB_PASS)',
    ],
  ]);
});
