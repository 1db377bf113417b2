import { fourForms } from '../../test/redaction/four-forms';

/**
 * Review 24's shapes still served clear on every route after review 25's fixes (rules r23):
 * each is masked now in every form (decoded, in a JSON line, the line's bytes, JSON inside
 * JSON, the text as a whole string). Near misses below stay as they are.
 */

const { forms, maskedAll, clear } = fourForms();

/** [the text, the value masked in it] */
const SETTERS: [string, string][] = [
  ['export A=1 API_TOKEN=Rq01(Xm2vL9pT4wZ8', 'Rq01(Xm2vL9pT4wZ8'],
  ['set "API_TOKEN=Rq02(Xm2vL9pT4wZ8"', 'Rq02(Xm2vL9pT4wZ8'],
  ['env -i DB_PASSWORD=Rq03(Xm2vL9pT4wZ8 ./app', 'Rq03(Xm2vL9pT4wZ8'],
  ['sudo DB_PASSWORD=Rq04(Xm2vL9pT4wZ8 ./app', 'Rq04(Xm2vL9pT4wZ8'],
  ['user@host:~$ export API_TOKEN=Rq05(Xm2vL9pT4wZ8', 'Rq05(Xm2vL9pT4wZ8'],
  ['set -x API_TOKEN Rq06(Xm2vL9pT4wZ8', 'Rq06(Xm2vL9pT4wZ8'],
  ['set -gx API_TOKEN Rq07(Xm2vL9pT4wZ8', 'Rq07(Xm2vL9pT4wZ8'],
  ['docker run -e "DB_PASSWORD=Rq08(Xm2vL9pT4wZ8" img', 'Rq08(Xm2vL9pT4wZ8'],
  ['docker run --env=DB_PASSWORD=Rq09(Xm2vL9pT4wZ8 img', 'Rq09(Xm2vL9pT4wZ8'],
  [
    'kubectl create secret generic db --from-literal password=Rq10(Xm2vL9pT4wZ8',
    'Rq10(Xm2vL9pT4wZ8',
  ],
  [
    'kubectl create secret generic db --from-literal=api-key=Rq11(Xm2vL9pT4wZ8',
    'Rq11(Xm2vL9pT4wZ8',
  ],
  [
    "kubectl create secret generic db --from-literal='password=Rq12(Xm2vL9pT4wZ8'",
    'Rq12(Xm2vL9pT4wZ8',
  ],
  ['helm install x --set auth.postgresPassword=Rq13(Xm2vL9pT4wZ8', 'Rq13(Xm2vL9pT4wZ8'],
  ['heroku config:set DB_PASSWORD=Rq14(Xm2vL9pT4wZ8', 'Rq14(Xm2vL9pT4wZ8'],
  ['fly secrets set DB_PASSWORD=Rq15(Xm2vL9pT4wZ8', 'Rq15(Xm2vL9pT4wZ8'],
  ['DB_PASSWORD=Qk00Xm2vL9pT4wZ8(', 'Qk00Xm2vL9pT4wZ8('],
];

const CONFIG: [string, string][] = [
  ['Password: Rq16(Xm2vL9pT4wZ8', 'Rq16(Xm2vL9pT4wZ8'],
  ['api-key: Rq17(Xm2vL9pT4wZ8', 'Rq17(Xm2vL9pT4wZ8'],
  ['{password: Rq18(Xm2vL9pT4wZ8}', 'Rq18(Xm2vL9pT4wZ8'],
  ['{password: Rq18(Xm2vL9pT4wZ9, port: 5432}', 'Rq18(Xm2vL9pT4wZ9'],
  ['[db]\npassword=Rq19(Xm2vL9pT4wZ8', 'Rq19(Xm2vL9pT4wZ8'],
  ['db.password=Rq20(Xm2vL9pT4wZ8', 'Rq20(Xm2vL9pT4wZ8'],
];

/** Setters of `NAME VALUE` in Dockerfiles, csh, Apache, nginx. */
const SPACED: [string, string][] = [
  ['env DB_PASSWORD Rq21Xm2vL9pT4wZ8', 'Rq21Xm2vL9pT4wZ8'],
  ['ARG NPM_TOKEN Rq22Xm2vL9pT4wZ8', 'Rq22Xm2vL9pT4wZ8'],
  ['setenv DB_PASSWORD Rq23Xm2vL9pT4wZ8', 'Rq23Xm2vL9pT4wZ8'],
  ['SetEnv DB_PASSWORD Rq24Xm2vL9pT4wZ8', 'Rq24Xm2vL9pT4wZ8'],
  ['SetEnv API_TOKEN "Rq24Xm2vL9pT4wZ9"', 'Rq24Xm2vL9pT4wZ9'],
  ['fastcgi_param DB_PASSWORD Rq25Xm2vL9pT4wZ8;', 'Rq25Xm2vL9pT4wZ8'],
];

/** Code and configuration: a JWT signing secret, an admin key. */
const CODE: [string, string][] = [
  ["jwt.sign(payload, 'Rq26Xm2vL9pT4wZ8')", 'Rq26Xm2vL9pT4wZ8'],
  ['jwt.sign(payload, "Rq27Xm2vL9pT4wZ8", {expiresIn: "1h"})', 'Rq27Xm2vL9pT4wZ8'],
  ['ALGOLIA_ADMIN_KEY=3f9a7c2e1b4d6f8a0c2e4b6d8f0a2c4e', '3f9a7c2e1b4d6f8a0c2e4b6d8f0a2c4e'],
  ['adminKey: Rq36Xm2vL9pT4wZ8', 'Rq36Xm2vL9pT4wZ8'],
  ['PASSWORD_SALT=Rq35Xm2vL9pT4wZ8', 'Rq35Xm2vL9pT4wZ8'],
  ["define('AUTH_SALT', 'Rq35Xm2vL9pT4wZ9');", 'Rq35Xm2vL9pT4wZ9'],
  ['SECURITY_PASSWORD_SALT: Rq35Xm2vL9pT4wZ7', 'Rq35Xm2vL9pT4wZ7'],
];

/** Markdown, prose and JSON: a table under `|:--|`, a one-time code, sentences, a heading. */
const PROSE: [string, string][] = [
  ['| user | password |\n|:--|:--|\n| admin | Md09Xm2vL9pT4wZq |', 'Md09Xm2vL9pT4wZq'],
  ['| user | password |\n|-|-|\n| admin | Md10Xm2vL9pT4wZq |', 'Md10Xm2vL9pT4wZq'],
  ['{"otp": "839205"}', '839205'],
  ['totp: 493027', '493027'],
  ['mfa_code=493027', '493027'],
  ['The password for the admin account is Rq36Xm2vL9pT4wZ8.', 'Rq36Xm2vL9pT4wZ8'],
  ['Use password Rq37Xm2vL9pT4wZ8', 'Rq37Xm2vL9pT4wZ8'],
  ['I set the root password to Rq38Xm2vL9pT4wZ8', 'Rq38Xm2vL9pT4wZ8'],
  ['### Admin password\n\nRq39Xm2vL9pT4wZ8', 'Rq39Xm2vL9pT4wZ8'],
  ['user admin pass Md20Xm2vL9pT4wZq', 'Md20Xm2vL9pT4wZq'],
  ['**Token:** Tk9mX2vL9pT', 'Tk9mX2vL9pT'],
];

/** [the text, its values in order]: a value, then its echo in another encoding. */
const ECHOES: [string, string[]][] = [
  [
    'DB_PASSWORD="Ec06&Xm2vL9pT4wZ8"\n<input value="Ec06&#X26;Xm2vL9pT4wZ8">',
    ['Ec06&Xm2vL9pT4wZ8', 'Ec06&#X26;Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD="Ec07&Xm2vL9pT4wZ8"\n<input value="Ec07&#038;Xm2vL9pT4wZ8">',
    ['Ec07&Xm2vL9pT4wZ8', 'Ec07&#038;Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD="Ec09&Xm2vL9pT4wZ8"\n<a href="?p=Ec09&#x0026;Xm2vL9pT4wZ8">',
    ['Ec09&Xm2vL9pT4wZ8', 'Ec09&#x0026;Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD="Ec11<Xm2vL9pT4wZ8"\n<input value="Ec11&#60;Xm2vL9pT4wZ8">',
    ['Ec11<Xm2vL9pT4wZ8', 'Ec11&#60;Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD=\'Ec12"Xm2vL9pT4wZ8\'\n<input value="Ec12&#34;Xm2vL9pT4wZ8">',
    ['Ec12"Xm2vL9pT4wZ8', 'Ec12&#34;Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD=\'Ec14"Xm2vL9pT4wZ8\'\nWrite-Host "Ec14`"Xm2vL9pT4wZ8"',
    ['Ec14"Xm2vL9pT4wZ8', 'Ec14`"Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD=\'Ec15`Xm2vL9pT4wZ8\'\nWrite-Host "Ec15``Xm2vL9pT4wZ8"',
    ['Ec15`Xm2vL9pT4wZ8', 'Ec15``Xm2vL9pT4wZ8'],
  ],
  [
    "DB_PASSWORD='Ec18/Xm2vL9pT4wZ8'\n?p=Ec18%2fXm2vL9pT4wZ8",
    ['Ec18/Xm2vL9pT4wZ8', 'Ec18%2fXm2vL9pT4wZ8'],
  ],
  [
    "DB_PASSWORD='Ec19@Xm2vL9pT4wZ8'\n?next=%3Fp%3DEc19%2540Xm2vL9pT4wZ8",
    ['Ec19@Xm2vL9pT4wZ8', 'Ec19%2540Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD=\'Ec22&Xm2vL9pT4wZ8\'\n{"p":"Ec22\\u0026Xm2vL9pT4wZ8"}',
    ['Ec22&Xm2vL9pT4wZ8', 'Ec22\\u0026Xm2vL9pT4wZ8'],
  ],
  [
    'DB_PASSWORD="Ec23\'Xm2vL9pT4wZ8"\n<pw>Ec23&apos;Xm2vL9pT4wZ8</pw>',
    ["Ec23'Xm2vL9pT4wZ8", 'Ec23&apos;Xm2vL9pT4wZ8'],
  ],
];

/** Grafana's legacy API key, built here (no token-shaped literal in the source). */
const grafanaKey = (k: string, name: string) =>
  Buffer.from(`{"k":"${k}","n":"${name}","id":1}`).toString('base64');
const GRAFANA = grafanaKey('T0dWbWxaWkpRc1d1ZU5tdTlpd1NYZ0Rv', 'admin-key');
const SIGV4 = 'ab12'.repeat(16);
const TOKENS: [string, string, string][] = [
  [`curl -H "Authorization: Bearer ${GRAFANA}" http://grafana:3000/api`, GRAFANA, 'grafana-token'],
  [`GRAFANA_KEY=${GRAFANA}`, GRAFANA, 'grafana-token'],
  [
    `Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=${SIGV4}`,
    SIGV4,
    'url-signature',
  ],
];

/** Near misses: code, references, commands; clear in every form. */
const CLEAR = [
  'DB_PASSWORD=getenv(',
  'DB_PASSWORD=getSecretValue1(',
  'DB_PASSWORD=os.getenv(',
  'password: Field(',
  'Password: Enter your password (8+ chars)',
  'api-key: ${API_KEY}',
  'export FOO=1 BAR=2',
  'sudo DB_PASSWORD=$(cat file1) ./app',
  'echo DB_PASSWORD=Ab(cd1',
  'x.password = compute(arg1)',
  'set -x PATH (pwd)/bin',
  'set -gx API_TOKEN (cat ~/.token)',
  'set -x API_TOKEN abc(def)',
  'user@host:~$ export API_TOKEN=abc(def',
  'helm install x --set image.tag=v1(2)',
  'fly secrets list',
  '{password: hash(pw1)}',
  'setenv PATH /usr/bin',
  'setenv DB_PASSWORD $DB_PASS',
  'fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;',
  'ARG NPM_TOKEN',
  'ARG NPM_TOKEN=${NPM_TOKEN}',
  'printenv DB_PASSWORD Xm2vL9pT4wZ8x',
  'env DB_PASSWORD changeme',
  'mysql -u root -p Rq32Xm2vL9pT4wZ8',
  'jwt.sign(payload, secret)',
  "jwt.sign(payload, 'changeme')",
  'jwt.verify(token, key)',
  'admin_key: true',
  'adminKey = req.query.key',
  'salt = bcrypt.gensalt()',
  'password_salt_rounds=12',
  `view?r=${Buffer.from('{"k":"0f8b6c1e-2a3d-4e5f-8a9b-0c1d2e3f4a5b","t":"72f988bf-86f1-41af-91ab-2d7cd011db47","c":5}').toString('base64')}&pageName=Report`,
  'a, key=value1',
  '<input value="Ec06&#X26;Xm2vL9pT4wZ8">',
  'see %2fusr%2540host and &#X26;&#038;&#x0026;',
  '{"otp": "123456"}',
  'otp: v1.2.3',
  '{"otp_length": 6}',
  'OTP: 12',
  '{"otpEnabled": true}',
  '| a | b |\n|:--|:--|\n| c | d |',
  'The password for the admin account is stored in vault.',
  'Use password authentication for ssh2 hosts',
  'I set the password to expire in 90 days',
  '### Admin password\n\nUse the reset link.',
  '### Admin password\n\n- rotate monthly2024',
  '## Password\n\nSee docs/auth2.md',
  'user admin pass the test',
  'the password to db2 is secret',
  '**Token:** Float32_LE',
  'use password-based auth',
  'with password hashing via bcrypt2',
  'const o = {password: getPassword(user1), id};',
];

describe.each([
  ['shell and CLI setters with a punctuated value', SETTERS],
  ['YAML, INI and properties keys with a punctuated value', CONFIG],
  ['NAME VALUE setters (Dockerfile env and ARG, setenv, SetEnv, fastcgi_param)', SPACED],
  ['jwt.sign secrets, admin keys, salts', CODE],
  ['prose, headings, tables and one-time codes', PROSE],
])('review 26: %s', (_title, table) => {
  it.each(table)('masks %j in every form', (t, v) => {
    expect(forms(t)).toEqual(maskedAll(t, [v]));
  });
});

describe('review 26: echoes in other encodings (HTML references, PowerShell, URL, JSON)', () => {
  it.each(ECHOES)('masks %j in every form', (t, vs) => {
    expect(forms(t)).toEqual(maskedAll(t, vs));
  });
});

describe('review 26: Grafana legacy API keys, a SigV4 Authorization header signature', () => {
  it('builds a Grafana key of base64 letters and digits', () => {
    expect(GRAFANA).toMatch(/^eyJrIjoi[A-Za-z0-9]{70,}={0,3}$/);
  });

  it.each(TOKENS)('masks %j in every form', (t, v, kind) => {
    const decoded = t.replace(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request',
      '[REDACTED:bearer] Credential=[REDACTED:password]',
    );
    if (decoded === t) expect(forms(t)).toEqual(maskedAll(t, [v], kind));
    else {
      // The header's other values are masked too: the signature is in no form.
      expect(forms(t)[0]).toBe(decoded.replace(v, `[REDACTED:${kind}]`));
      for (const f of forms(t)) expect(f).not.toContain(v.slice(0, 16));
    }
  });
});

describe('review 26: near misses', () => {
  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });
});
