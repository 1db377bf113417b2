import { andWhole, fourForms } from '../../test/redaction/four-forms';
import { marker } from './redactor';

/**
 * Values review 22 found served clear or cut short (each with a secret V, on every route):
 *
 * 1. A .env line's value holding punctuation: `DB_PASSWORD=Kq7Xm2vL9(pT4wZ8`,
 *    `DB_PASSWORD=Summer(2024)!`, `DB_PASSWORD=Kq7[Xm2]vL9pT4` were read as a call or an index
 *    and served whole; `DB_PASSWORD=Ab;cd9…` (and `|`, `,`, `{`, `"`, `'`, a backtick, `)`, `}`,
 *    `]`) masked `Ab` only, the rest served; `password=Xy[9]Kp#2mQ` was read as indexing. A
 *    .env line (an upper-case name alone at its line's start, `=` glued) runs to its first
 *    blank or its end; a shell's ` && cmd`, ` cmd`, a ` # comment` after it stay. Code
 *    (`API_KEY=os.getenv("X")`, `TOKEN=sys.argv[1]`) stays clear.
 * 2. A double- or single-quoted YAML value holding an escape: `password: "Xy\tTab…"`,
 *    `password: "Ab\u00e4cd…"`, `password: 'Xy\tTab…'` masked `Xy` (the quote after a `:` was
 *    read as a JSON string's, whose `\t` ends a value), where `password = "Xy\tTab…"` and
 *    `{"password": "Xy\tTab…"}` were masked whole. An unquoted key's `: "` opens a value.
 * 3. Formats and keys no rule read: Stripe's webhook secret `whsec_…` alone (now a
 *    `stripe-key` wherever it stands, after a secret's name too); Rust's
 *    `std::env::set_var("API_KEY", "V")`; a `pin` key's PIN (4 to 8 digits: a board's
 *    `pin: 13`, `pin: true` stay); a DSN's key as its URL's user (`SENTRY_DSN=https://KEY@…`,
 *    `"dsn": …`); `"bearer": "V"`; `CLIENT_KEY=V`; an OAuth code in a login's redirect URL
 *    (`/callback?code=4/0AX…&state=…`). `setBasicAuth`, `licenseKey`, `connectionString` were
 *    masked already (KEPT).
 *
 * Each form: decoded (GraphQL, REST, exports, CLI), inside a JSON line, the raw bytes of that
 * line (the file download), JSON inside JSON (a compact argument).
 */

const { forms, line, nested } = fourForms();

/**
 * The four forms expected when `v` in `t` is masked as `kind`; in the raw bytes the value is
 * JSON-escaped (a `"` is `\"`), the marker cut or padded to that length.
 */
function masked(t: string, v: string, kind: string): string[] {
  const want = t.replace(v, marker(kind));
  const raw = JSON.stringify(v).slice(1, -1);
  const sameLength = marker(kind).slice(0, raw.length).padEnd(raw.length, '*');
  return andWhole([want, line(want), line(t).replace(raw, sameLength), nested(want)]);
}

const V = 'Zq8mW2pL9vXk3RtYh7Nb';
const P = 'Zq8#mW2!pL9v';
const WH = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const DSN = 'abc123def456';
const CODE = '4/0AX4XfWhZq8mW2pL9vXk3RtYh7Nb';

/** [input, the secret in it, the mask's kind]: each was clear or cut short on main. */
const MASKED: [string, string, string][] = [
  // 1. .env values holding punctuation.
  ['DB_PASSWORD=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['DB_PASSWORD=Summer(2024)!', 'Summer(2024)!', 'password'],
  ['DB_PASSWORD=Kq7[Xm2]vL9pT4', 'Kq7[Xm2]vL9pT4', 'password'],
  ['password=Xy[9]Kp#2mQ', 'Xy[9]Kp#2mQ', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab|cd9Kq7Zx2', 'Ab|cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab,cd9Kq7Zx2', 'Ab,cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab{cd9Kq7Zx2', 'Ab{cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab"cd9Kq7Zx2', 'Ab"cd9Kq7Zx2', 'password'],
  ["DB_PASSWORD=Ab'cd9Kq7Zx2", "Ab'cd9Kq7Zx2", 'password'],
  ['DB_PASSWORD=Ab`cd9Kq7Zx2', 'Ab`cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab cd9Kq7Zx2', 'Ab cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9)pT4wZ8', 'Kq7Xm2vL9)pT4wZ8', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9}pT4wZ8', 'Kq7Xm2vL9}pT4wZ8', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9]pT4wZ8', 'Kq7Xm2vL9]pT4wZ8', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2 # prod', 'Ab;cd9Kq7Zx2', 'password'],
  ['export DB_PASSWORD=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['export DB_PASSWORD=Ab;cd9Kq7Zx2 && run', 'Ab;cd9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Ab;cd9Kq7Zx2 npm start', 'Ab;cd9Kq7Zx2', 'password'],
  ['  DB_PASSWORD=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['API_KEY=Kq7Xm2vL9(pT4wZ8', 'Kq7Xm2vL9(pT4wZ8', 'password'],
  ['SECRET_KEY=Ab;cd9Kq7Zx2', 'Ab;cd9Kq7Zx2', 'password'],
  ['SECRET=ab;cd9Kq7Zx2==', 'ab;cd9Kq7Zx2==', 'password'],
  // 2. A quoted YAML value holding an escape (a backslash and a letter in the text).
  ['password: "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "Ab\\u00e4cd9Kq7Zx2"', 'Ab\\u00e4cd9Kq7Zx2', 'password'],
  ["password: 'Xy\\tTabL1nePass99'", 'Xy\\tTabL1nePass99', 'password'],
  ['  db_password: "Xy\\nTabL1nePass99"', 'Xy\\nTabL1nePass99', 'password'],
  ['api_key: "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "Xy\\tAb\\tCd9Kq7Zx2"', 'Xy\\tAb\\tCd9Kq7Zx2', 'password'],
  // 3. Missed formats and keys.
  [`${WH}`, WH, 'stripe-key'],
  [`const s = '${WH}';`, WH, 'stripe-key'],
  [`std::env::set_var("API_KEY", "${V}");`, V, 'password'],
  [`env::set_var("DB_PASSWORD", "${P}");`, P, 'password'],
  ['{"pin": "482913"}', '482913', 'password'],
  ['pin: 482913', '482913', 'password'],
  ['PIN=4829', '4829', 'password'],
  ['{"user_pin": 48291375}', '48291375', 'password'],
  [`"dsn": "https://${DSN}@o1.ingest.sentry.io/1"`, DSN, 'url-credentials'],
  [`SENTRY_DSN=https://${DSN}@o1.ingest.sentry.io/1`, DSN, 'url-credentials'],
  [`Sentry.init({ dsn: 'https://${DSN}@example.com/1' })`, DSN, 'url-credentials'],
  [`"bearer": "${V}"`, V, 'password'],
  [`auth:\n  bearer: ${V}`, V, 'password'],
  [`CLIENT_KEY=${V}`, V, 'password'],
  [`"clientKey": "${V}"`, V, 'password'],
  [`https://app.example.com/callback?code=${CODE}&state=xyz`, CODE, 'password'],
  [`GET /oauth2/redirect?code=${V} HTTP/1.1`, V, 'password'],
  [
    `http://localhost:8080/?state=abc&code=4%2F0AX4XfWh${V}&scope=email`,
    `4%2F0AX4XfWh${V}`,
    'password',
  ],
];

/** Masked on main already (kept so). */
const KEPT: [string, string, string][] = [
  ['DB_PASSWORD=Qg6(abc)def9a', 'Qg6(abc)def9a', 'password'],
  ['DB_PASSWORD=Ab<c>d&e9Xq', 'Ab<c>d&e9Xq', 'password'],
  ['A_PASSWORD=x9Kq7Zx2;B=y', 'x9Kq7Zx2', 'password'],
  ['DB_PASSWORD=Kq7Xm2vL9pT4 psql -h db', 'Kq7Xm2vL9pT4', 'password'],
  ['password = "Xy\\tTabL1nePass99"', 'Xy\\tTabL1nePass99', 'password'],
  ['{"password": "Xy\\tTabL1nePass99"}', 'Xy\\tTabL1nePass99', 'password'],
  ['password: "\\tXy9Kq7Zx2"', '\\tXy9Kq7Zx2', 'password'],
  // A webhook secret after a secret's name: masked before, now as the token it is.
  [`STRIPE_WEBHOOK_SECRET=${WH}`, WH, 'stripe-key'],
  [`endpoint_secret = '${WH}'`, WH, 'stripe-key'],
  [`req.SetBasicAuth("bob", "${P}")`, P, 'password'],
  ['"licenseKey": "ABCD-1234-EFGH-5678"', 'ABCD-1234-EFGH-5678', 'password'],
  ['"license_key": "ABCD-1234-EFGH-5678"', 'ABCD-1234-EFGH-5678', 'password'],
  [`"connectionString": "Server=db;Database=app;User Id=sa;Password=${V};"`, V, 'password'],
  [`ConnectionStrings__Default=Server=db;Database=app;User Id=sa;Password=${V};`, V, 'password'],
  [
    `https://e3f8a1b2c4d5e6f708192a3b4c5d6e7f@o1.ingest.sentry.io/1`,
    'e3f8a1b2c4d5e6f708192a3b4c5d6e7f',
    'url-credentials',
  ],
  ['KEYSTORE_PIN=Zq8mW2pL9v', 'Zq8mW2pL9v', 'password'],
];

/** Near misses: clear in every form. */
const CLEAR = [
  'password = getPassword()',
  'password=arr[0]',
  'password=cfg.get("x")',
  'password=$(cat file)',
  'PASSWORD=${VAR}',
  'password=<your-password>',
  'password=changeme',
  'DB_PASSWORD=changeme',
  'DB_PASSWORD=<your-password>',
  'API_KEY=os.getenv("API_KEY")',
  'API_KEY=os.getenv(',
  'API_KEY=cfg.get("a",',
  "API_KEY=process.env.API_KEY||''",
  'SECRET_KEY=secrets.token_hex(32)',
  'SECRET_KEY=get_random_secret_key()',
  'PASSWORD=getpass.getpass()',
  'PASSWORD=input("Password: ")',
  'TOKEN=sys.argv[1]',
  "TOKEN=os.environ['TOKEN']",
  'TOKEN=f(g(x))',
  '  DB_PASSWORD=row[2];',
  'API_TOKEN=tokens[i]',
  'PASSWORD=$(cat /run/secrets/db)',
  'TOKEN=$(gh auth token)',
  'echo DB_PASSWORD=(redacted)',
  'Summer (2024) password',
  'The password (see the vault) is rotated',
  'password: "\\t"',
  'prompt: "Password: \\t"',
  'input("Password: \\t")',
  'message: "Hello\\tWorld9Kq7Zx2"',
  'std::env::set_var("RUST_LOG", "debug");',
  'env::set_var("API_KEY", &api_key);',
  'let s = "whsec_" + secret;',
  'whsec_abc',
  'pin: true',
  'PIN=1234',
  '"pin": "0000"',
  'pin: 987654',
  '"pin": "v1.2.3"',
  '"pin": "main"',
  'pin: 13',
  'led_pin: 2',
  '"pin": 13',
  'pin: GPIO4',
  'spin: 1234',
  '"pinned": "123456"',
  'https://jenkins2024ci@example.com/x',
  'mailto:support123team@example.com',
  'https://abcdefghijklmn@o1.ingest.sentry.io/1',
  '"type": "bearer"',
  'bearer: true',
  '"bearer": [{"key": "token", "value": "{{token}}"}]',
  'referrer: https://x.com',
  'bearer: <token>',
  'client_key: /etc/ssl/client.key',
  'clientKey = getClientKey()',
  'CLIENT_KEY=${CLIENT_KEY}',
  'tls:\n  client_key: certs/client-key.pem',
  'https://example.com/search?code=ABCDEFGHIJKLMNOP1',
  'https://github.com/org/repo/blob/main/src/code=1234567890abcdefg',
  'https://x.com/callback?code=short1',
  'see code=ABCDEFGHIJKLMNOP12 in the docs',
];

describe('review 23: values review 22 found cut short', () => {
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
