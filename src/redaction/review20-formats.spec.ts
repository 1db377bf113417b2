import { Redactor } from './redactor';

/**
 * Review 20: secret shapes an outside review found clear everywhere: service tokens by their
 * documented prefix, and the calls and commands that take a secret without naming it. Each is
 * masked, with the same mask, in the decoded text (GraphQL, REST, exports, CLI), inside a JSON
 * transcript line, in that line's raw bytes (the file route: masked in place, at the same
 * length) and in JSON inside JSON (a compact argument). The near misses below stay as they are.
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

const tokens: [input: string, secrets: Secret[]][] = [
  [
    'echo "dckr_pat_LdAGgYWrk7aFdjuZSiZdFJ2mJo-" | docker login -u bob --password-stdin',
    [['dckr_pat_LdAGgYWrk7aFdjuZSiZdFJ2mJo-', 'docker-token']],
  ],
  [
    'mysql://u:pscale_pw_NqNNGkrFOpd0Mwx8Q5QRicn8_H9GGvxxK1CB9V3MWWM@aws.connect.psdb.cloud/db',
    [['pscale_pw_NqNNGkrFOpd0Mwx8Q5QRicn8_H9GGvxxK1CB9V3MWWM', 'planetscale-token']],
  ],
  [
    'pscale auth login --service-token pscale_tkn_8VNruLPcypQeGYe4as-VH4rrXjQdy08as2iWFLMbORa',
    [['pscale_tkn_8VNruLPcypQeGYe4as-VH4rrXjQdy08as2iWFLMbORa', 'planetscale-token']],
  ],
  [
    'curl -H "Api-Key: NRAK-42GW54LHPV4YGMM4GGZHLK7WBKX" https://api.newrelic.com/graphql',
    [['NRAK-42GW54LHPV4YGMM4GGZHLK7WBKX', 'newrelic-key']],
  ],
  [
    'curl -u me@example.com:ATATT3MyStDyrs4pCPsyvM1zKd1LaZJp9Im17l8jEf5Aaro9GcjSx4P950iyiwdajnOwKd5TXyfbo3LJoYwIioX2qUT0jfx9aVu7RYxwVDQGcclscO_FqttCjoPeCgeQ1mCGvJnQxcAS-xgDCtBVzQjF9ALZ-Pdp7eF_8_uNm91wrwlaL2YFBhsep8u5n=B7f8kBqy https://x.atlassian.net/rest/api/3/myself',
    [
      [
        'ATATT3MyStDyrs4pCPsyvM1zKd1LaZJp9Im17l8jEf5Aaro9GcjSx4P950iyiwdajnOwKd5TXyfbo3LJoYwIioX2qUT0jfx9aVu7RYxwVDQGcclscO_FqttCjoPeCgeQ1mCGvJnQxcAS-xgDCtBVzQjF9ALZ-Pdp7eF_8_uNm91wrwlaL2YFBhsep8u5n=B7f8kBqy',
        'atlassian-token',
      ],
    ],
  ],
  [
    'const client = new Client({ clientSecret: "sq0csp-MK5RUrkM1Eqgo2OWRx5Zn02_iYZ-I1TXCNOpnX3bb_j" })',
    [['sq0csp-MK5RUrkM1Eqgo2OWRx5Zn02_iYZ-I1TXCNOpnX3bb_j', 'square-token']],
  ],
  [
    'curl https://connect.squareup.com/v2/locations -H "Authorization: Bearer sq0atp-3xfZAphSv-RQ3dXP882krs"',
    [['sq0atp-3xfZAphSv-RQ3dXP882krs', 'square-token']],
  ],
  [
    "requests.post(url, auth=('api', 'key-2127630dfa72a3bc7e677cbb8331c338'))",
    [['key-2127630dfa72a3bc7e677cbb8331c338', 'mailgun-key']],
  ],
  [
    'supabase link --project-ref abc sbp_d1d2902ee90f249009e22643f9b8d3def4dc926f',
    [['sbp_d1d2902ee90f249009e22643f9b8d3def4dc926f', 'supabase-token']],
  ],
  [
    'netlify api listSites nfp_qTuypsYM9vb7nTs111M3caAxjuDgSQqO41Pr',
    [['nfp_qTuypsYM9vb7nTs111M3caAxjuDgSQqO41Pr', 'netlify-token']],
  ],
  [
    'the scanner printed squ_5b255ca9b8206e780a8f8003fc454185df0b1e38 once',
    [['squ_5b255ca9b8206e780a8f8003fc454185df0b1e38', 'sonarqube-token']],
  ],
  [
    'sonar-scanner project sqp_1683e1de0ae2a4523630680722791cefbe7f1d4a',
    [['sqp_1683e1de0ae2a4523630680722791cefbe7f1d4a', 'sonarqube-token']],
  ],
  [
    'client = OpenAI(base_url="https://api.x.ai/v1", api_key=os.environ.get("K") or "xai-UqCg1mtmggWR8kmG034MSEip3AXyzIbKHDRlAcXvSKfARi7ct0WODOT62hXLSzcdGJ2lLOYjNk13tURW")',
    [
      [
        'xai-UqCg1mtmggWR8kmG034MSEip3AXyzIbKHDRlAcXvSKfARi7ct0WODOT62hXLSzcdGJ2lLOYjNk13tURW',
        'xai-key',
      ],
    ],
  ],
  [
    '"Authorization": "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"',
    [['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', 'perplexity-key']],
  ],
  [
    'replicate.Client(r8_tgopQ7zg6vVHzQr8ByQFV41Q4KZwsREgK1Q5G)',
    [['r8_tgopQ7zg6vVHzQr8ByQFV41Q4KZwsREgK1Q5G', 'replicate-token']],
  ],
  [
    'os.environ["LANGCHAIN"] = "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"',
    [['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', 'langsmith-key']],
  ],
  [
    'headers = {"x-ls": "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"}',
    [['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', 'langsmith-key']],
  ],
  [
    'heroku auth:token\nHRKU-AAbIAhriqvCL4GEKKHl5W64j0mq_r1rkkVPv9D-O9qs5Z6sA5glsEbvZeU1E',
    [['HRKU-AAbIAhriqvCL4GEKKHl5W64j0mq_r1rkkVPv9D-O9qs5Z6sA5glsEbvZeU1E', 'heroku-token']],
  ],
  [
    "fetch(url, { headers: { 'X-Figma-Token': 'figd_0fF_RxyVPAWtO4LrtUoMX_xY36PlwP8SwxnP4WKw' } })",
    [['figd_0fF_RxyVPAWtO4LrtUoMX_xY36PlwP8SwxnP4WKw', 'figma-token']],
  ],
  [
    'new Client({ auth: "secret_0eA3xYXNLcTfKIo4dSYu6rDH1FMg4PNeU76JunhMIK4" })',
    [['secret_0eA3xYXNLcTfKIo4dSYu6rDH1FMg4PNeU76JunhMIK4', 'notion-token']],
  ],
  [
    'notion = Client(auth="ntn_m36ARMlzKLTpckbowCfXIOjfX5ghMl8N22C2G44OOiYWkg")',
    [['ntn_m36ARMlzKLTpckbowCfXIOjfX5ghMl8N22C2G44OOiYWkg', 'notion-token']],
  ],
  [
    "base = Airtable('appXYZ', 'pat3R0X3yguLH1P9u.dfd59d3b8626631c7a90146c6bd873fdb09e5706509cf25b9ae15f64e90f2743')",
    [
      [
        'pat3R0X3yguLH1P9u.dfd59d3b8626631c7a90146c6bd873fdb09e5706509cf25b9ae15f64e90f2743',
        'airtable-token',
      ],
    ],
  ],
  [
    'hubspot.Client.create(access_token="pat-na1-2be0980e-a581-4f28-2fd4-86f5382147d7")',
    [['pat-na1-2be0980e-a581-4f28-2fd4-86f5382147d7', 'hubspot-token']],
  ],
  [
    'const hs = new Client({ accessToken: "pat-eu1-b1230370-4861-a6e4-6b49-d52f09e5f662" })',
    [['pat-eu1-b1230370-4861-a6e4-6b49-d52f09e5f662', 'hubspot-token']],
  ],
  [
    'grafana-cli --token glc_QnQZ56VDt-sIHGMlYNfrRajBrMfJavhroDqKnxh1fHVKNjgWMV_PtkxMeTNXrTsa42iomSJvXjhcSw0y== plugins ls',
    [
      [
        'glc_QnQZ56VDt-sIHGMlYNfrRajBrMfJavhroDqKnxh1fHVKNjgWMV_PtkxMeTNXrTsa42iomSJvXjhcSw0y==',
        'grafana-token',
      ],
    ],
  ],
  [
    'dbx = dropbox.Dropbox("sl.30v70vKmMO3bglLI0yhFeqDQPfLkUIp6GQxmYP_6a6Q0_nmSLHjJRuyyQldUavq_AX7CPVSTb8NIV-wBmkcGFrGVQMOhHNX_qNSWbVgST3PROSf5TGzjozXPZ6Z_UlslQ6x534E5P4")',
    [
      [
        'sl.30v70vKmMO3bglLI0yhFeqDQPfLkUIp6GQxmYP_6a6Q0_nmSLHjJRuyyQldUavq_AX7CPVSTb8NIV-wBmkcGFrGVQMOhHNX_qNSWbVgST3PROSf5TGzjozXPZ6Z_UlslQ6x534E5P4',
        'dropbox-token',
      ],
    ],
  ],
  [
    'prefect cloud login -k pnu_Llsvo8trgzFKJysTdt9HjSddPSDO3FMwa9iR',
    [['pnu_Llsvo8trgzFKJysTdt9HjSddPSDO3FMwa9iR', 'prefect-token']],
  ],
  [
    'pulumi login --cloud-url https://api.pulumi.com pul-da81b04d64bfa559a5cde805e793ca87b27a456a',
    [['pul-da81b04d64bfa559a5cde805e793ca87b27a456a', 'pulumi-token']],
  ],
  [
    'mapboxgl.accessToken = "sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbHh5ejEyMzQwMDAwMmpxeDNhYjRjZGVmIn0.S2xyAGMbx6oGxwZbe4BqAF";',
    [
      [
        'sk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbHh5ejEyMzQwMDAwMmpxeDNhYjRjZGVmIn0.S2xyAGMbx6oGxwZbe4BqAF',
        'mapbox-token',
      ],
    ],
  ],
];

/**
 * Calls, commands and their outputs that take or print a secret without naming it. (Of the
 * review's list, `-Dsonar.token=V` and `let api_key = String::from("V")` were masked already.)
 */
const calls: [input: string, secrets: Secret[]][] = [
  [
    `client = Client('AC877fb65a52f37d9629f22129d288e76f', '03974185bdbf46c51b7227fbd911cab8')`,
    [['03974185bdbf46c51b7227fbd911cab8', 'twilio-key']],
  ],
  [
    `const client = twilio('AC877fb65a52f37d9629f22129d288e76f', '03974185bdbf46c51b7227fbd911cab8');`,
    [['03974185bdbf46c51b7227fbd911cab8', 'twilio-key']],
  ],
  [
    `const client = algoliasearch('LATENCY8Q2', '03974185bdbf46c51b7227fbd911cab8');`,
    [['03974185bdbf46c51b7227fbd911cab8', 'algolia-key']],
  ],
  [
    'vault write auth/approle/login role_id=675a50e7-cfe0-be76-e35f-49ec009731ea secret_id=244abeb9-07ce-3ec5-6aab-89f65e1ebed2',
    [['244abeb9-07ce-3ec5-6aab-89f65e1ebed2', 'vault-token']],
  ],
  [
    `curl -d '{"role_id": "675a50e7-cfe0-be76-e35f-49ec009731ea", "secret_id": "244abeb9-07ce-3ec5-6aab-89f65e1ebed2"}' $VAULT_ADDR/v1/auth/approle/login`,
    [['244abeb9-07ce-3ec5-6aab-89f65e1ebed2', 'vault-token']],
  ],
  [
    'Key                   Value\n---                   -----\nsecret_id             244abeb9-07ce-3ec5-6aab-89f65e1ebed2\nsecret_id_accessor    0d2c3f8e-5a4b-4c6d-8e7f-9a0b1c2d3e4f',
    [['244abeb9-07ce-3ec5-6aab-89f65e1ebed2', 'vault-token']],
  ],
  ['dotnet user-secrets set "Db:Password" "Vq8xLm2Pz"', [['Vq8xLm2Pz', P]]],
  ['dotnet user-secrets set "Stripe:ApiKey" Vq8xLm2Pz --project src/Web', [['Vq8xLm2Pz', P]]],
  [
    `accounts: ['0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233'],`,
    [['0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233', 'private-key']],
  ],
  [
    `accounts: [\n        '0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233',\n        '0x2b2706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1234',\n      ],`,
    [
      ['0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233', 'private-key'],
      ['0x2b2706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1234', 'private-key'],
    ],
  ],
  [
    '"accounts": ["0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233"]',
    [['0x1a1706ec8176ed92c7771bbfc2bf8aa70b8c5783ec83c5b06a8ae5e8774e1233', 'private-key']],
  ],
  [
    'atlas config set private_api_key 244abeb9-07ce-3ec5-6aab-89f65e1ebed2',
    [['244abeb9-07ce-3ec5-6aab-89f65e1ebed2', P]],
  ],
  [
    'netlify deploy --prod --auth nfp_qTuypsYM9vb7nTs111M3caAxjuDgSQqO41Pr',
    [['nfp_qTuypsYM9vb7nTs111M3caAxjuDgSQqO41Pr', 'netlify-token']],
  ],
  ['netlify deploy --prod --auth Vq8xLm2PzQw', [['Vq8xLm2PzQw', P]]],
  [
    'mvn sonar:sonar -Dsonar.login=squ_5b255ca9b8206e780a8f8003fc454185df0b1e38',
    [['squ_5b255ca9b8206e780a8f8003fc454185df0b1e38', 'sonarqube-token']],
  ],
  [
    '{"Parameter":{"Name":"/prod/db/password","Type":"SecureString","Value":"Vq8xLm2Pz","Version":1}}',
    [['Vq8xLm2Pz', P]],
  ],
  [
    '{\n    "Parameter": {\n        "Name": "/prod/db/conn",\n        "Type": "SecureString",\n        "Value": "Vq8xLm2PzQw",\n        "Version": 3\n    }\n}',
    [['Vq8xLm2PzQw', P]],
  ],
  [
    '{"Parameters":[{"Name":"/prod/app/API_TOKEN","Type":"String","Value":"Vq8xLm2PzQw"}]}',
    [['Vq8xLm2PzQw', P]],
  ],
  ['let password: Option<String> = Some(String::from("Vq8xLm2Pz"));', [['Vq8xLm2Pz', P]]],
  ['let db_password: Option<&str> = Some("Vq8xLm2Pz");', [['Vq8xLm2Pz', P]]],
];

const rows = [...tokens, ...calls];

describe('review 20: secret shapes masked in all four forms', () => {
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
 * Near misses: the prefixes as words (`key-value`, `pat-na1-docs`, `sk.something`), a hash
 * after `key-` inside a name or path or longer than Mailgun's 32 hex, Mapbox's public `pk.`
 * tokens, prefixes with too few characters; calls whose secret is a reference or whose first
 * argument is no account SID, a secret's name or a Terraform reference after `secret_id`, a
 * secret id's accessor, settings that name no secret, options without a value, Rust's `None` and
 * variables, SSM parameters that are neither SecureString nor named as a secret.
 */
const CLEAR = [
  'key-value',
  'the key-value store, key-based auth',
  'read sk.something in prose',
  'see pat-na1-docs for the token',
  'pat-na1-1234',
  'cache-key-877fb65a52f37d9629f22129d288e76f',
  's3://bucket/key-877fb65a52f37d9629f22129d288e76f',
  'key-877fb65a52f37d9629f22129d288e76f0123abcd',
  'key_877fb65a52f37d9629f22129d288e76f',
  'secret_key_base',
  'secret_sauce_recipe',
  'pplx-api docs',
  'xai-grok-2 model',
  'r8_model',
  'lsv2_pt_ prefix',
  'glc_ prefix',
  'sl.example.com',
  'pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbHh5ejEyMzQwMDAwMmpxeDNhYjRjZGVmIn0.S2xyAGMbx6oGxwZbe4BqAF',
  'NRAK-1234',
  'HRKU-short',
  'figd_x',
  'ntn_short',
  'sbp_ tokens',
  'pattern.123',
  'patchwork.example',
  'ATATT3 is the prefix',
  'dckr_pat_ is the prefix',
  `client = Client('AC877fb65a52f37d9629f22129d288e76f', auth_token)`,
  `client = Client(account_sid, '877fb65a52f37d9629f22129d288e76f')`,
  `algoliasearch('APPID', process.env.ALGOLIA_KEY)`,
  `algoliasearch('APPID', 'search-only-key')`,
  'secret_id = aws_secretsmanager_secret.db.id',
  'aws secretsmanager get-secret-value --secret-id prod/db/creds',
  'secret_id_accessor    244abeb9-07ce-3ec5-6aab-89f65e1ebed2',
  'vault write -f auth/approle/role/ci/secret-id',
  'accounts: [process.env.PRIVATE_KEY],',
  'accounts: []',
  `accounts: ['0x1234']`,
  'accounts: { mnemonic: process.env.MNEMONIC }',
  'dotnet user-secrets set "Logging:Level" "Debug"',
  'dotnet user-secrets list',
  'atlas config set public_api_key abcdefgh',
  'atlas config set output json',
  'netlify deploy --auth $NETLIFY_AUTH_TOKEN',
  'mongod --auth --port 27017',
  'curl --auth-type basic',
  'the --auth flag',
  'let password: Option<String> = None;',
  'let password: Option<String> = Some(args.password);',
  'let name: Option<String> = Some(String::from("bob"));',
  'let v: Vec<String> = vec![String::from("a")];',
  '{"Parameter":{"Name":"/prod/db/host","Type":"String","Value":"db.internal"}}',
  '{"Name":"/prod/keys/list","Type":"StringList","Value":"a,b"}',
  'Value: /prod/db/password',
  'Mismatch: accounts: [',
];

describe('review 20: near misses stay clear', () => {
  it.each(CLEAR)('leaves %j', (input) => {
    expect(r.redactText(input)).toBe(input);
    expect(r.redactText(line(input))).toBe(line(input));
    const bytes = Buffer.from(line(input));
    r.maskUtf8(bytes);
    expect(bytes.toString()).toBe(line(input));
    expect(r.redactText(nested(input))).toBe(nested(input));
  });
});
