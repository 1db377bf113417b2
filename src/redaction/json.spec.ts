import { secretKey } from './keys';
import { Redactor } from './redactor';

/** Redaction by structure: JSON values under secret-named keys, and keys that are secrets. */

const kinds: string[] = [];
const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
const M = '[REDACTED:password]';
const j = (...parts: string[]) => parts.join('');
const GHP = j('ghp_', 'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4');
const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJhbGljZSJ9', 'c2lnbmF0dXJlLWJ5dGVz'].join('.');

describe('secret-named keys', () => {
  const named = [
    ...['password', 'passwd', 'pwd', 'secret', 'token', 'api_key', 'apikey', 'api-key'],
    ...['access_key', 'private_key', 'client_secret', 'session_token', 'credentials', 'auth'],
    ...['PASSWORD', 'Api-Key', 'apiKey', 'clientSecret', 'accessToken', 'DB_PASS', 'dbPass'],
    ...['x-auth-token', 'SECRET_KEY_BASE', 'secret_access_key', 'passphrase', 'secrets'],
    // A service account's key id (review 8): it names the key, as a secret's handle.
    'private_key_id',
  ];
  it.each(named)('%s: its value is masked whole', (key) => {
    expect(r.redactJson({ [key]: 'hunter2 or any text', other: 'kept' })).toEqual({
      [key]: M,
      other: 'kept',
    });
  });

  const notNamed = [
    ...['max_tokens', 'token_count', 'tokenizer', 'secretName', 'password_reset_url'],
    ...['public_key_id', 'passwordless', 'bypass', 'compass', 'oauth', 'author', 'keys', 'key'],
  ];
  it.each(notNamed)('%s: its value is only scanned as text', (key) => {
    const value = { [key]: 'hunter2 or any text' };
    expect(r.redactJson(value)).toBe(value);
  });

  it('masks arrays under plural secret keys, not token counts', () => {
    const value = {
      accessTokens: ['AccTok123456'],
      apiKeys: ['ApiKs123456'],
      input_tokens: 150000,
    };
    expect(r.redactJson(value)).toEqual({ accessTokens: [M], apiKeys: [M], input_tokens: 150000 });
  });

  it('secretKey names exactly these keys', () => {
    for (const key of named) expect(secretKey(key)).not.toBeNull();
    for (const key of notNamed) expect(secretKey(key)).toBeNull();
  });
});

describe('values under secret-named keys', () => {
  it('keeps the Authorization scheme and uses the most specific kind', () => {
    kinds.length = 0;
    expect(
      r.redactJson({
        headers: {
          Authorization: `Bearer ${JWT}`,
          'Proxy-Authorization': 'Basic dXNlcjpwYXNz',
          authorization: 'opaque-credential',
          Cookie: 'sid=abc; theme=dark',
          'X-Api-Key': GHP,
        },
      }),
    ).toEqual({
      headers: {
        Authorization: 'Bearer [REDACTED:jwt]',
        'Proxy-Authorization': 'Basic [REDACTED:basic-auth]',
        authorization: '[REDACTED:bearer]',
        Cookie: '[REDACTED:cookie]',
        'X-Api-Key': '[REDACTED:github-token]',
      },
    });
    expect(kinds).toEqual(['jwt', 'basic-auth', 'bearer', 'cookie', 'github-token']);
  });

  it('masks every string and number below the key, except a JSON Schema', () => {
    expect(
      r.redactJson({
        credentials: { user: 'bob', pass: 'p', list: ['a', 123456], ok: true, none: null },
        password: { type: 'string', minLength: 8, description: 'the password' },
        token: [{ value: 'x1y2z3' }],
      }),
    ).toEqual({
      credentials: { user: M, pass: M, list: [M, M], ok: true, none: null },
      password: { type: 'string', minLength: 8, description: 'the password' },
      token: [{ value: M }],
    });
  });

  it('masks numbers as the text detectors would (any for passwords, long ones for tokens)', () => {
    expect(r.redactJson({ password: 1234, token: 3600, session_token: 12345678 })).toEqual({
      password: M,
      token: 3600,
      session_token: M,
    });
  });

  it('leaves placeholders, references, markers, empty values and paths after pwd', () => {
    const value = {
      password: '',
      secret: null,
      token: true,
      apiKey: 'string',
      client_secret: '${CLIENT_SECRET}',
      access_token: '{{ .Values.token }}',
      credentials: 'include',
      pwd: '/home/dev/project',
      auth: '[REDACTED:password]',
    };
    expect(r.redactJson(value)).toBe(value);
  });
});

describe('keys that are secrets', () => {
  it('masks the key, numbering keys that would collide', () => {
    const other = j('ghp_', 'Qm3xL8vR2nT5kW9pZ1cY6hB4dF7sJ0gA3uE8');
    expect(r.redactJson({ [GHP]: 1, [other]: 2, plain: 3 })).toEqual({
      '[REDACTED:github-token]': 1,
      '[REDACTED:github-token]#2': 2,
      plain: 3,
    });
  });

  it('keeps the key order and `__proto__` as an own key', () => {
    const value = JSON.parse(`{"a": 1, "${GHP}": 2, "__proto__": {"password": "x"}}`) as object;
    const out = r.redactJson(value) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['a', '[REDACTED:github-token]', '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ password: M });
  });
});

describe('the same structure written as text', () => {
  const cases: [string, string][] = [
    ['{"password": "hunter2"}', `{"password": "${M}"}`],
    ['{\\"apiKey\\": \\"abc\\"}', `{\\"apiKey\\": \\"${M}\\"}`],
    ['password: hunter2', `password: ${M}`],
    ['PASSWORD=hunter2', `PASSWORD=${M}`],
    ['clientSecret: "s3"', `clientSecret: "${M}"`],
    ["credentials = 'user:pw'", `credentials = '${M}'`],
    ['{"auth": "dXNlcjpwYXNz"}', `{"auth": "${M}"}`],
    ['"cookie": "sid=1"', '"cookie": "[REDACTED:cookie]"'],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(r.redactText(text)).toBe(expected);
  });

  it('leaves prose after loose key words (a real transcript had these)', () => {
    const prose = [
      'token: the refresh flow is explained below',
      'The secret: nobody reads the logs',
      'credentials: see the vault docs',
      'auth: required',
    ];
    for (const text of prose) expect(r.redactText(text)).toBe(text);
  });
});
