import { Redactor } from './redactor';

/**
 * Review r19 (outside review r17, M3): config shapes whose secret was served clear on every
 * route. Each template's `{V}` is the secret; it is masked whole, with the same mask, in the
 * four forms served: the decoded text (GraphQL, REST, exports, the CLI), the text inside a
 * JSON transcript line, that line's raw bytes masked in place (the file download route: the
 * mask cut to the value's length), and JSON inside JSON (a compact tool argument).
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9Vq7Hunter2';
const P = '[REDACTED:password]';
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
const nested = (t: string): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });
const fill = (t: string, v: string): string => t.split('{V}').join(v);

const TEMPLATES: string[] = [
  // XML: the value in a `<value>` child, on the next line or the same one
  '<password>\n  <value>{V}</value>\n</password>',
  '<password><value>{V}</value></password>',
  '<property name="password">\n    <value>{V}</value>\n</property>',
  '<property name="password"><value>{V}</value></property>',
  '<property name="db.password">\n  <value>{V}</value>\n</property>',
  // phpunit.xml, Symfony parameters
  '<env name="DB_PASSWORD" value="{V}"/>',
  '<server name="API_KEY" value="{V}"/>',
  '<php>\n  <env name="DB_PASSWORD" value="{V}" force="true"/>\n</php>',
  // Postman / HTTPie / Insomnia key-value objects
  '{"key": "password", "value": "{V}"}',
  '{"key": "password", "type": "text", "value": "{V}"}',
  '{"value": "{V}", "key": "password"}',
  '{"value": "{V}", "type": "text", "key": "api_key"}',
  '{\n  "key": "client_secret",\n  "value": "{V}",\n  "type": "text"\n}',
  // AWS CLI shorthand parameters
  'aws cloudformation create-stack --parameters ParameterKey=DbPassword,ParameterValue={V}',
  'aws cloudformation deploy --parameters ParameterKey=Env,ParameterValue=prod ' +
    'ParameterKey=DbPassword,ParameterValue={V} ParameterKey=ApiKey,ParameterValue={V}',
  'aws cloudformation update-stack --parameters ParameterKey=DbPassword,ParameterValue="{V}"',
  // XML shown HTML-escaped
  '&lt;password&gt;{V}&lt;/password&gt;',
  '&lt;db.password&gt;{V}&lt;/db.password&gt;',
  // Terraform variable defaults
  'variable "db_password" {\n  default = "{V}"\n}',
  'variable "db_password" {\n  type = string\n  default = "{V}"\n}',
  'variable "api_key" {\n  type      = string\n  sensitive = true\n  default   = "{V}"\n}',
  // black-wrapped Python
  'API_KEY = (\n    "{V}"\n)',
  'DB_PASSWORD = (\n    "{V}"\n)',
  // triple quotes
  'password = """{V}"""',
  'password = """\n{V}\n"""',
  "password = '''{V}'''",
  "password = '''\n{V}\n'''",
  'API_KEY = """{V}"""',
  // a string prefix, which was read as the value
  'password = r"""{V}"""',
  "API_KEY = b'''{V}'''",
  'password = rb"""\n{V}\n"""',
  // JSON with the colon on the next line
  '"password"\n: "{V}"',
  '"password"\n  :\n  "{V}"',
  '{\n  "password"\n    : "{V}",\n  "user": "bob"\n}',
];

const rows: [string, string, string, string][] = TEMPLATES.map((t) => [
  t,
  fill(t, V),
  fill(t, P),
  V,
]);

/** Listed by the review, already masked before r19 (kept so). */
const ALREADY = ['<parameter name="db.password" value="{V}"/>'].map(
  (t) => [t, fill(t, V), fill(t, P), V] as const,
);

describe('config shapes whose secret was served clear (review r19)', () => {
  it.each(rows)('masks %j in all four forms', (_t, input, want, value) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    const bytes = Buffer.from(line(input));
    r.maskUtf8(bytes);
    expect(bytes.toString()).toBe(line(input).split(value).join(P.slice(0, value.length)));
    expect(r.redactText(nested(input))).toBe(nested(want));
  });
});

describe('config shapes already masked before review r19', () => {
  it.each(ALREADY)('masks %j in all four forms', (_t, input, want, value) => {
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    const bytes = Buffer.from(line(input));
    r.maskUtf8(bytes);
    expect(bytes.toString()).toBe(line(input).split(value).join(P.slice(0, value.length)));
    expect(r.redactText(nested(input))).toBe(nested(want));
  });
});
