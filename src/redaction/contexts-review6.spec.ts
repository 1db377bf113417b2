import { DIFFS, FORMS, markers } from './context-forms';
import { Redactor } from './redactor';

/**
 * The sixth outside review of issue 19: secrets its generators planted that no detector read
 * (wp-cli, mysqladmin, rclone, Gradle signing, a browser tool's JSON step, Terraform's sensitive
 * outputs). Each context in every form a transcript or a served file holds it: the command
 * line, the full tier's JSON argument, the compact tier's JSON text inside JSON, a file written
 * (`\n` escapes), replace_file_content's old and new text, view_file's `N: ` gutters, a diff's
 * added and removed lines. The exact output, and one finding per masked value (what the secrets
 * report counts). Values are made up.
 */

const V = 'Wq7hG2kLp9Zx4Rt8Vb3N';
const AKIA = ['AKIA', 'QWERTYUIOPASDFGH'].join('');

const CASES: [string, string, string][] = [
  // 1. wp-cli: `config set NAME VALUE` of any tool, the value of a secret-named setting.
  ['wp config set', `wp config set DB_PASSWORD ${V}`, 'wp config set DB_PASSWORD [R]'],
  [
    'wp config set, quoted',
    `wp config set DB_PASSWORD '${V}' --raw`,
    "wp config set DB_PASSWORD '[R]' --raw",
  ],
  [
    'wp config set, auth key',
    `wp config set SECURE_AUTH_KEY "${V}"`,
    'wp config set SECURE_AUTH_KEY "[R]"',
  ],
  [
    'wp user create',
    `wp user create bob b@x.io --user_pass=${V} --role=administrator`,
    'wp user create bob b@x.io --user_pass=[R] --role=administrator',
  ],
  // 2. mysqladmin sets the password given after `password`.
  ['mysqladmin', `mysqladmin -u root password ${V}`, 'mysqladmin -u root password [R]'],
  [
    'mysqladmin, quoted',
    `mysqladmin -u root -pOld12345 password '${V}'`,
    "mysqladmin -u root -p[R] password '[R]'",
  ],
  [
    'mysqladmin, double-quoted',
    `sudo mysqladmin --user=root password "${V}"`,
    'sudo mysqladmin --user=root password "[R]"',
  ],
  // 3. rclone's key value pairs.
  [
    'rclone s3',
    `rclone config create remote s3 access_key_id ${AKIA} secret_access_key ${V}`,
    'rclone config create remote s3 access_key_id [aws-access-key] secret_access_key [R]',
  ],
  [
    'rclone password',
    `rclone config update myremote password ${V}`,
    'rclone config update myremote password [R]',
  ],
  [
    'rclone client_secret',
    `rclone config create gd drive client_id x.apps client_secret ${V} scope drive`,
    'rclone config create gd drive client_id x.apps client_secret [R] scope drive',
  ],
  // 4. Gradle signing configs (Groovy without `=`; Kotlin DSL's `=` and gradle.properties).
  ['gradle storePassword', `        storePassword "${V}"`, '        storePassword "[R]"'],
  ['gradle keyPassword', `keyPassword '${V}'`, "keyPassword '[R]'"],
  ['gradle Kotlin DSL', `storePassword = "${V}"`, 'storePassword = "[R]"'],
  ['gradle.properties', `signing.password=${V}`, 'signing.password=[R]'],
  // 5. A browser tool's step as JSON, typing into a password field.
  [
    'browser fill',
    `{"action":"fill","selector":"#password","value":"${V}"}`,
    '{"action":"fill","selector":"#password","value":"[R]"}',
  ],
  [
    'browser fill, attribute selector',
    `{"action": "fill", "selector": "input[name=password]", "value": "${V}"}`,
    '{"action": "fill", "selector": "input[name=password]", "value": "[R]"}',
  ],
  [
    'browser input by ref',
    `{"type":"input","ref":"e12-password","text":"${V}"}`,
    '{"type":"input","ref":"e12-password","text":"[R]"}',
  ],
  // 6. Terraform's sensitive outputs, in plain text, compact or pretty-printed.
  [
    'terraform output -json',
    `{"db_password":{"sensitive":true,"type":"string","value":"${V}"}}`,
    '{"db_password":{"sensitive":true,"type":"string","value":"[R]"}}',
  ],
  [
    'terraform state',
    `"outputs": {"conn": {"value": "${V}", "type": "string", "sensitive": true}}`,
    '"outputs": {"conn": {"value": "[R]", "type": "string", "sensitive": true}}',
  ],
  [
    'terraform pretty',
    `{\n  "db_conn": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${V}"\n  }\n}`,
    '{\n  "db_conn": {\n    "sensitive": true,\n    "type": "string",\n    "value": "[R]"\n  }\n}',
  ],
  // 7. Other leaks of the review's list: lftp's user,password and a cookie jar shown by `cat -A`.
  ['lftp', `lftp -u deploy,${V} sftp://files.corp`, 'lftp -u deploy,[R] sftp://files.corp'],
  [
    'cat -A cookie jar',
    `.corp.com^ITRUE^I/^ITRUE^I0^Isid^I${V}$`,
    '.corp.com^ITRUE^I/^ITRUE^I0^Isid^I[REDACTED:cookie]$',
  ],
];

const expand = (s: string) =>
  s
    .replace(/\[R\]/g, '[REDACTED:password]')
    .replace(/\[aws-access-key\]/g, '[REDACTED:aws-access-key]');

describe('review 6: contexts in every form, masked exactly and counted once each', () => {
  const kinds: string[] = [];
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
  const rows = CASES.flatMap(([name, input, expected]) => [
    ...Object.entries(FORMS)
      // A cookie jar line is read where a line starts: `cat -A` prints it as output, and a
      // command line holding only it (no line break, no escape) is not one.
      .filter(([form]) => !(name === 'cat -A cookie jar' && form === 'full'))
      .map(([form, f]) => [`${name} (${form})`, f, input, expected, false] as const),
    ...Object.entries(DIFFS).map(
      ([form, f]) => [`${name} (diff ${form})`, f, input, expected, true] as const,
    ),
  ]);
  it.each(rows)('%s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expand(expected));
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    // The secrets report counts what is masked: one finding per value, of its kind.
    expect(kinds.length).toBe(markers(want));
    expect([...kinds].sort()).toEqual(
      [...want.matchAll(/\[REDACTED:([\w-]+)\]/g)].map((m) => m[1]).sort(),
    );
  });
});

describe('review 6: what stays (no secret, or a reference)', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });
  it.each([
    'wp config set WP_DEBUG true --raw',
    'wp config set DB_PASSWORD "$DB_PASSWORD"',
    'npm config set fetch_retries 5',
    'mysqladmin -u root -p status',
    'mysqladmin -u root password "$NEW_PW"',
    'the password field is required',
    'rclone config create remote s3 provider AWS env_auth true',
    'rclone config update myremote password $RCLONE_PW',
    'storePassword System.getenv("STORE_PASSWORD")',
    'keyPassword keystoreProperties["keyPassword"]',
    'storePassword = "$storePw"',
    '{"action":"fill","selector":"#username","value":"alice@example.com"}',
    '{"action":"click","selector":"#bypass-cache","value":"on"}',
    '{"type":"input","ref":"e7-passenger-name","text":"Ada Lovelace"}',
    '{"db_host":{"sensitive":false,"type":"string","value":"db.internal.example"}}',
    '{"name": "REGION", "value": "westeurope-production-cluster"}',
  ])('%s', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});

describe('review 6: the same steps as parsed arguments (the full tier, GraphQL)', () => {
  it('masks the typed value of a password field and the value of a sensitive output', () => {
    const kinds: string[] = [];
    const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
    const args = {
      steps: [
        { action: 'fill', selector: '#password', value: V },
        { action: 'fill', selector: '#username', value: 'alice@example.com' },
        { type: 'input', ref: 'e12-password', text: V },
      ],
      outputs: {
        db_conn: { sensitive: true, type: 'string', value: V },
        db_host: { sensitive: false, type: 'string', value: 'db.internal.example' },
      },
    };
    expect(r.redactJson(args)).toEqual({
      steps: [
        { action: 'fill', selector: '#password', value: '[REDACTED:password]' },
        { action: 'fill', selector: '#username', value: 'alice@example.com' },
        { type: 'input', ref: 'e12-password', text: '[REDACTED:password]' },
      ],
      outputs: {
        db_conn: { sensitive: true, type: 'string', value: '[REDACTED:password]' },
        db_host: { sensitive: false, type: 'string', value: 'db.internal.example' },
      },
    });
    expect(kinds).toEqual(['password', 'password', 'password']);
  });
});
