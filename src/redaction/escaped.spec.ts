import { Redactor } from './redactor';

const r = new Redactor({ enabled: true, extraPatterns: [] });
const GHP = 'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const ESC = `\\u0067${GHP.slice(1)}`;
const TOKEN = '[REDACTED:github-token]';
const PW = '[REDACTED:password]';
/** A compact-tier argument: JSON text inside the record's JSON. */
const arg = (v: unknown) => JSON.stringify(JSON.stringify(v));

describe('secrets behind JSON string escapes, masked in place', () => {
  it('keeps text byte for byte when its escapes hide nothing: numbers, spacing, escapes', () => {
    const text = '{ "id" : 12345678901234567890, "x": 1.0,\n "s": "caf\\u00e9 \\"q\\"" }\n';
    expect(r.redactText(text)).toBe(text);
  });

  it('masks the escaped secret on the characters that spell it; the rest stays as written', () => {
    const text = `{"id":12345678901234567890,"k":"${ESC}"}\r\n{ "ok" : "a\\/b" }\r\n`;
    expect(r.redactText(text)).toBe(
      `{"id":12345678901234567890,"k":"${TOKEN}"}\r\n{ "ok" : "a\\/b" }\r\n`,
    );
  });

  it('sees through escaped keys, slashes and spaces, in JSON or not', () => {
    expect(r.redactText('{"pass\\u0077ord":"EscapedKeyPw0rd"}')).toBe(`{"pass\\u0077ord":"${PW}"}`);
    expect(
      r.redactText(
        'INFO payload {"hook":"https:\\/\\/hooks.slack.com\\/services\\/T0ABCDEFG\\/B0HIJKLMN\\/abcdefghijklmnopqrstuvwx"}',
      ),
    ).toBe('INFO payload {"hook":"https:\\/\\/[REDACTED:slack-webhook]"}');
    expect(r.redactText(`const t = "${ESC}"; // js`)).toBe(`const t = "${TOKEN}"; // js`);
  });

  it('masks compact-tier arguments (JSON inside JSON) as the API masks the decoded record', () => {
    const line =
      `{"step_index":3,"tool_calls":[{"name":"x","args":{"password":${arg('Hunter2abc!')},` +
      `"AWS_SECRET_ACCESS_KEY":${arg('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')},` +
      `"CommandLine":${arg('cd /x\nmysql -u root -pS3cretPw db')},` +
      `"Other":${arg('echo hi\r\ndocker login -u bob -p D0ckerPw')},` +
      `"Body":${arg({ t: GHP, creds: { user: 'bob' } })},"credentials":${arg({ user: 'bob', n: 123456 })}}}]}`;
    expect(r.redactText(line)).toBe(
      `{"step_index":3,"tool_calls":[{"name":"x","args":{"password":"\\"${PW}\\"",` +
        `"AWS_SECRET_ACCESS_KEY":"\\"${PW}\\"",` +
        `"CommandLine":"\\"cd /x\\\\nmysql -u root -p${PW} db\\"",` +
        `"Other":"\\"echo hi\\\\r\\\\ndocker login -u bob -p ${PW}\\"",` +
        `"Body":"{\\"t\\":\\"${TOKEN}\\",\\"creds\\":{\\"user\\":\\"bob\\"}}",` +
        `"credentials":"{\\"user\\":\\"${PW}\\",\\"n\\":${PW}}"}}]}`,
    );
  });

  it('leaves a JSON Schema under a secret key alone, as the JSON walk does', () => {
    const line = `{"args":{"password":${arg({ type: 'string', description: 'the user\nkey' })}}}`;
    expect(r.redactText(line)).toBe(line);
  });

  it('maps masks through \\u escapes and surrogate pairs to whole escape sequences', () => {
    const text = `{"note":"\\ud83d\\ude00 token ${ESC} \\u00e9"}`;
    expect(r.redactText(text)).toBe(`{"note":"\\ud83d\\ude00 token ${TOKEN} \\u00e9"}`);
  });

  it('reads a line that only starts like JSON (trailing text, a raw tab) literal by literal', () => {
    expect(r.redactText(`{"password":"\\"Hunter2abc!\\""} trailing`)).toBe(
      `{"password":"\\"${PW}\\""} trailing`,
    );
    expect(r.redactText(`{"k":"${ESC}\t"}`)).toBe(`{"k":"${TOKEN}\t"}`);
  });

  it('reads a line that is not JSON (cut, or a log) literal by literal, keys included', () => {
    const cut = `word", "password": "\\"Hunter2abc!\\"", "cmd": "a\\nmysql -pS3cretPw`;
    expect(r.redactText(cut)).toBe(`word", "password": "\\"${PW}\\"", "cmd": "a\\nmysql -p${PW}`);
  });
});
