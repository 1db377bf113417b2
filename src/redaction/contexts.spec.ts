import { Redactor } from './redactor';

/**
 * Secrets in the contexts the fourth outside review found served clear: cloud CLIs, the
 * password options of common tools, cookies outside a header, secret-named keys with suffixes,
 * indexing and calls. Each input as an agent's command or output holds it; the exact output.
 * Values are made up and assembled from pieces (no token-shaped literal in the source).
 */
const j = (...parts: string[]) => parts.join('');
const AZURE_KEY = j(
  'Zm9vYmFyYmF6cXV4cXV1eHh5enp5MTIzNDU2Nzg5MA',
  'Zm9vYmFyYmF6cXV4cXV1eHh5enp5MTIz==',
);
const VAULT = j('hvs.', 'CAESIJabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH');
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');

const redactor = new Redactor({ enabled: true, extraPatterns: [] });
const redact = (text: string) => redactor.redactText(text);

describe('cloud command lines (review 4, M1)', () => {
  it.each([
    [
      `aws configure set aws_secret_access_key ${AWS_SECRET}`,
      'aws configure set aws_secret_access_key [REDACTED:aws-secret-key]',
    ],
    [
      'aws configure set aws_session_token IQoJb3JpZ2luX2VjEJr --profile ci',
      'aws configure set aws_session_token [REDACTED:password] --profile ci',
    ],
    [
      `az storage blob upload --account-name acct --account-key ${AZURE_KEY} -f x`,
      'az storage blob upload --account-name acct --account-key [REDACTED:azure-storage-key] -f x',
    ],
    [
      `[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${AZURE_KEY}"\n  }\n]`,
      '[\n  {\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "[REDACTED:azure-storage-key]"\n  }\n]',
    ],
    [
      'curl "https://a.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2026-12-31T00:00:00Z&sig=AbCdEf0123456789%2BabcdEFGHijkl%3D"',
      'curl "https://a.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&se=2026-12-31T00:00:00Z&sig=[REDACTED:url-signature]"',
    ],
    [
      'GET /k?X-Amz-Credential=x&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F&X-Amz-Signature=0123456789abcdef0123456789abcdef HTTP/1.1',
      'GET /k?X-Amz-Credential=x&X-Amz-Security-Token=[REDACTED:url-signature]&X-Amz-Signature=[REDACTED:url-signature] HTTP/1.1',
    ],
    [`vault login ${VAULT}`, 'vault login [REDACTED:vault-token]'],
    ['vault login s.AbCd3fGh1jKlMn0pQrStUvWx', 'vault login [REDACTED:vault-token]'],
    [
      `export VAULT_ADDR=https://v:8200 X=${VAULT}`,
      'export VAULT_ADDR=https://v:8200 X=[REDACTED:vault-token]',
    ],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('password options of common tools (review 4, M2)', () => {
  it.each([
    ['curl -su admin:S3cretPass https://x', 'curl -su admin:[REDACTED:password] https://x'],
    ['curl -sSfu admin:S3cretPass https://x', 'curl -sSfu admin:[REDACTED:password] https://x'],
    [
      'oc login https://api.x:6443 -u kubeadmin -p Abc123-xyz',
      'oc login https://api.x:6443 -u kubeadmin -p [REDACTED:password]',
    ],
    ['cf login -a api.x -u me -p S3cret', 'cf login -a api.x -u me -p [REDACTED:password]'],
    [
      'helm registry login r.io -u me -p S3cret',
      'helm registry login r.io -u me -p [REDACTED:password]',
    ],
    [
      'twine upload -u __token__ -p S3cretPass dist/*',
      'twine upload -u __token__ -p [REDACTED:password] dist/*',
    ],
    [
      'keytool -importkeystore -srcstorepass S3cret1 -deststorepass "S3cret2" -keypass S3cret3',
      'keytool -importkeystore -srcstorepass [REDACTED:password] -deststorepass "[REDACTED:password]" -keypass [REDACTED:password]',
    ],
    [
      'openssl pkcs12 -export -passout pass:S3cret -passin env:PW -pass file:/tmp/pw',
      'openssl pkcs12 -export -passout pass:[REDACTED:password] -passin env:PW -pass file:/tmp/pw',
    ],
    [
      'openssl enc -aes-256-cbc -k S3cret -in f',
      'openssl enc -aes-256-cbc -k [REDACTED:password] -in f',
    ],
    ['smbclient //srv/share -U alice%S3cret', 'smbclient //srv/share -U alice%[REDACTED:password]'],
    ['smbclient //s/x --user=alice%S3cret', 'smbclient //s/x --user=alice%[REDACTED:password]'],
    [
      'mc alias set myminio http://127.0.0.1:9000 minioadmin S3cretKey123',
      'mc alias set myminio http://127.0.0.1:9000 minioadmin [REDACTED:password]',
    ],
    [
      'mc config host add s3 https://s3.x AKIDX "S3cret Key"',
      'mc config host add s3 https://s3.x AKIDX "[REDACTED:password]"',
    ],
    [
      'gpg --batch --passphrase S3cret -c file',
      'gpg --batch --passphrase [REDACTED:password] -c file',
    ],
    ['zip -P S3cret out.zip f', 'zip -P [REDACTED:password] out.zip f'],
    ['unzip -P S3cret in.zip', 'unzip -P [REDACTED:password] in.zip'],
    ['7z a -pS3cret -mhe=on out.7z dir', '7z a -p[REDACTED:password] -mhe=on out.7z dir'],
    [
      'ssh-keygen -p -P old1 -N new2 -f key',
      'ssh-keygen -p -P [REDACTED:password] -N [REDACTED:password] -f key',
    ],
    [
      'gh secret set API_TOKEN --body "S3cret"',
      'gh secret set API_TOKEN --body "[REDACTED:password]"',
    ],
    ['gh secret set API_TOKEN -b S3cret', 'gh secret set API_TOKEN -b [REDACTED:password]'],
    ['gh secret set X --body=S3cret', 'gh secret set X --body=[REDACTED:password]'],
    [
      'yarn config set npmAuthToken abcDEF123456',
      'yarn config set npmAuthToken [REDACTED:password]',
    ],
    [
      'npm config set "//registry.npmjs.org/:_authToken" "S3cretToken"',
      'npm config set "//registry.npmjs.org/:_authToken" "[REDACTED:password]"',
    ],
    [
      'pnpm config set --location=project //r/:_authToken S3cret',
      'pnpm config set --location=project //r/:_authToken [REDACTED:password]',
    ],
    ['setx API_KEY S3cretValue /M', 'setx API_KEY [REDACTED:password] /M'],
    [
      'set -x GITHUB_TOKEN S3cretValue123; set -gx DB_PASSWORD hunter2',
      'set -x GITHUB_TOKEN [REDACTED:password]; set -gx DB_PASSWORD [REDACTED:password]',
    ],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('cookies outside a header (review 4, M3)', () => {
  it.each([
    [
      'curl -b "sessionid=abc123def; csrftoken=xyz" https://x',
      'curl -b "[REDACTED:cookie]" https://x',
    ],
    ["curl --cookie 'sid=abc123' https://x", "curl --cookie '[REDACTED:cookie]' https://x"],
    [
      '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t1767225600\tsessionid\tabc123XYZ\n#HttpOnly_x.io\tFALSE\t/\tFALSE\t0\tsid\tq1w2e3\n',
      '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tTRUE\t1767225600\tsessionid\t[REDACTED:cookie]\n#HttpOnly_x.io\tFALSE\t/\tFALSE\t0\tsid\t[REDACTED:cookie]\n',
    ],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('secret-named keys with suffixes, indexes and calls (review 4, M4)', () => {
  it.each([
    ['ses_smtp_password_v4 = S3cretValue', 'ses_smtp_password_v4 = [REDACTED:password]'],
    ['db_password_2=hunter2', 'db_password_2=[REDACTED:password]'],
    ['secret_string: "S3cret"', 'secret_string: "[REDACTED:password]"'],
    ['{"SecretString": "abc"}', '{"SecretString": "[REDACTED:password]"}'],
    ['{"masterKey": "abc123def456"}', '{"masterKey": "[REDACTED:password]"}'],
    ['os.environ["DB_PASSWORD"] = "hunter2"', 'os.environ["DB_PASSWORD"] = "[REDACTED:password]"'],
    ['ENV["SECRET_KEY_BASE"] = "abc123def"', 'ENV["SECRET_KEY_BASE"] = "[REDACTED:password]"'],
    ["process.env['API_KEY'] = 'abc'", "process.env['API_KEY'] = '[REDACTED:password]'"],
    [
      '<input type="hidden" name="api_key" value="abc123XYZ">',
      '<input type="hidden" name="api_key" value="[REDACTED:password]">',
    ],
    [
      'localStorage.setItem("access_token", "abc123xyz")',
      'localStorage.setItem("access_token", "[REDACTED:password]")',
    ],
    ['os.Setenv("API_TOKEN", "abc123")', 'os.Setenv("API_TOKEN", "[REDACTED:password]")'],
    [
      'System.setProperty("db.password", "hunter2")',
      'System.setProperty("db.password", "[REDACTED:password]")',
    ],
    [
      "headers.set('Authorization', 'Bearer abc123def456')",
      "headers.set('Authorization', 'Bearer [REDACTED:bearer]')",
    ],
    [
      'requests.get(u, auth=("admin", "S3cret!"))',
      'requests.get(u, auth=("admin", "[REDACTED:password]"))',
    ],
    [
      'DriverManager.getConnection("jdbc:mysql://h/db", "app", "S3cret")',
      'DriverManager.getConnection("jdbc:mysql://h/db", "app", "[REDACTED:password]")',
    ],
  ])('%s', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });
});

describe('the same tools without a secret are left alone', () => {
  it.each([
    'aws configure set region eu-west-1; npm config set registry https://x',
    'zip -r out.zip dir; 7z x -p out.7z; ssh-keygen -N "" -f k; openssl enc -kfile k',
    'curl -b cookies.txt -c cookies.txt https://x; git checkout -b feature; curl --cookie jar.txt x',
    'setx PATH "%PATH%;C:\\x"; set -x EDITOR vim; setx TOKEN $TOKEN',
    'gh secret set X < file.txt; mc alias set a http://x $ACCESS $SECRET',
    'vault login -method=userpass username=bob; vault login -',
    'openssl pkcs12 -passin env:PW -passout file:/tmp/pw; docker run -u 1000:1000 img',
    'localStorage.setItem("theme", "dark"); localStorage.setItem("token", token)',
    'DriverManager.getConnection(url, user, pass); auth=(user, pw)',
    '<input type="hidden" name="page" value="2">',
    'at 2026-12-05T14:41:29 x_12: 5 token_1 = 5 PASSWORD = os.environ["PASSWORD"]',
    'https://x/?q=signature&sig=short a\tTRUE\t5\tb\tc',
  ])('%s', (text) => {
    expect(redact(text)).toBe(text);
  });
});
