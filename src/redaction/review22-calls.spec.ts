import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 21, served clear on every route (each with a 24-character value V):
 *
 * 1. Setter and builder calls named for the secret, one string literal argument:
 *    `config.setPassword("V")` (HikariCP, JDBC), `.username("app").password("V")`,
 *    `.withPassword("V")`, `client.setApiKey("V")`, `api.setToken("V")`,
 *    `github.NewClient(nil).WithAuthToken("V")`.
 *
 * 2. C and Arduino: `#define API_KEY "V"`, `#define GITHUB_TOKEN "V"`, `#define SECRET_KEY "V"`
 *    (`#define DB_PASSWORD "V"` was masked, as sqlPasswordUpper's `PASSWORD "…"`), `char pass[]
 *    = "V";`, `WiFi.begin("home", "V")`.
 * 3. `schtasks /create … /ru bob /rp V`: the run-as password.
 * 4. A bare .env-style value read only up to a glued `<`, `>` or `&`: `DB_PASSWORD=Ab<c>d&e…`
 *    was served `DB_PASSWORD=[REDACTED:password]<c>d&e…` (quoted, it was masked whole).
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, masked } = fourForms();

const V = 'PuVvKr2lMxtC6uQ38IKBF98x';

/** [input, the secret in it, the mask's kind]: each was clear in every form on main. */
const MASKED: [string, string, string][] = [
  // 1. Setters and builders.
  [`config.setPassword("${V}");`, V, 'password'],
  [`.username("app").password("${V}")`, V, 'password'],
  [`.withPassword("${V}")`, V, 'password'],
  [`client.setApiKey("${V}");`, V, 'password'],
  [`api.setToken("${V}")`, V, 'password'],
  [`github.NewClient(nil).WithAuthToken("${V}")`, V, 'password'],
  [`ds.setPassword('${V}')`, V, 'password'],
  [`builder.setClientSecret( "${V}" )`, V, 'password'],
  // 2. C and Arduino sources.
  [`#define API_KEY "${V}"`, V, 'password'],
  [`#define GITHUB_TOKEN "${V}"`, V, 'password'],
  [`#define SECRET_KEY "${V}"`, V, 'password'],
  [`#define MY_API_KEY "${V}"`, V, 'password'],
  [`char pass[] = "${V}";`, V, 'password'],
  [`const char password[64] = "${V}";`, V, 'password'],
  [`WiFi.begin("home", "${V}");`, V, 'password'],
  [`WiFi.begin(ssid, "${V}");`, V, 'password'],
  // 3. schtasks' run-as password.
  [`schtasks /create /tn x /tr y /ru bob /rp ${V}`, V, 'password'],
  [`schtasks /create /tn x /tr y /ru bob /rp "${V}" /f`, V, 'password'],
  // 4. A bare value glued to `<`, `>` or `&`: masked whole.
  ['DB_PASSWORD=Ab<c>d&eBGmkcnnk39va3', 'Ab<c>d&eBGmkcnnk39va3', 'password'],
  ['export DB_PASSWORD=Ab<c>d&eBGmkcnnk39va3 && make', 'Ab<c>d&eBGmkcnnk39va3', 'password'],
  [`DB_PASSWORD=${V}<c1`, `${V}<c1`, 'password'],
];

/** Masked on main already (kept so): a shell operator after a blank stays clear. */
const KEPT: [string, string, string][] = [
  [`DB_PASSWORD=${V} && cmd`, V, 'password'],
  [`DB_PASSWORD=${V} >out.txt`, V, 'password'],
  [`DB_PASSWORD=${V} <in`, V, 'password'],
  [`DB_PASSWORD=${V} & echo`, V, 'password'],
  [`DB_PASSWORD=${V}&`, V, 'password'],
  [`#define DB_PASSWORD "${V}"`, V, 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'config.setPassword(password);',
  'setToken(token)',
  'api.setToken(cfg.token)',
  'config.setPassword("");',
  'config.setPassword("changeme");',
  `resetPassword("${V}")`,
  `config.setPasswordFile("${V}")`,
  `cache.key("${V}")`,
  `client.setApiKey("${V}", region)`,
  `.withPassword(System.getenv("DB_PASSWORD"))`,
  `setTokenizer("${V}")`,
  '#define API_KEY_LEN 32',
  '#define TOKEN_HEADER "Authorization"',
  `#define MY_KEY "${V}"`,
  'char pass[] = "";',
  `char buf[] = "${V}";`,
  'WiFi.begin(ssid, password)',
  'WiFi.begin("home", "changeme")',
  'schtasks /ru SYSTEM',
  'schtasks /create /tn x /tr y /ru bob /rp *',
  'schtasks /create /ru bob /rp %PW%',
  `rsync /rp ${V}`,
  'x=1 && y=2',
  'A=b >out.txt',
  'A=b <in',
  'A=b&',
  'x=1<2',
];

describe('review 22: setter calls, C constants, schtasks, glued .env values', () => {
  it.each(MASKED)('masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(KEPT)('still masks %j in all four forms', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (t) => {
    const { line, nested } = fourForms();
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });
});
