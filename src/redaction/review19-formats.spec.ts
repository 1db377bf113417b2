import { Redactor } from './redactor';

/**
 * Review 19 (medium): secret shapes clear on every route. Each is masked, with the same mask,
 * in the decoded text (GraphQL, REST, exports, CLI), inside a JSON transcript line, in that
 * line's raw bytes (the file route: masked in place, at the same length) and in JSON inside
 * JSON (a compact argument). The near misses below stay as they are.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const line = (t: string): string => JSON.stringify({ step_index: 1, content: `Note:\n${t}\nend` });
const nested = (t: string): string =>
  JSON.stringify({ tool_calls: [{ args: { json: JSON.stringify({ CommandLine: t }) } }] });
const marker = (kind: string) => `[REDACTED:${kind}]`;
/** What the file route writes over `n` bytes: the marker, cut or padded with `*`. */
const fit = (kind: string, n: number) => {
  const m = marker(kind);
  return m.length >= n ? m.slice(0, n) : m + '*'.repeat(n - m.length);
};
/** `text` with each secret replaced by `f(kind, secret)`. */
function replaced(text: string, secrets: Secret[], f: (kind: string, s: string) => string) {
  let out = text;
  for (const [s, kind] of secrets) out = out.split(s).join(f(kind, s));
  return out;
}
type Secret = [value: string, kind: string];
/** A JSON string's text for `s` (its escapes), as the raw line holds it. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1);

const P = 'password';
const HEX32 = '0123456789abcdef0123456789abcdef';
const OPENVPN_BODY = Array.from(
  { length: 16 },
  (_, i) => HEX32.slice(i % 16) + HEX32.slice(0, i % 16),
);
const OPENVPN = `-----BEGIN OpenVPN Static key V1-----\n${OPENVPN_BODY.join('\n')}\n-----END OpenVPN Static key V1-----`;
const PHRASE =
  'abandon able abuse about above access absorb abstract ability absurd absent accident';

const rows: [input: string, secrets: Secret[]][] = [
  [
    'var credential = new ClientSecretCredential(tenantId, clientId, "iTPVIU8H43cryZiBlyLyGasfB41HsgS1SAgjYfIP");',
    [['iTPVIU8H43cryZiBlyLyGasfB41HsgS1SAgjYfIP', P]],
  ],
  [
    'client = Client("SK2f45822b6da45ee42abca93fb950e4cc", "3d485ab3da6a1b6152bfb1b98ef12a94", account_sid)',
    [
      ['SK2f45822b6da45ee42abca93fb950e4cc', 'twilio-key'],
      ['3d485ab3da6a1b6152bfb1b98ef12a94', 'twilio-key'],
    ],
  ],
  [
    'TWILIO_KEY_SID SK2f45822b6da45ee42abca93fb950e4cc',
    [['SK2f45822b6da45ee42abca93fb950e4cc', 'twilio-key']],
  ],
  [
    'databricks configure --token <<< "dapi6cdffe0810c2e88081528937a4ddb20d"',
    [['dapi6cdffe0810c2e88081528937a4ddb20d', 'databricks-token']],
  ],
  [
    'export TOKEN_FILE=x; echo dapi6cdffe0810c2e88081528937a4ddb20d-2 > ~/.token',
    [['dapi6cdffe0810c2e88081528937a4ddb20d-2', 'databricks-token']],
  ],
  [
    'bot = telebot.TeleBot("9093155534:AAhKXBJ24QCgELcOMk3e7AIOEAscL5V7IwK")',
    [['9093155534:AAhKXBJ24QCgELcOMk3e7AIOEAscL5V7IwK', 'telegram-token']],
  ],
  [
    'curl https://api.telegram.org/bot7012345678:AAjXRANfww2lIySf7Ri2qKo_MKiGIFjKNGVGr/sendMessage?chat_id=1',
    [['7012345678:AAjXRANfww2lIySf7Ri2qKo_MKiGIFjKNGVGr', 'telegram-token']],
  ],
  [
    'client.run("4ltGx2xoWzcxsBdd6I4a4D56.Oko1ga.Uigh0MJoOe885-od-mxmn6gmyaucyFUiSuZ2fB")',
    [['4ltGx2xoWzcxsBdd6I4a4D56.Oko1ga.Uigh0MJoOe885-od-mxmn6gmyaucyFUiSuZ2fB', 'discord-token']],
  ],
  [
    'curl -X POST https://discord.com/api/webhooks/112233445566778899/O0s5ZRLI3k2ZSB5IZmvpccxMI5fTWGbxHw5bG0Ky-wWfAMiCYxAfeP0eXIJcn',
    [['O0s5ZRLI3k2ZSB5IZmvpccxMI5fTWGbxHw5bG0Ky-wWfAMiCYxAfeP0eXIJcn', 'discord-webhook']],
  ],
  [
    'Authorization: SSWS Y6CPGwvhG8FL3DCmqvCEre3mPtTJsqXvEAMfhqTlft',
    [['Y6CPGwvhG8FL3DCmqvCEre3mPtTJsqXvEAMfhqTlft', 'okta-token']],
  ],
  [
    'curl -H "Authorization: SSWS 00Y6CPGwvhG8FL3DCmqvCEre3mPtTJsqXvEAMfhqTl" https://x.okta.com/api/v1/users',
    [['00Y6CPGwvhG8FL3DCmqvCEre3mPtTJsqXvEAMfhqTl', 'okta-token']],
  ],
  [
    'Authorization: key=AAAARhU9S3F:APA91bAUVw7ZRmFzLVKiQr-dUG7n8YEW_7iyznP_gFYZ',
    [['AAAARhU9S3F:APA91bAUVw7ZRmFzLVKiQr-dUG7n8YEW_7iyznP_gFYZ', 'fcm-key']],
  ],
  [
    'sf org login access-token --instance-url https://x.my.salesforce.com <<< 00DKgq1PgjZoYky!oS5Tip5o.7_AO00sFghkiMfX36_39Qb4Pg5iFoZx6ZygZthzXWdCFEfJqWRLAOOlyhEy64dvUdQVIpHaXqmen.dKJ9',
    [
      [
        '00DKgq1PgjZoYky!oS5Tip5o.7_AO00sFghkiMfX36_39Qb4Pg5iFoZx6ZygZthzXWdCFEfJqWRLAOOlyhEy64dvUdQVIpHaXqmen.dKJ9',
        'salesforce-token',
      ],
    ],
  ],
  ['nmcli dev wifi connect HomeNet password I8LQmuDo2vNYcyxwp0GG', [['I8LQmuDo2vNYcyxwp0GG', P]]],
  [
    'PRIVATE_KEY=0xe0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9',
    [['0xe0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9', 'private-key']],
  ],
  [
    '{"privateKey": "0xe0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9"}',
    [['0xe0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9', 'private-key']],
  ],
  [
    'const wallet = new ethers.Wallet("0xa5e746fea252e1ac31014af7a6c567da17242159d5aa3bfecf10aaae1dec33c0", provider);',
    [['0xa5e746fea252e1ac31014af7a6c567da17242159d5aa3bfecf10aaae1dec33c0', 'private-key']],
  ],
  [`MNEMONIC="${PHRASE}"`, [[PHRASE, 'private-key']]],
  [`SEED_PHRASE='${PHRASE}'`, [[PHRASE, 'private-key']]],
  [`mnemonic: ${PHRASE}`, [[PHRASE, 'private-key']]],
  [
    'java -jar jenkins-cli.jar -s http://jenkins:8080/ -auth admin:AWGhRvlT0JXa2EFS3jkr build job',
    [['AWGhRvlT0JXa2EFS3jkr', P]],
  ],
  [
    'curl --proxy-user bob:ZBjG4YnYMQ33Aq0h54oZ -x http://proxy:3128 https://x',
    [['ZBjG4YnYMQ33Aq0h54oZ', P]],
  ],
  ['curl -U bob:SY3dffVfko3ZR0AUdvoZ https://x', [['SY3dffVfko3ZR0AUdvoZ', P]]],
  [
    'client.Credentials = new NetworkCredential("bob", "mMGrdq7L6cBWSEEPBrG8");',
    [['mMGrdq7L6cBWSEEPBrG8', P]],
  ],
  [
    'return new PasswordAuthentication("bob", "HdF70zs0MW7DIgdQeT7U".toCharArray());',
    [['HdF70zs0MW7DIgdQeT7U', P]],
  ],
  ["$conn = new mysqli('db', 'root', '4DkbaOTfTnLL4eK3', 'app');", [['4DkbaOTfTnLL4eK3', P]]],
  ["$link = mysqli_connect('db', $user, '4DkbaOTfTnLL4eK3');", [['4DkbaOTfTnLL4eK3', P]]],
  [
    '$cred = New-Object PSCredential("bob", (ConvertTo-SecureString -AsPlainText "VLY6mcDWzqXXcsno" -Force))',
    [['VLY6mcDWzqXXcsno', P]],
  ],
  [
    'nuget setapikey oy2WadljGeaOZmF8TxOm88de690uSVPH3Wq3YiXfbx5clcyOQ -Source https://x',
    [['oy2WadljGeaOZmF8TxOm88de690uSVPH3Wq3YiXfbx5clcyOQ', 'nuget-key']],
  ],
  ['nuget setapikey Qm7vR2kP9xTz4LwN -Source https://x', [['Qm7vR2kP9xTz4LwN', 'nuget-key']]],
  [`cat > ta.key <<EOF\n${OPENVPN}\nEOF`, [[OPENVPN, 'private-key']]],
  // The lows.
  ['ipmitool -I lanplus -H h -U admin -P LUZBkF3tJUKlr7jh power status', [['LUZBkF3tJUKlr7jh', P]]],
  ['net user bob D8qhedDC2H04lLRS /add', [['D8qhedDC2H04lLRS', P]]],
  [
    'security add-generic-password -a bob -s myservice -w FBV0t0Y4OypNOa49',
    [['FBV0t0Y4OypNOa49', P]],
  ],
  ['KEYSTORE_PIN=GG4JuL3PzBLwkuJg3OgD', [['GG4JuL3PzBLwkuJg3OgD', P]]],
  ['jdbc:oracle:thin:scott/yvgi9mez8oB0XOGRhViY@db:1521/x', [['yvgi9mez8oB0XOGRhViY', P]]],
];

describe('review 19: secret shapes masked in all four forms', () => {
  it.each(rows)('masks %j', (input, secrets) => {
    const want = replaced(input, secrets, (kind) => marker(kind));
    expect(r.redactText(input)).toBe(want);
    expect(r.redactText(line(input))).toBe(line(want));
    const bytes = Buffer.from(line(input));
    r.maskUtf8(bytes);
    const inPlace = replaced(
      line(input),
      secrets.map(([s, k]) => [escaped(s), k]),
      (kind, s) => fit(kind, Buffer.byteLength(s)),
    );
    expect(bytes.toString()).toBe(inPlace);
    expect(r.redactText(nested(input))).toBe(nested(want));
  });
});

/**
 * Near misses: hashes (a git sha, a sha256, a transaction's `0x` + 64 hex: public, masked only
 * under a secret's name or as a wallet's argument), a contract address under a `_TOKEN` name,
 * calls and commands without a secret, word lists that are no 12-24 word phrase.
 */
const CLEAR = [
  'commit e0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387 (HEAD -> main)',
  'sha256: e0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9',
  'tx: 0xe0bf8c5d6e63c32f0a246f67ffdf6a0f4e4d0387729a5caad28aac87d95982a9',
  'const receipt = await provider.getTransactionReceipt("0xa5e746fea252e1ac31014af7a6c567da17242159d5aa3bfecf10aaae1dec33c0");',
  'USDC_TOKEN=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  'DB_PASS: 0x0B96',
  'new ethers.Wallet(privateKey, provider)',
  'client = Client("localhost", 8080)',
  'client = Client(account_sid, auth_token)',
  'new NetworkCredential(user, password)',
  'new PasswordAuthentication(user, pass.toCharArray())',
  "new mysqli('db', 'root', '', 'app')",
  'new ClientSecretCredential(tenantId, clientId, clientSecret)',
  'ConvertTo-SecureString -AsPlainText $pw -Force',
  'net user bob',
  'net user bob /delete',
  'net user bob * /add',
  'net user',
  'internet user bob D8qhedDC2H04lLRS',
  'mnemonic: abandon able about',
  `mnemonic: ${PHRASE} zoo`,
  `MNEMONIC="${PHRASE.split(' ').slice(0, 11).join(' ')}"`,
  'the words: apple banana cherry grape lemon mango melon olive peach pear plum lime',
  'pin: true',
  'spin=3',
  'PIN=1234',
  'pinned: v1.2.3',
  'mysql -h db -P 3306 -u root',
  'cp -P src dst',
  'psql -U postgres -d app',
  'docker run -u 1000:1000 img',
  'ipmitool -I lanplus -H h -U admin -E power status',
  'security find-generic-password -a bob -s myservice -w',
  'jdbc:oracle:thin:@db:1521/x',
  'nmcli dev wifi list',
  'databricks configure --token',
  'DISK0123456789abcdef0123456789abcdef',
  'com.example.app.MainActivity.onCreate(savedInstanceState)',
  'https://discord.com/api/webhooks',
  'meeting at 20231201:AAPL review',
  'Wow! 00D is not an org id!',
  '-----BEGIN OpenVPN Static key V1-----',
  'nuget setapikey $NUGET_KEY -Source https://x',
  'Authorization: SSWS',
];

describe('review 19: near misses stay clear', () => {
  it.each(CLEAR)('leaves %j', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
    const bytes = Buffer.from(line(input));
    r.maskUtf8(bytes);
    expect(bytes.toString()).toBe(line(input));
    expect(r.redactText(nested(input))).toBe(nested(input));
  });
});
