import { marker } from './redactor';
import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 20, name/value pairs and URLs served clear (this stop's review 21 list):
 *
 * 1. AWS tag and SSM-like pairs with a capitalised `Key` (`{"Key": "DB_PASSWORD", "Value":
 *    "…"}`), Python-quoted name/value lists (`[{'name': 'API_TOKEN', 'value': '…'}]`, as a
 *    script or boto3 prints them), session cookies without a `domain` member (`{"name":
 *    "sessionid", "value": "…"}`, value first or not), an API key as a URL's `key` parameter
 *    (`?key=V`, `&key=V`): clear in every form.
 * 2. A URL's userinfo ending its line or string with no `@host` after it (`git clone
 *    https://bob:V` then a line break or a closing quote): masked when a text ended there or
 *    the compact tier's cut followed, clear inside a JSON line and its bytes.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument); and, for a JSON object, its
 * parsed value (Redactor.redactJson: the arguments GraphQL serves).
 */

const { r, line, nested, forms, masked } = fourForms();

const V = 'Xk9vQ2mLp7Rt';
const S = 'Zq8Tr0ub4dorQw';
const K = 'Xk9vQ2mLp7Rt4wZ8';

/** [input, the secret in it, the mask's kind]: each was clear in at least one form on main. */
const MASKED: [string, string, string][] = [
  // 1. Capitalised Key/Value pairs.
  [`{"Key":"password","Value":"${V}"}`, V, 'password'],
  [`{"Key":"DB_PASSWORD","Value":"${V}"}`, V, 'password'],
  [`[{"Key":"Env","Value":"prod"},{"Key":"DB_PASSWORD","Value":"${V}"}]`, V, 'password'],
  [`{"Value":"${V}","Key":"API_TOKEN"}`, V, 'password'],
  [`{\n  "Key": "DB_PASSWORD",\n  "Value": "${V}"\n}`, V, 'password'],
  [`Tags:\n  - Key: DB_PASSWORD\n    Value: ${V}`, V, 'password'],
  // 1. Python-quoted name/value lists.
  [`[{'name': 'API_TOKEN', 'value': '${V}4w'}]`, `${V}4w`, 'password'],
  [`{'Name': 'DB_PASSWORD', 'Value': '${V}4w'}`, `${V}4w`, 'password'],
  [`{'value': '${V}4w', 'name': 'API_TOKEN'}`, `${V}4w`, 'password'],
  [`{'Key': 'DB_PASSWORD', 'Value': '${V}4w'}`, `${V}4w`, 'password'],
  [`env=[{'name': 'GITHUB_TOKEN', 'value': '${V}4w'}]`, `${V}4w`, 'password'],
  // 1. Session cookies without a domain.
  [`{"name":"sessionid","value":"${S}"}`, S, 'cookie'],
  [`{"value":"${S}","name":"sessionid"}`, S, 'cookie'],
  [`{"name":"connect.sid","value":"s%3A${S}.x1"}`, `s%3A${S}.x1`, 'cookie'],
  [`{"name":"PHPSESSID","value":"${S}"}`, S, 'cookie'],
  [`{"name":"JSESSIONID","value":"${S}","path":"/","httpOnly":true}`, S, 'cookie'],
  [`{"name":"__Secure-next-auth.session-token","value":"${S}"}`, S, 'cookie'],
  [`{"name":"laravel_session","value":"${S}"}`, S, 'cookie'],
  [`{"name":"auth_token","value":"${S}"}`, S, 'cookie'],
  [`{"cookies":[{"name":"sid","value":"${S}"}]}`, S, 'cookie'],
  // 1. An API key as a URL's `key` parameter.
  [`https://maps.x.com/api?key=${K}&q=1`, K, 'password'],
  [`curl "https://x.com/v1?q=1&key=${K}"`, K, 'password'],
  [`GET /v1/search?key=${K}`, K, 'password'],
  [
    `https://x.com/?key=3f2a1b4c5d6e7f8091a2b3c4d5e6f708`,
    '3f2a1b4c5d6e7f8091a2b3c4d5e6f708',
    'password',
  ],
  // 2. A URL's password ending its line or string.
  [`git clone https://bob:${V}`, V, 'password'],
  [`url='https://bob:${V}'`, V, 'password'],
  [`DATABASE_URL="postgres://app:${V}"`, V, 'password'],
  [`redis://:${V}`, V, 'password'],
  [`git clone https://bob:Summer2024`, 'Summer2024', 'password'],
];

/** Masked on main already (kept so): the review's other URL parameters, a cookie with a domain. */
const KEPT: [string, string, string][] = [
  [`{"value":"${S}","name":"sessionid","domain":".x.com"}`, S, 'cookie'],
  [`https://maps.x.com/api?api_key=${K}&q=1`, K, 'password'],
  [`https://maps.x.com/api?q=1&access_token=${K}`, K, 'password'],
  [`https://maps.x.com/api?q=1&client_secret=${K}`, K, 'password'],
  [`https://maps.x.com/api?token=${K}`, K, 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  '[{"Key":"Name","Value":"web-1"},{"Key":"Env","Value":"prod"}]',
  '{"Key":"DB_PASSWORD","Value":"changeme"}',
  '{"Key":"PASSWORD_AUTH","Value":"enabled"}',
  "[{'name': 'REGION', 'value': 'eu-west-1'}]",
  "{'name': 'API_TOKEN', 'value': '${API_TOKEN}'}",
  "{'name': 'username', 'value': 'bob'}",
  "print({'value': 42, 'name': 'count'})",
  '{"name":"theme","value":"dark"}',
  '{"name":"lang","value":"en-US"}',
  '{"name":"session","value":"morning"}',
  '{"name":"session","value":"2"}',
  '{"name":"sessionid","value":"abc"}',
  '{"name":"session_timeout","value":"3600"}',
  `{"name":"sessionid","type":"A","value":"${S}"}`,
  'https://maps.x.com/api?key=value',
  'https://x.com/?key=1',
  'https://x.com/?key=name',
  'https://x.com/?key=abcdefghijklmnopqrst',
  'https://x.com/cache?key=report_2024_final_v2',
  'https://x.com/cache?key=MyComponent2Props1',
  'https://x.com/?key=uploads/2024/photo-abc123.jpg',
  `https://x.com/?monkey=${K}`,
  'https://host:8080',
  'http://localhost:3000',
  'see http://host:PORT_NAME',
  'mongodb://h1:27017,h2:27017',
  'http://[::1]:8080',
  'url = "https://bob:${PASSWORD}"',
  'jdbc:mysql://db:3306',
  'see https://api.example.com:443',
  'skopeo copy docker://node:18-alpine3.19 oci:x',
];

describe('review 21: name/value pairs, session cookies, key parameters, URL passwords', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(KEPT)('still masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  /** The JSON cases, parsed: what GraphQL serves of a tool call's arguments. */
  const objects = [...MASKED, ...KEPT].filter(([t]) => /^[[{]"/.test(t.replace(/\s/g, '')));

  it.each(objects)('masks %j parsed as the text path does', (t, v, kind) => {
    expect(r.redactJson(JSON.parse(t))).toEqual(JSON.parse(t.replace(v, marker(kind))));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });

  it('masks a URL password the same whether the compact cut follows it or not', () => {
    const full = `git clone https://bob:${V}\nnext`;
    const cut = `git clone https://bob:${V}\n<truncated 3026 bytes>\nnext`;
    const want = `git clone https://bob:${marker('password')}`;
    expect(r.redactText(full)).toBe(`${want}\nnext`);
    expect(r.redactText(cut)).toBe(`${want}\n<truncated 3026 bytes>\nnext`);
    expect(r.redactText(JSON.stringify({ a: full }))).toBe(JSON.stringify({ a: `${want}\nnext` }));
    expect(r.redactText(JSON.stringify({ a: cut }))).toBe(
      JSON.stringify({ a: `${want}\n<truncated 3026 bytes>\nnext` }),
    );
  });
});
