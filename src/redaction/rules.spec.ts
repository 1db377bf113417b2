import { EDGE } from './detector';
import { GITLEAKS_RULES } from './gitleaks-rules';
import { Redactor } from './redactor';
import { GITLEAKS_KINDS, translate } from './rules';

/**
 * One sample per vendored gitleaks rule and per format added by hand, and near misses. The
 * samples are built from a seeded generator so that no token-shaped literal sits in the
 * source (secret scanners would flag this file); they only have the right shape.
 */

const redactor = new Redactor({ enabled: true, extraPatterns: [] });
const redact = (text: string) => redactor.redactText(text);

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = `${LOWER}ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`;
const HEX = '0123456789abcdef';
let seed = 7;
/** `n` characters of `set`, seeded. */
function g(n: number, set = ALNUM): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    s += set[(seed >>> 8) % set.length];
  }
  return s;
}

/** Rule id -> a token it matches (masked whole in `use <token> now`). */
const SAMPLES: Record<string, string> = {
  'gitlab-pat': `glpat-${g(20)}`,
  'gitlab-pat-routable': `glpat-${g(40)}.${g(2, LOWER)}${g(7, LOWER)}`,
  'gitlab-ptt': `glptt-${g(40, HEX)}`,
  'gitlab-deploy-token': `gldt-${g(20)}`,
  'gitlab-runner-authentication-token': `glrt-${g(20)}`,
  'gitlab-feed-token': `glft-${g(20)}`,
  'gitlab-oauth-app-secret': `gloas-${g(64)}`,
  'gitlab-scim-token': `glsoat-${g(20)}`,
  'huggingface-access-token': `hf_${g(34, `${LOWER}ABCDEF`)}`,
  'huggingface-organization-api-token': `api_org_${g(34, LOWER)}`,
  'npm-access-token': `npm_${g(36)}`,
  'pypi-upload-token': `pypi-AgEIcHlwaS5vcmc${g(70)}`,
  'slack-webhook-url': `hooks.slack.com/services/T${g(10)}/B${g(10)}/${g(24)}`,
  'digitalocean-pat': `dop_v1_${g(64, HEX)}`,
  'digitalocean-access-token': `doo_v1_${g(64, HEX)}`,
  'digitalocean-refresh-token': `dor_v1_${g(64, HEX)}`,
  'shopify-access-token': `shpat_${g(32, HEX)}`,
  'shopify-shared-secret': `shpss_${g(32, HEX)}`,
  'sendgrid-api-token': `SG.${g(22)}.${g(43)}`,
  'age-secret-key': `AGE-SECRET-KEY-1${g(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`,
  'postman-api-token': `PMAK-${g(24, HEX)}-${g(34, HEX)}`,
  'doppler-api-token': `dp.pt.${g(43)}`,
  'linear-api-key': `lin_api_${g(40)}`,
  'grafana-service-account-token': `glsa_${g(32)}_${g(8, HEX)}`,
};

describe('vendored gitleaks rules', () => {
  it('has a sample for every rule, and the rules cover their kinds', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(GITLEAKS_RULES.map((r) => r[0]).sort());
    expect(new Set(GITLEAKS_RULES.map((r) => r[1]))).toEqual(new Set(GITLEAKS_KINDS));
  });

  it.each(GITLEAKS_RULES.map((r) => [r[0], r[1]]))('%s', (id, kind) => {
    const sample = SAMPLES[id];
    expect(redact(`use ${sample} now`)).toBe(`use [REDACTED:${kind}] now`);
    // In JSON-encoded text, after an escaped newline, and quoted.
    expect(redact(`"out": "x\\n${sample}\\n"`)).toBe(`"out": "x\\n[REDACTED:${kind}]\\n"`);
  });

  it('translates RE2 syntax to JavaScript', () => {
    expect(translate(String.raw`(?i)\b(npm_[a-z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)`)).toEqual({
      prefix: 'npm_',
      body: String.raw`[a-z0-9A-Z]{36}(?=[\x60'"\s;]|\\[nr]|$)`,
      // \b becomes EDGE: not after a token character (escape letters and ANSI ends excepted).
      source: `${EDGE}npm_` + String.raw`[a-z0-9A-Z]{36}(?=[\x60'"\s;]|\\[nr]|$)`,
    });
    expect(translate(String.raw`dp\.pt\.(?i)[a-z0-9]{43}`).source).toBe(
      String.raw`dp\.pt\.[a-z0-9A-Z]{43,1024}`,
    );
    expect(translate(String.raw`\b(hf_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)`).prefix).toBe('hf_');
    expect(() => translate('[a-z]{20}')).toThrow(/without a literal prefix/);
  });
});

const j = (...parts: string[]) => parts.join('');

describe('formats added by hand', () => {
  const pemB64 = Buffer.from(
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${g(200)}\n-----END RSA PRIVATE KEY-----\n`,
  ).toString('base64');
  const cases: [string, string, string][] = [
    [
      'google oauth access token',
      `Authorization ya29.${g(60)} x`,
      'Authorization [REDACTED:google-oauth-token] x',
    ],
    [
      'google client secret',
      `"client_id": "x", "web": GOCSPX-${g(28)}`,
      '"client_id": "x", "web": [REDACTED:google-client-secret]',
    ],
    [
      'azure storage connection string',
      j(
        'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=',
        g(86),
        '==;EndpointSuffix=core.windows.net',
      ),
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net',
    ],
    [
      'kubeconfig client-key-data (base64 PEM)',
      `    client-key-data: ${pemB64}\n  next: 1`,
      '    client-key-data: [REDACTED:private-key]\n  next: 1',
    ],
    [
      'mysql -p glued',
      'mysql -h db -uroot -pS3cr3t! app < dump.sql',
      'mysql -h db -uroot -p[REDACTED:password] app < dump.sql',
    ],
    ["mysqldump -p'quoted'", "mysqldump -p'a b c' db", "mysqldump -p'[REDACTED:password]' db"],
    ['mysql --password=', 'mysql --password=S3cr3t db', 'mysql --password=[REDACTED:password] db'],
    [
      'docker login -p among other -p options',
      'ssh -p 22 a\ndocker login -u u -p Pw1 r\nssh -p 23 b && mysql -pX9 && ssh -p 24 c',
      'ssh -p 22 a\ndocker login -u u -p [REDACTED:password] r\nssh -p 23 b && mysql -p[REDACTED:password] && ssh -p 24 c',
    ],
    ['PGPASSWORD=', 'PGPASSWORD=S3cr3t psql -h db', 'PGPASSWORD=[REDACTED:password] psql -h db'],
    [
      'Cookie header',
      '> Cookie: sid=8f14e45f; theme=dark\n> Accept: */*',
      '> Cookie: [REDACTED:cookie]\n> Accept: */*',
    ],
    [
      'Set-Cookie header',
      '< Set-Cookie: session=abc; Path=/; HttpOnly\n',
      '< Set-Cookie: [REDACTED:cookie]\n',
    ],
    ['cookie in JSON', '{"cookie": "a=1; b=2", "x": 1}', '{"cookie": "[REDACTED:cookie]", "x": 1}'],
    [
      'Authorization: Basic',
      'Authorization: Basic dXNlcjpwYXNz',
      'Authorization: Basic [REDACTED:basic-auth]',
    ],
    [
      'Authorization: Bearer',
      '-H "authorization: Bearer abc"',
      '-H "authorization: Bearer [REDACTED:bearer]"',
    ],
    [
      'Proxy-Authorization',
      'Proxy-Authorization: Basic dXNlcjpwYXNz',
      'Proxy-Authorization: Basic [REDACTED:basic-auth]',
    ],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('near misses stay', () => {
  const certB64 = Buffer.from(
    `-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE${g(60)}\n`,
  ).toString('base64');
  const clean = [
    `certificate-authority-data: ${certB64}`,
    'from huggingface_hub import hf_hub_download; hf_hub_download(repo_id="x")',
    `hf_${g(40, LOWER)}`, // longer than a token, no boundary after 34 letters
    'npm_config_registry=https://registry.example.org/ npm_lifecycle_event=test',
    'see https://hooks.slack.com/services/ for webhooks',
    'the glpat- prefix marks GitLab tokens; SG.Foo and dp.pt. are prefixes too',
    'ya29.short and GOCSPX-short',
    'ssh -p2222 host && mkdir -pv dir && mysql -u root -p app',
    'docker login registry; ssh -p 2222 host',
    `docker login ${'x'.repeat(400)} -p 8080:80`,
    'cookie: a small piece of data the browser keeps',
    "fetch(url, { credentials: 'include' })",
    'AccountKey=<your key>',
  ];
  it.each(clean)('%s', (text) => {
    expect(redact(text)).toBe(text);
  });
});
