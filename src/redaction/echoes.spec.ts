import { Redactor } from './redactor';

const counted: string[] = [];
const redactor = new Redactor({ enabled: true, extraPatterns: [] }, (kind) => counted.push(kind));
const redact = (text: string) => redactor.redactText(text);
const GHP = ['ghp_', 'x5bN2ZkW9qT4rL7mV1cH8dF3sJ6pA0gY2uE4'].join('');

beforeEach(() => (counted.length = 0));

describe('a secret found once is masked where the same text shows it again', () => {
  it('masks the echo of a password found by its option, counted, with its kind', () => {
    expect(redact('mysql -u root -pS3cretPw0rd db\nlogged in with S3cretPw0rd.')).toBe(
      'mysql -u root -p[REDACTED:password] db\nlogged in with [REDACTED:password].',
    );
    expect(counted).toEqual(['password', 'password']);
  });

  it('masks an echo before the place the secret was found, and a token seen twice', () => {
    expect(redact('use Tr0ub4dor3xyz as PGPASSWORD=Tr0ub4dor3xyz')).toBe(
      'use [REDACTED:password] as PGPASSWORD=[REDACTED:password]',
    );
    expect(redact(`${GHP} then ${GHP}`)).toBe(
      '[REDACTED:github-token] then [REDACTED:github-token]',
    );
  });

  it('leaves a longer word that contains the value, and values under 8 characters', () => {
    expect(redact('mysql -pS3cretPw0rd; S3cretPw0rdX and xS3cretPw0rd stay')).toBe(
      'mysql -p[REDACTED:password]; S3cretPw0rdX and xS3cretPw0rd stay',
    );
    expect(redact('password: hunter2 then hunter2 again')).toBe(
      'password: [REDACTED:password] then hunter2 again',
    );
  });

  it('looks for no echo in a text of more than 32 secrets (a dump, not prose)', () => {
    const lines = Array.from({ length: 33 }, (_, i) => `PASSWORD_${i}=Secr3tValue${i}x`);
    const text = `${lines.join('\n')}\nSecr3tValue0x`;
    const masked = redact(text);
    expect(masked.endsWith('\nSecr3tValue0x')).toBe(true);
    expect(counted.length).toBe(33);
  });
});
