import { Redactor } from './redactor';

/**
 * Review r19 (outside review 17, M2/M4): secrets in common code shapes served clear or half
 * masked. M2: a string prefix or wrapper after a secret-named variable (`b'V'`, `L"V"`, `@"V"`:
 * the prefix letter was masked, the value left clear; `SecretStr("V")`, `String::from("V")`),
 * and a default after `??` or Ruby's `ENV["X"] ||`. M4: command lines and test code (`ngrok
 * authtoken V`, `mosquitto_pub -P V`, unquoted `ConvertTo-SecureString V`, `<(echo V)` as a
 * password file, a token as a URL's user, `new Sequelize(db, user, V)`, test code typing into a
 * password field), `passwortNeu`/`contraseñaNueva`, and Dockerfile's `ENV NAME value`. Each
 * input in the four forms the redactor serves: decoded, inside a JSON transcript line, that
 * line's bytes masked in place, and JSON inside JSON.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const V = 'Xk9Vq7Hunter2';
const P = '[REDACTED:password]';
const U = '[REDACTED:url-credentials]';
/** The text inside a JSON line, as review r17's probes write it. */
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
/** JSON inside JSON: a compact argument. */
const nested = (t: string): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });
/** The line's bytes masked in place: V overwritten by its mask, cut to V's length. */
const bytes = (t: string, mask: string): string =>
  line(t).split(V).join(mask.slice(0, V.length).padEnd(V.length, '*'));

/** [input with V, its mask]: expected decoded, the input with V replaced by the mask. */
const CASES: [string, string][] = [
  // M2: string prefixes and wrappers.
  [`password = b'${V}'`, P],
  [`password = r"${V}"`, P],
  [`wchar_t *password = L"${V}";`, P],
  [`password = f"${V}"`, P],
  [`var password = @"${V}";`, P],
  [`password = SecretStr("${V}")`, P],
  [`let password = String::from("${V}");`, P],
  // ... after a type annotation (the type name was masked, or nothing).
  [`password: SecretStr = "${V}"`, P],
  [`api_key: SecretStr = SecretStr("${V}")`, P],
  [`db_password: Optional[str] = "${V}"`, P],
  [`password: bytes = b"${V}"`, P],
  [`let password: String = String::from("${V}");`, P],
  // M2: a default after a lookup.
  [`password = ENV["DB_PASSWORD"] || "${V}"`, P],
  [`const password = process.env.DB_PASSWORD ?? "${V}"`, P],
  // M4: commands.
  [`ngrok authtoken ${V}`, P],
  [`mosquitto_pub -h host -u bob -P ${V} -t topic`, P],
  [`$p = ConvertTo-SecureString ${V} -AsPlainText -Force`, P],
  [`ansible-playbook site.yml --vault-password-file <(echo ${V})`, P],
  [`ansible-playbook site.yml --vault-password-file <(echo "${V}")`, P],
  [`git clone https://${V}@github.com/org/repo.git`, U],
  [`git clone https://x-access-token:${V}@github.com/org/repo.git`, U],
  // M4: code.
  [`const s = new Sequelize('app', 'root', '${V}')`, P],
  [`const s = new Sequelize('app', 'root', '${V}', { host })`, P],
  [`await page.fill("input[name=\\"password\\"]", "${V}")`, P],
  [`await userEvent.type(screen.getByLabelText(/password/i), '${V}')`, P],
  [`await userEvent.type(passwordInput, '${V}')`, P],
  [`fireEvent.change(passwordInput, { target: { value: '${V}' } })`, P],
  // M4: compound names in other languages.
  [`passwortNeu = "${V}"`, P],
  [`contraseñaNueva = "${V}"`, P],
  // M4: Dockerfile's legacy ENV.
  [`ENV DB_PASS ${V}`, P],
  [`ENV DB_PASSWORD ${V}`, P],
  [`FROM node:20\nENV API_TOKEN ${V}`, P],
];

/**
 * The forms the brief says already work (masked on main too): kept here beside the new ones,
 * so that a change to them shows.
 */
const CHECKED: [string, string][] = [
  [`password = os.environ.get("DB_PASSWORD", "${V}")`, P],
  [`const password = process.env.DB_PASSWORD || "${V}"`, P],
  [`ngrok config add-authtoken ${V}`, P],
  [`$p = ConvertTo-SecureString "${V}" -AsPlainText -Force`, P],
  [`git clone https://oauth2:${V}@gitlab.com/org/repo.git`, U],
  [`await page.fill('input[name="password"]', '${V}')`, P],
  [`await page.getByLabel('Password').fill('${V}')`, P],
  [`cy.get('#password').type('${V}')`, P],
  [`newPasswort = "${V}"`, P],
  [`nuevaContraseña = "${V}"`, P],
  [`ENV PASSWORD "${V}"`, P],
];

/**
 * Near misses: code and commands with nothing secret in them, served as they are (on main
 * `b''` and `f"{pw}"` had their prefix letter masked, `SecretStr` and `Option` their type name).
 */
const CLEAR: string[] = [
  "password = b''",
  'password = f"{pw}"',
  'password = String::from(pw)',
  'password = SecretStr(pw)',
  'password: SecretStr = Field(...)',
  'password: Optional[str] = None',
  'password: str = ""',
  'let password: Option<String> = None;',
  '$pass = Read-Host -AsSecureString',
  'ENV PATH /usr/bin',
  'ENV DB_PASSWORD $DB_PASSWORD',
  'RUN echo 1',
  'git clone https://github.com/org/repo.git',
  'git clone https://bob@bitbucket.org/org/repo.git',
  'git clone https://Contoso2024Team@dev.azure.com/Contoso2024Team/proj/_git/repo',
  "page.fill('#email', 'bob@x.io')",
  'await page.fill("input[name=\\"email\\"]", "bob@x.io")',
  "await userEvent.type(screen.getByLabelText(/email/i), 'bob@x.io')",
  "await userEvent.type(passwordInput, '{enter}')",
  "fireEvent.change(emailInput, { target: { value: 'bob@x.io' } })",
  'fireEvent.change(passwordInput, { target: { value: password } })',
  'new Sequelize(process.env.DB_URL)',
  "new Sequelize('postgres://localhost/app')",
  'mosquitto_sub -h host -p 8883 -t topic',
  '$p = ConvertTo-SecureString $pw -AsPlainText -Force',
  '$p = ConvertTo-SecureString -String $env:PW -AsPlainText -Force',
  'ngrok authtoken $NGROK_AUTHTOKEN',
  'the authtoken is stored in ngrok.yml',
  'ansible-playbook site.yml --vault-password-file <(echo $VAULT_PASS)',
  'ansible-playbook site.yml --vault-password-file ~/.vault_pass.txt',
  'diff <(echo a) <(echo b)',
  'const port = process.env.PORT ?? "3000"',
  'const mode = ENV["RAILS_ENV"] || "development"',
  'passwortNeu = None',
];

describe('secrets in code shapes (review r19 M2/M4)', () => {
  it.each(CASES)('masks V in %j in all four forms', (input, mask) => {
    const want = input.split(V).join(mask);
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    const b = Buffer.from(line(input));
    r.maskUtf8(b);
    expect(b.toString()).toBe(bytes(input, mask));
    expect(r.redactText(nested(input))).toBe(nested(want));
  });

  it.each(CHECKED)('still masks V in %j in all four forms', (input, mask) => {
    const want = input.split(V).join(mask);
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    const b = Buffer.from(line(input));
    r.maskUtf8(b);
    expect(b.toString()).toBe(bytes(input, mask));
    expect(r.redactText(nested(input))).toBe(nested(want));
  });

  it.each(CLEAR)('leaves %j as it is in all four forms', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
    const b = Buffer.from(line(input));
    r.maskUtf8(b);
    expect(b.toString()).toBe(line(input));
    expect(r.redactText(nested(input))).toBe(nested(input));
  });
});
