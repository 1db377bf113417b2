import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Shapes review 22's rules still served clear (each with a secret V, on every route):
 *
 * 1. A colon-form value glued to `<`, `>` and `&`: `password: Ab<c>d&e…` (YAML) was read as
 *    the generic type `Ab<c>` (`password: Option<String>`) and left whole; the `=` form and the
 *    quoted JSON form were masked.
 * 2. Setters and builders taking a user and a password: `client.setCredentials("bob", "V")`,
 *    `.withCredentials("bob", "V")`, `setBasicAuth("bob", "V")`, `withBasicAuth("bob", "V")`
 *    (a setter named for a secret looked for one argument only and gave up; the JSON line was
 *    masked by another rule, decoded text not), `new UsernamePasswordCredentials("bob", "V")`,
 *    `new BasicAWSCredentials("AKIA…", "V")`. Only the password: the user stays.
 * 3. C's `#define` of a whole secret word or a lower-case name: `#define TOKEN "V"`,
 *    `#define SECRET "V"`, `#define api_key "V"`, `#define wifi_password "V"` (review 22's rule
 *    was anchored on an upper-case name's `_`; review22-calls listed `#define api_key "V"` as
 *    clear, and it is a secret). A value equal to its name (`#define TOKEN "TOKEN"`) stays, as
 *    `TOKEN="TOKEN"` does; a name that is no secret's (`API_KEY_HEADER`, `TOKEN_MAX`) too.
 * 4. `schtasks … /RP V`, `/Rp V`, `/rP V`: review 22 read the run-as password after a
 *    lower-case `/rp` only (Windows' options are any case).
 * 5. URLs: a password with a raw `#` before `@host` (`postgres://bob:Zq8#mW2@db/app`, read as a
 *    fragment); a URL's `key` parameter holding a base64 key written into the URL
 *    (`?key=ab%2Bcd%2Fef12GH34`, `?key=…+…/…==`), masked to the `&`, blank or quote (`?api_key=`
 *    masked it already). `https://bob:V/path` stays: no `@host`, a port's place.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, masked, line, nested } = fourForms();

const V = 'Zq8#mW2!pL9v';
const G = 'Ab<c>d&e9Xq';
const W = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY';
const W2 = 'PuVvKr2lMxtC6uQ38IKBF98x';
const E = 'Zq8mW2pL9vXk3%2BRt%2FYh7Nb%3D%3D';

/** [input, the secret in it, the mask's kind]: each was clear in every form on main. */
const MASKED: [string, string, string][] = [
  // 1. Colon-form values glued to < > &.
  [`password: ${G}`, G, 'password'],
  [`  db_password: ${G}`, G, 'password'],
  [`PASSWORD: ${G}`, G, 'password'],
  [`password: ${G} # prod`, G, 'password'],
  ['password: Ab<c>d&eBGmkcnnk39va3', 'Ab<c>d&eBGmkcnnk39va3', 'password'],
  ['password: Ab<cd9Xq', 'Ab<cd9Xq', 'password'],
  // 2. Setters, builders and constructors taking a user and a password.
  [`client.setCredentials("bob", "${V}")`, V, 'password'],
  [`client.setCredentials(user, "${V}")`, V, 'password'],
  [`.withCredentials("bob", "${V}")`, V, 'password'],
  [`setBasicAuth("bob", "${V}")`, V, 'password'],
  [`req.withBasicAuth('bob', '${V}')`, V, 'password'],
  [`new UsernamePasswordCredentials("bob", "${V}")`, V, 'password'],
  [`new UsernamePasswordCredentials("bob", "${V}".toCharArray())`, V, 'password'],
  [
    `provider.setCredentials(AuthScope.ANY, new UsernamePasswordCredentials("bob", "${V}"));`,
    V,
    'password',
  ],
  [`new BasicAWSCredentials(accessKeyId, "${W}")`, W, 'password'],
  // 3. #define of a secret word or a lower-case name.
  [`#define TOKEN "${V}"`, V, 'password'],
  [`#define SECRET "${V}"`, V, 'password'],
  [`#define PASS "${W}"`, W, 'password'],
  [`#define api_key "${V}"`, V, 'password'],
  [`#define wifi_password "${V}"`, V, 'password'],
  [`#  define github_token "${W}"`, W, 'password'],
  // 4. schtasks' run-as password, any case.
  [`schtasks /create /tn job /tr run.bat /ru admin /RP ${V}`, V, 'password'],
  [`schtasks /create /tn job /tr run.bat /ru admin /Rp ${V}`, V, 'password'],
  [`schtasks /create /tn job /tr run.bat /ru admin /rP ${V}`, V, 'password'],
  [`SCHTASKS /Create /TN job /TR run.bat /RU admin /RP "${V}" /F`, V, 'password'],
  // 5. URLs.
  [`https://bob:${V}@host/path`, V, 'url-credentials'],
  [`postgres://bob:${V}@db:5432/app`, V, 'url-credentials'],
  ['https://bob:Zq8!mW2#pL9v@host/path', 'Zq8!mW2#pL9v', 'url-credentials'],
  ['https://x.com/a?key=ab%2Bcd%2Fef12GH34&y=2', 'ab%2Bcd%2Fef12GH34', 'password'],
  ['GET /a?key=ab%2Bcd%2Fef12GH34 HTTP/1.1', 'ab%2Bcd%2Fef12GH34', 'password'],
  [`curl "https://x.com/a?key=${E}"`, E, 'password'],
  ['https://x.com/a?key=Zq8mW2pL9vXk3+Rt/Yh7Nb==&y=2', 'Zq8mW2pL9vXk3+Rt/Yh7Nb==', 'password'],
];

/** Masked on main already (kept so). */
const KEPT: [string, string, string][] = [
  [`"password": "${G}"`, G, 'password'],
  [`password: "${G}"`, G, 'password'],
  [`DB_PASSWORD=${G}`, G, 'password'],
  [`password: ${V}`, V, 'password'],
  [`auth.login("bob", "${V}")`, V, 'password'],
  [`PasswordAuthentication("bob", "${V}".toCharArray())`, V, 'password'],
  [`requests.get(url, auth=("bob", "${V}"))`, V, 'password'],
  [`HTTPBasicAuth("bob", "${V}")`, V, 'password'],
  [`curl -u bob:${V} https://x`, V, 'password'],
  [`#define PASSWORD "${V}"`, V, 'password'],
  [`#define API_KEY "${V}"`, V, 'password'],
  [`#define SECRET_KEY "${W}"`, W, 'password'],
  [`schtasks /create /tn job /tr run.bat /ru admin /rp ${V}`, V, 'password'],
  [`https://bob:${W2}@host/path`, W2, 'url-credentials'],
  ['https://bob:Zq8%23mW2pL9v@host/path', 'Zq8%23mW2pL9v', 'url-credentials'],
  ['https://x.com/a?api_key=ab%2Bcd%2Fef12GH34&x=1', 'ab%2Bcd%2Fef12GH34', 'password'],
  ['https://x.com/a?x=1&token=ab+cd/ef12GH34&y=2', 'ab+cd/ef12GH34', 'password'],
  ['https://x.com/a?access_token=ab%2Bcd%2Fef12GH34&y=2', 'ab%2Bcd%2Fef12GH34', 'password'],
  [
    'https://x.com/a?key=AIzaSyA1234567890abcdefghijklmnopqrs&cb=x',
    'AIzaSyA1234567890abcdefghijklmnopqrs',
    'password',
  ],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'let password: Option<String> = None;',
  'password: Option<String>,',
  'pub password: Option<Secret<String>>,',
  "password: Option<&'a str>,",
  'password: Vec<u8>',
  'password: Map<string, string>;',
  'password: Array<string>;',
  'password: Result<String,',
  'password: <your-password>',
  'password: Ab<c>',
  'client.setCredentials("bob", password)',
  'client.setCredentials(creds)',
  '.withCredentials(true)',
  'axios.get(url, { withCredentials: true })',
  'setBasicAuth("bob", "")',
  'setBasicAuth("bob", "changeme")',
  'setBasicAuth(user, System.getenv("PW"))',
  'new UsernamePasswordCredentials(user, pass)',
  `client.setApiKey("${V}", region)`,
  `getCredentials("bob", "${V}")`,
  '#define TOKEN_MAX 64',
  '#define PASSWORD_LEN 32',
  '#define TOKEN "TOKEN"',
  '#define TOKEN "token"',
  '#define PASSWORD "changeme"',
  '#define TOKEN ""',
  '#define SECRET "%s"',
  '#define API_KEY_HEADER "X-Api-Key"',
  '#define TOKEN_ENV "GITHUB_TOKEN"',
  '#define PASSWORD_PROMPT "Enter password: "',
  '#define SECRET_FILE "/etc/secret.txt"',
  '#define SSID "home-wifi"',
  `#define MY_KEY "${W}"`,
  `#define KEY "${W}"`,
  '# define the token',
  '#define TOKEN',
  'schtasks /create /ru bob /RP *',
  'schtasks /create /ru bob /RP %PW%',
  `rsync /RP ${W}`,
  'cd C:/RP foo',
  `https://bob:${W2}/path`,
  'https://bob:8443/path',
  'http://host:8080#to@x',
  'http://localhost:3000/#/login@x',
  'https://x.com/a?key=uploads/2024/photo1&y=2',
  'https://x.com/a?key=Folder/Sub2024/File&y=2',
  'https://x.com/a?key=abc%20def%20ghi12345',
  'https://x.com/a?key=report_2024_final_v2',
  'https://x.com/a?key=value',
];

describe('review 23: shapes review 22 left clear', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(KEPT)('still masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });
});
