import { inEveryForm, markers } from './context-forms';
import { Redactor } from './redactor';

/**
 * The eighth outside review of issue 19: secrets in scripts, Windows commands and service
 * configuration lines that no detector read. Each context in every form a transcript or a
 * served file holds it (as in contexts-review7.spec): the exact output, and one finding per
 * masked value, of its kind. Values are made up.
 */

const V = 'Wq7hG2kLp9Zx4Rt8Vb3N';
const HEX40 = '3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39';
const HEX64 = `${HEX40}0a1b2c3d4e5f60718293a4b5`;
const B64 = 'Ym9iOlMzY3JldFBhc3N3MHJk';
const SALT = 'c2FsdHNhbHRzYWx0';
const SCRAM_KEYS = `${'K7bq2Xf9Lm3Wz8Rt1Yv6Np4Hs0Jd5Gc='}:${'Q1wE2rT3yU4iO5pA6sD7fG8hJ9kL0zX='}`;

const CASES: [string, string, string][] = [
  // Composer's auth settings (a host with dots).
  [
    'composer github-oauth',
    `composer config -g github-oauth.github.com ${V}`,
    'composer config -g github-oauth.github.com [R]',
  ],
  [
    'composer http-basic',
    `composer config http-basic.repo.packagist.com bob ${V}`,
    'composer config http-basic.repo.packagist.com bob [R]',
  ],
  // Expect: the string sent after a password prompt.
  ['expect send', `expect "assword:"\nsend "${V}\\r"`, 'expect "assword:"\nsend "[R]\\r"'],
  // 1Password's CLI reads the password on stdin.
  ['op signin', `echo ${V} | op signin`, 'echo [R] | op signin'],
  // Windows.
  [
    'net use',
    `net use \\\\fs01\\share ${V} /user:corp\\bob`,
    'net use \\\\fs01\\share [R] /user:corp\\bob',
  ],
  [
    'net use Z:',
    `net use Z: \\\\fs01\\share "${V}" /persistent:no /user:corp\\bob`,
    'net use Z: \\\\fs01\\share "[R]" /persistent:no /user:corp\\bob',
  ],
  [
    'xfreerdp /p:',
    `xfreerdp /v:host /u:bob /p:${V} /cert:ignore`,
    'xfreerdp /v:host /u:bob /p:[R] /cert:ignore',
  ],
  // Service configuration.
  [
    'nginx proxy_set_header',
    `proxy_set_header Authorization "Basic ${B64}";`,
    'proxy_set_header Authorization "Basic [REDACTED:basic-auth]";',
  ],
  [
    'pgbouncer userlist SCRAM',
    `"bob" "SCRAM-SHA-256$4096:${SALT}$${SCRAM_KEYS}"`,
    '"bob" "SCRAM-SHA-256$4096:[R]"',
  ],
  [
    'redis-server --requirepass',
    `redis-server --requirepass ${V}`,
    'redis-server --requirepass [R]',
  ],
  [
    'redis-cli CONFIG SET',
    `redis-cli -h db CONFIG SET requirepass ${V}`,
    'redis-cli -h db CONFIG SET requirepass [R]',
  ],
  [
    'redis prompt CONFIG SET',
    `10.0.0.11:6379> CONFIG SET masterauth "${V}"`,
    '10.0.0.11:6379> CONFIG SET masterauth "[R]"',
  ],
  [
    'redis --masterauth',
    `redis-server --masterauth ${V} --port 6380`,
    'redis-server --masterauth [R] --port 6380',
  ],
  [
    'wpa_supplicant psk="…"',
    `network={\n  ssid="home"\n  psk="${V}"\n}`,
    'network={\n  ssid="home"\n  psk="[R]"\n}',
  ],
  ['wpa_supplicant psk=hex', `  #psk="${V}"\n  psk=${HEX64}`, '  #psk="[R]"\n  psk=[R]'],
  // Typed constants.
  ['Rust &str', `const API_KEY: &str = "${V}";`, 'const API_KEY: &str = "[R]";'],
  ['TypeScript string', `const apiKey: string = "${V}";`, 'const apiKey: string = "[R]";'],
  ['Kotlin String', `val password: String = "${V}"`, 'val password: String = "[R]"'],
  ['Go string', `var Password string = "${V}"`, 'var Password string = "[R]"'],
  // A service account's key id.
  [
    'private_key_id',
    `{"type": "service_account", "private_key_id": "${HEX40}"}`,
    '{"type": "service_account", "private_key_id": "[R]"}',
  ],
  // .pgpass.
  ['.pgpass', `db.internal:5432:app:bob:${V}`, 'db.internal:5432:app:bob:[R]'],
  ['.pgpass *', `*:*:*:postgres:${V}`, '*:*:*:postgres:[R]'],
  // A secret's default in code.
  [
    'process.env || "…"',
    `const key = process.env.API_KEY || "${V}";`,
    'const key = process.env.API_KEY || "[R]";',
  ],
];

const expand = (s: string) => s.replace(/\[R\]/g, '[REDACTED:password]');

describe('review 8: contexts in every form, masked exactly and counted once each', () => {
  const kinds: string[] = [];
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
  const rows = inEveryForm(CASES);
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

  it('masks a service account key id in JSON as the API decodes it', () => {
    const out = r.redactJson({
      type: 'service_account',
      private_key_id: HEX40,
      client_id: '1234567890',
    });
    expect(out).toEqual({
      type: 'service_account',
      private_key_id: '[REDACTED:password]',
      client_id: '1234567890',
    });
  });
});

describe('review 8: what stays (no secret, a prompt, a variable, a file or a placeholder)', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });
  it.each([
    'composer config -g github-oauth.github.com',
    'composer config --global --unset http-basic.repo.packagist.com',
    'expect "assword:"\nsend "$password\\r"',
    'expect "assword:"\nsend -- "[lindex $argv 0]\\r"',
    'expect "continue connecting"\nsend "yes\\r"',
    'echo "$OP_PASSWORD" | op signin',
    'net use \\\\fs01\\share * /user:corp\\bob',
    'net use Z: \\\\fs01\\share /user:corp\\bob',
    'net use \\\\fs01\\share /delete',
    'xfreerdp /v:host /u:bob /p:$RDP_PASSWORD',
    'xfreerdp /v:host /u:bob',
    'robocopy src dst /p:4',
    'proxy_set_header Authorization $http_authorization;',
    'proxy_set_header Authorization "";',
    'proxy_set_header Authorization "Basic $auth";',
    '"bob" "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>"',
    'redis-server --requirepass "$REDIS_PASSWORD"',
    'redis-cli CONFIG GET requirepass',
    'redis-cli CONFIG SET requirepass "$REDIS_PASSWORD"',
    '127.0.0.1:6379> CONFIG SET maxmemory 2gb',
    'at 12:34:56> CONFIG GET requirepass',
    'psk=$WIFI_PSK',
    'psk="<passphrase>"',
    'key_mgmt=WPA-PSK',
    'const apiKey: string = process.env.API_KEY!;',
    'const label: string = "Password";',
    'val password: String = ""',
    'const API_KEY: &str = env!("API_KEY");',
    'let name: string = "Wq7hG2kLp9Zx4Rt8Vb3N";',
    '"client_id": "1234567890"',
    'hostname:port:database:username:password',
    '*:*:*:postgres:$PGPASSWORD',
    'docker run -p 127.0.0.1:8080:80 nginx',
    '2026-06-01T12:34:56.000Z',
    'const port = process.env.PORT || "3000";',
    'const key = process.env.API_KEY || "";',
    "const key = process.env.API_KEY || 'changeme';",
  ])('%j', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});
