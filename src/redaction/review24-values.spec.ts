import { fourForms } from '../../test/redaction/four-forms';

/**
 * Values outside review 23 found served clear or cut short (each with a secret V, on every
 * route):
 *
 * 1. A value holding punctuation after prefixes and separators the .env rule did not read:
 *    `DB_PASSWORD: V`, `DB_PASSWORD = V`, Windows cmd's `set API_TOKEN=V`, `declare -x`,
 *    `env`, `readonly`, a prompt's `$ export`, `docker run -e NAME=V`, kubectl's
 *    `--from-literal=password=V`, GitHub Actions' `env:` block: served whole with a `(`, cut
 *    at a `;`, `|`, `,`, `{`, `'`, a backtick (`declare -x DB_PASSWORD=[REDACTED];Xm2…`).
 * 2. A plain YAML scalar with a `(` or `[` (`password: Y00q(Xm2…`, `db_password`, `secret`,
 *    `api_key`), served whole; with a `;`, cut there.
 * 3. Echo forms (./echoes withForms): a query string's `+` for a blank, HTML's numeric entities,
 *    PowerShell's backtick escape.
 * 4. Markdown and prose: a token's, key's or secret's value of 12 to 15 characters mixing
 *    capitals, small letters and digits (two of each; 16 was asked), `my api key is V`
 *    (` is `, ` was ` after a key's name), `login: admin/V`, `username admin password V`;
 *    keys `pinCode` (a PIN, as `pin`) and `passcode`; `whsec_` with 24 to 31 random
 *    characters after a name that is no secret's.
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument), and the text as a JSON
 * string's whole value (review 23 H-A: a text starting a string).
 */

const { forms, maskedAll, clear } = fourForms();

/** The forms expected when `v` in `t` is masked as `kind`. */
const masked = (t: string, v: string, kind: string) => maskedAll(t, [v], kind);

/** [input, the secret in it, the mask's kind]: each was clear or cut short on main. */
const MASKED: [string, string, string][] = [
  // 1. Other prefixes and separators.
  ['DB_PASSWORD: Co7(Xm2vL9pT4wZ8', 'Co7(Xm2vL9pT4wZ8', 'password'],
  ['DB_PASSWORD = Sp7(Xm2vL9pT4wZ8', 'Sp7(Xm2vL9pT4wZ8', 'password'],
  ['set API_TOKEN=Eh8(Xm2vL9pT4wZ8', 'Eh8(Xm2vL9pT4wZ8', 'password'],
  ['declare -x DB_PASSWORD=R46q(Xm2vL9pT4wZ8', 'R46q(Xm2vL9pT4wZ8', 'password'],
  ['env DB_PASSWORD=Ev4(Xm2vL9pT4wZ8', 'Ev4(Xm2vL9pT4wZ8', 'password'],
  ['readonly DB_PASSWORD=Ro4(Xm2vL9pT4wZ8', 'Ro4(Xm2vL9pT4wZ8', 'password'],
  ['$ export DB_PASSWORD=Wb6(Xm2vL9pT4wZ8', 'Wb6(Xm2vL9pT4wZ8', 'password'],
  ['docker run -e POSTGRES_PASSWORD=Dk7(Xm2vL9pT4 postgres', 'Dk7(Xm2vL9pT4', 'password'],
  [
    'kubectl create secret generic db --from-literal=password=K8(Xm2vL9pT4w',
    'K8(Xm2vL9pT4w',
    'password',
  ],
  ['env:\n  DB_PASSWORD: Gh7(Xm2vL9pT4wZ', 'Gh7(Xm2vL9pT4wZ', 'password'],
  ['declare -x DB_PASSWORD=R46q;Xm2vL9pT4wZ8', 'R46q;Xm2vL9pT4wZ8', 'password'],
  ['DB_PASSWORD: Co7;Xm2vL9pT4wZ8', 'Co7;Xm2vL9pT4wZ8', 'password'],
  ['DB_PASSWORD = Sp7|Xm2vL9pT4wZ8', 'Sp7|Xm2vL9pT4wZ8', 'password'],
  ['set API_TOKEN=Eh8|Xm2vL9pT4wZ8', 'Eh8|Xm2vL9pT4wZ8', 'password'],
  ['env DB_PASSWORD=Ev4,Xm2vL9pT4wZ8', 'Ev4,Xm2vL9pT4wZ8', 'password'],
  ['readonly DB_PASSWORD=Ro4{Xm2vL9pT4wZ8', 'Ro4{Xm2vL9pT4wZ8', 'password'],
  ["$ export DB_PASSWORD=Wb6'Xm2vL9pT4wZ8", "Wb6'Xm2vL9pT4wZ8", 'password'],
  ['docker run -e POSTGRES_PASSWORD=Dk7`Xm2vL9pT4 postgres', 'Dk7`Xm2vL9pT4', 'password'],
  ['docker run --env POSTGRES_PASSWORD=Dk7;Xm2vL9pT4 postgres', 'Dk7;Xm2vL9pT4', 'password'],
  ['env:\n  DB_PASSWORD: Gh7;Xm2vL9pT4wZ', 'Gh7;Xm2vL9pT4wZ', 'password'],
  // 2. Plain YAML scalars.
  ['password: Y00q(Xm2vL9pT4wZ8', 'Y00q(Xm2vL9pT4wZ8', 'password'],
  ['  db_password: Y01q[Xm2vL9pT4wZ8', 'Y01q[Xm2vL9pT4wZ8', 'password'],
  ['secret: Y02q(Xm2vL9pT4wZ8', 'Y02q(Xm2vL9pT4wZ8', 'password'],
  ['api_key: Y03q(Xm2vL9pT4wZ8', 'Y03q(Xm2vL9pT4wZ8', 'password'],
  ['password: Y04q;Xm2vL9pT4wZ8', 'Y04q;Xm2vL9pT4wZ8', 'password'],
  ['db:\n  password: Y05q(Xm2vL9pT4wZ8\n  user: app', 'Y05q(Xm2vL9pT4wZ8', 'password'],
  // 4. Markdown and prose (./markdown), keys and formats.
  ['- **Client Secret:** `Cs8mX2vL9pT4wZ`', 'Cs8mX2vL9pT4wZ', 'password'],
  ['**Token:** Tk8mX2vL9pT4wZq', 'Tk8mX2vL9pT4wZq', 'password'],
  ['| Service | api key |\n|---|---|\n| stripe | Ak8mX2vL9pT4wZq |', 'Ak8mX2vL9pT4wZq', 'password'],
  ['my api key is Ak8mX2vL9pT4wZq', 'Ak8mX2vL9pT4wZq', 'password'],
  ['the access token is Tk8mX2vL9pT4wZq.', 'Tk8mX2vL9pT4wZq', 'password'],
  ['The client secret was Cs8mX2vL9pT4wZqAb3', 'Cs8mX2vL9pT4wZqAb3', 'password'],
  ['login: admin/Ls8mX2vL9pT4wZq', 'Ls8mX2vL9pT4wZq', 'password'],
  ['username admin password Up8mX2vL9pT4wZq', 'Up8mX2vL9pT4wZq', 'password'],
  ['user: alice password Up8mX2vL9pT4wZq', 'Up8mX2vL9pT4wZq', 'password'],
  ['{"pinCode": "839201"}', '839201', 'password'],
  ['pin_code: 839201', '839201', 'password'],
  ['{"passcode": "Pc8mX2vL9pT4"}', 'Pc8mX2vL9pT4', 'password'],
  [
    'STRIPE_WEBHOOK=whsec_Wh8mX2vL9pT4wZqAb3Cd5Ef7Gh',
    'whsec_Wh8mX2vL9pT4wZqAb3Cd5Ef7Gh',
    'stripe-key',
  ],
];

/**
 * 3. A value's echo in another form ([input, [each masked piece, in order]]): a query string's
 * `+` for a blank, HTML's numeric entity for `&`, PowerShell's backtick escape (./echoes
 * withForms).
 */
const ECHOES: [string, string[]][] = [
  [
    'GET /login?password=Jb+Xm2vL9pT4&user=a\ntyped Jb Xm2vL9pT4 in the form',
    ['Jb+Xm2vL9pT4', 'Jb Xm2vL9pT4'],
  ],
  [
    '<input name="password" value="Jd&#38;Xm2vL9pT4">\necho Jd&Xm2vL9pT4',
    ['Jd&#38;Xm2vL9pT4', 'Jd&Xm2vL9pT4'],
  ],
  ['$env:DB_PASSWORD="Jm`$Xm2vL9pT4"\necho Jm$Xm2vL9pT4', ['Jm`$Xm2vL9pT4', 'Jm$Xm2vL9pT4']],
];

/** Masked on main already (kept so). */
const KEPT: [string, string, string][] = [
  ['DB_PASSWORD=R46q;Xm2vL9pT4wZ8', 'R46q;Xm2vL9pT4wZ8', 'password'],
  ['export DB_PASSWORD=R46q(Xm2vL9pT4wZ8', 'R46q(Xm2vL9pT4wZ8', 'password'],
  ['DB_PASSWORD=R46q`Xm2vL9pT4wZ8', 'R46q`Xm2vL9pT4wZ8', 'password'],
  ['password: Xm2vL9pT4wZ8', 'Xm2vL9pT4wZ8', 'password'],
  ['**Token:** Tk8mX2vL9pT4wZqAb', 'Tk8mX2vL9pT4wZqAb', 'password'],
  ['my password is Wlk7q9wT4qZ2nRm6pLs', 'Wlk7q9wT4qZ2nRm6pLs', 'password'],
  ['login: a / Wlk7q9wT4qZ2nRm6pLs', 'Wlk7q9wT4qZ2nRm6pLs', 'password'],
  [
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'stripe-key',
  ],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'password: getPassword()',
  'api_key: cfg[0]',
  'api_key: v1(beta)',
  'secret: ${{ secrets.X }}',
  'docker run -e PASSWORD postgres',
  'docker run -e POSTGRES_PASSWORD postgres',
  'DB_PASSWORD: <your-password>',
  'The password (see below) is in the vault',
  'Set the password (see the docs) first',
  'password: foo(bar) baz',
  '  token: ghx1[0];',
  'const config = { password: process.env.PW, token: getToken(1) };',
  'set DB_PASSWORD=%DB_PASSWORD%',
  'declare -x DB_PASSWORD=$(cat /run/secret)',
  'env DB_PASSWORD=os.getenv(',
  'secret: (none)',
  'password: true;',
  '| api_key | value |',
  'the secret is base64Encoded',
  'This key is Ak8mX2vL9pT4wZq',
  'The issue is Ab1cdEf2GhIj3',
  'The token is required for every request',
  '**Token:** Float32_LE',
  '**Token:** Tk8mx2vl9pt4',
  'login: src/components/Login2Form.tsx',
  'login: user/repo2',
  'Set the password via the user settings password page',
  'username admin password reset',
  '{"pinCode": "1234"}',
  '"pinCode": true',
  'whsec_abcdefghijklmnopqrstuvwxyz',
  'whsec_Wh8mX2vL9pT4wZqAb3',
];

describe('review 24: values outside review 23 found clear or cut short', () => {
  it.each(MASKED)('masks %j in every form', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(ECHOES)('masks %j and its echo in every form', (t, vs) => {
    expect(forms(t)).toEqual(maskedAll(t, vs));
  });

  it.each(KEPT)('still masks %j in every form', (t, v, kind) => {
    expect(forms(t)).toEqual(masked(t, v, kind));
  });

  it.each(CLEAR)('leaves %j as it is in every form', (t) => {
    expect(forms(t)).toEqual(clear(t));
  });
});
