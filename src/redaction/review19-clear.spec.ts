import { Redactor } from './redactor';

/**
 * Review r19's false positives and the near misses of review19-config's shapes: none is a
 * secret, each stays exactly as written in all four forms served (the decoded text, the text
 * in a JSON transcript line, that line's bytes masked in place, JSON inside JSON).
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
const nested = (t: string): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });

const VAULT =
  'password: !vault |\n' +
  '  $ANSIBLE_VAULT;1.1;AES256\n' +
  '  62313365396662343061393464336163383764373764613633653634306231386433626436623361\n' +
  '  6134333665353966363534333632666535333761666131620a663537646436643839616531643561';

/** Masked (in part) before r19. */
const FIXED: string[] = [
  // a form's label then its message, in the label's language
  'Passwort: Falsches Passwort',
  'Mot de passe : Oublié ?',
  'Пароль: Введите пароль',
  '密码：请输入密码',
  'Contraseña: Olvidé mi contraseña',
  // Ansible Vault: the tag and the ciphertext below it
  VAULT,
  'db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3938',
  'password: !Ref DbPassword',
  // a URL-encoded path, not a key=value
  '?next=%2Fsettings%2Fpassword%3Dchange',
  'https://app.example.com/login?next=%2Fsettings%2Fpassword%3Dchange&lang=en',
  // where the password is kept
  'password: see 1Password',
  'Password: stored in 1Password',
  'password: kept in Bitwarden',
  'password=@@DB_PASSWORD@@',
];

/** Clear before r19 too: the review's other placeholders, and the near misses of the shapes. */
const GUARDS: string[] = [
  // placeholders (review r19's list)
  'password = %(password)s',
  "password: #{ENV['DB_PASSWORD']}",
  'password: ${{ secrets.DB_PASSWORD }}',
  'password: {{ vault_db_password }}',
  // a sentence starting with an article
  'Password: The password you chose is too short',
  'Password: The field is required',
  // near misses of review19-config's shapes
  '<property name="url">\n  <value>jdbc:mysql://db/app</value>\n</property>',
  '<password>\n  <description>x</description>\n</password>',
  '<env name="APP_ENV" value="testing"/>',
  '<server name="REQUEST_METHOD" value="GET"/>',
  '{"key": "username", "value": "bob"}',
  '{"key": "Content-Type", "value": "application/json"}',
  '{"key": "password", "value": "{{password}}"}',
  'aws cloudformation deploy --parameters ParameterKey=Env,ParameterValue=prod',
  '&lt;b&gt;Password&lt;/b&gt;: use the form below',
  '&lt;password&gt;&lt;/password&gt;',
  'variable "region" {\n  default = "us-east-1"\n}',
  'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
  'result = (\n    "hello world"\n)',
  'message = """Hello there"""',
  'password = """\n"""',
  '"username"\n: "bob"',
  '"password"\n: null',
];

const unchanged = (input: string): void => {
  expect(r.redactText(input)).toBe(input);
  expect(r.redactText(line(input))).toBe(line(input));
  const bytes = Buffer.from(line(input));
  r.maskUtf8(bytes);
  expect(bytes.toString()).toBe(line(input));
  expect(r.redactText(nested(input))).toBe(nested(input));
};

describe('review r19 false positives stay clear', () => {
  it.each(FIXED)('leaves %j unchanged in all four forms', unchanged);
});

describe('review r19 near misses stay clear', () => {
  it.each(GUARDS)('leaves %j unchanged in all four forms', unchanged);
});
