import { EDGE, EDGE_ALNUM, regexDetector, type Detector } from './detector';
import { acceptAssignment } from './keys';
import { anchorDetector, escape, MAX_TOKEN_RUN, type PrefixRule } from './rules';

// --- service tokens by their own shape (review 19) ----------------------------------------------
//
// Each is found wherever it stands (a call's argument, a here-string, a URL), not only after a
// key. Shapes without punctuation (`dapi…`, `SK…`, `oy2…`) are found by a needle of their
// first letters (patterns.ts NEEDLES: one native indexOf pass each), the others on an anchor
// the scan already looks for (`:`, `.`) or on `!` (Salesforce's session ids only).

const END_ALNUM = '(?![A-Za-z0-9])';

/** Databricks personal access tokens: `dapi` + 32 hex (maybe `-2`). */
export const databricksToken = regexDetector({
  kind: 'databricks-token',
  anchors: 'p',
  trigger: `p(?<=${EDGE}dap)(?=i[0-9a-f]{32})`,
  back: 2,
  literal: 'dapi',
  source: `${EDGE}dapi[0-9a-f]{32}(?:-\\d)?${END_ALNUM}`,
});

/** A quoted argument after the key's (`Client("SK…", "secret"`): group 1 the secret. */
const TWILIO_SECRET = /\\*["'][ \t]*,[ \t]*\\*["']([A-Za-z0-9]{32})\\*["']/y;
/**
 * Twilio API keys, `SK` + 32 hex; their secret (32 letters and digits) when it is the quoted
 * argument right after the key (`Client("SK…", "…", account_sid)`).
 */
export const twilioKey: Detector = {
  kind: 'twilio-key',
  anchors: 'K',
  trigger: `K(?<=${EDGE}SK)(?=[0-9a-f]{32}${END_ALNUM})`,
  find(text, at, _state, out) {
    const re = TWILIO_KEY;
    re.lastIndex = at - 1;
    if (!re.test(text)) return -1;
    const end = re.lastIndex;
    out.push({ start: at - 1, end, kind: 'twilio-key' });
    TWILIO_SECRET.lastIndex = end;
    const m = TWILIO_SECRET.exec(text);
    if (!m) return end;
    const close = TWILIO_SECRET.lastIndex - (m[0].length - m[0].lastIndexOf(m[1]) - 32);
    out.push({ start: close - 32, end: close, kind: 'twilio-key' });
    return TWILIO_SECRET.lastIndex;
  },
};
const TWILIO_KEY = new RegExp(`${EDGE}SK[0-9a-f]{32}${END_ALNUM}`, 'y');

/** NuGet API keys: `oy2` + 43 or more letters and digits. */
export const nugetKey = regexDetector({
  kind: 'nuget-key',
  anchors: 'y',
  trigger: `y(?:(?<=${EDGE}oy)(?=2[A-Za-z0-9]{40})|(?<=${EDGE}setapikey)(?=[ \\t]+[^\\s-]))`,
  back: 1,
  source: `${EDGE}oy2[A-Za-z0-9]{40,60}${END_ALNUM}`,
});
/** `nuget setapikey KEY`: any key, the first argument. */
const SET_API_KEY = new RegExp(`${EDGE}setapikey[ \\t]+\\\\*["']?([^\\s"'\\\\]{8,1024})`, 'y');
export const nugetSetApiKey: Detector = {
  kind: 'nuget-key',
  anchors: 'y',
  trigger: '', // nugetKey's
  find(text, at, _state, out) {
    SET_API_KEY.lastIndex = at - 8;
    const m = at >= 8 ? SET_API_KEY.exec(text) : null;
    if (!m) return -1;
    const v = m[1];
    if (v.startsWith('[REDACTED') || !acceptAssignment('secret', v, true, '')) return -1;
    out.push({
      start: SET_API_KEY.lastIndex - v.length,
      end: SET_API_KEY.lastIndex,
      kind: 'nuget-key',
    });
    return SET_API_KEY.lastIndex;
  },
};

/** Telegram bot tokens: the bot's 8-10 digit id, `:AA`, then 30-40 token characters. */
const TELEGRAM = /(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{30,40}(?![A-Za-z0-9_-])/y;
/** Firebase Cloud Messaging's legacy server keys: `AAAA…:APA91b…`. */
const FCM = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{7,20}:APA91b[A-Za-z0-9_-]{20,1024}/y;

/** Where the run of `chars` ending just before `at` starts, within `max`. */
function runStart(text: string, at: number, max: number, test: (c: number) => boolean): number {
  let i = at;
  const stop = Math.max(0, at - max);
  while (i > stop && test(text.charCodeAt(i - 1))) i--;
  return i;
}
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isToken = (c: number) =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  c === 0x5f ||
  c === 0x2d;

/**
 * The `:` inside a token: Telegram's `123456789:AA…` (also in `api.telegram.org/bot<token>/`),
 * FCM's `AAAA…:APA91b…`.
 */
export const colonTokens: Detector = {
  kind: 'telegram-token',
  anchors: ':',
  trigger: ':(?:(?=AA[A-Za-z0-9_-]{30})(?<=[0-9]:)|(?=APA91b))',
  find(text, at, _state, out) {
    const fcm = text.startsWith('APA91b', at + 1);
    const re = fcm ? FCM : TELEGRAM;
    const from = fcm ? runStart(text, at, 21, isToken) : runStart(text, at, 11, isDigit);
    re.lastIndex = from;
    if (!re.test(text)) return -1;
    out.push({ start: from, end: re.lastIndex, kind: fcm ? 'fcm-key' : 'telegram-token' });
    return re.lastIndex;
  },
};

/** A Discord bot token's three parts: the id in base64, a time stamp, an HMAC. */
const DISCORD =
  /(?<![A-Za-z0-9_-])([A-Za-z0-9]{23,28})\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/y;
/** A Discord webhook's token: `discord.com/api/webhooks/<id>/<token>`. */
const WEBHOOK =
  /\.com(?:\\*\/)api(?:\\*\/)webhooks(?:\\*\/)[0-9]{15,22}(?:\\*\/)([A-Za-z0-9_-]{40,100})(?![A-Za-z0-9_-])/y;
const MIXED = /^(?=[^]*[0-9])(?=[^]*[A-Z])(?=[^]*[a-z])/;

/** Discord bot tokens and webhook URLs' tokens (the `.` after `discord`). */
export const discordToken: Detector = {
  kind: 'discord-token',
  anchors: '.',
  trigger:
    `\\.(?:(?=[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27})(?<=${EDGE}[A-Za-z0-9]{23,28}\\.)` +
    '|(?=com(?:\\\\*/)api)(?<=discord(?:app)?\\.))',
  find(text, at, _state, out) {
    if (text.startsWith('com', at + 1) && /discord(?:app)?$/.test(text.slice(at - 10, at))) {
      WEBHOOK.lastIndex = at;
      const m = WEBHOOK.exec(text);
      if (!m) return -1;
      const end = WEBHOOK.lastIndex;
      out.push({ start: end - m[1].length, end, kind: 'discord-webhook' });
      return end;
    }
    const from = runStart(text, at, 28, isToken);
    DISCORD.lastIndex = from;
    const m = DISCORD.exec(text);
    if (!m || !MIXED.test(m[0]) || !/[0-9]/.test(m[1])) return -1;
    out.push({ start: from, end: DISCORD.lastIndex, kind: 'discord-token' });
    return DISCORD.lastIndex;
  },
};

/** Salesforce access tokens (session ids): the org id `00D…`, `!`, the session part. */
const SALESFORCE = /(?<![A-Za-z0-9])00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{40,1024}/y;
export const salesforceToken: Detector = {
  kind: 'salesforce-token',
  anchors: '!',
  trigger: `!(?=[A-Za-z0-9._]{40})(?<=${EDGE_ALNUM}00D[A-Za-z0-9]{12,15}!)`,
  find(text, at, _state, out) {
    const from = runStart(text, at, 18, isAlnum);
    SALESFORCE.lastIndex = from;
    if (!SALESFORCE.test(text)) return -1;
    out.push({ start: from, end: SALESFORCE.lastIndex, kind: 'salesforce-token' });
    return SALESFORCE.lastIndex;
  },
};
const isAlnum = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

// --- more service tokens by their documented prefix (review 20) ---------------------------------
//
// Each row: kind, literal prefix, what follows it. The anchor is the prefix's first character
// that is not a letter or digit (`_` of `dckr_pat_`, `-` of `NRAK-`, `.` of `sl.`), as for the
// vendored rules (./rules): one detector per anchor character. NEAR in ./patterns lets `_`
// candidates through after the words before the anchor (FORMAT_HEADS) and `-` after their last
// letters. A format with a weak prefix (`key-`, `secret_`, `xai-`) takes exactly its length and
// nothing glued after it; one with a distinctive prefix is masked to the end of its alphabet.

const RUN = `,${MAX_TOKEN_RUN}}`;
const HEX = '[0-9a-f]';
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const END_TOKEN = '(?![A-Za-z0-9_-])';

const FORMATS: readonly (readonly [kind: string, prefix: string, body: string, edge?: string])[] = [
  // Docker Hub personal access tokens.
  ['docker-token', 'dckr_pat_', `[A-Za-z0-9_-]{27${RUN}`],
  // PlanetScale passwords and service tokens.
  ['planetscale-token', 'pscale_pw_', `[A-Za-z0-9_-]{43${RUN}`],
  ['planetscale-token', 'pscale_tkn_', `[A-Za-z0-9_-]{43${RUN}`],
  // New Relic user API keys.
  ['newrelic-key', 'NRAK-', `[A-Z0-9]{27}${END_ALNUM}`],
  // Square: an application secret, an access token.
  ['square-token', 'sq0csp-', `[A-Za-z0-9_-]{43${RUN}`],
  ['square-token', 'sq0atp-', `[A-Za-z0-9_-]{22${RUN}`],
  // Mailgun's (legacy) private API keys: exactly 32 hex, not part of a name or path
  // (`cache-key-<md5>`, `s3://b/key-<md5>`).
  ['mailgun-key', 'key-', `${HEX}{32}${END_TOKEN}`, `${EDGE}(?<![./])`],
  // Supabase access tokens.
  ['supabase-token', 'sbp_', `${HEX}{40}${END_ALNUM}`],
  // Netlify personal access tokens.
  ['netlify-token', 'nfp_', `[A-Za-z0-9]{36}${END_ALNUM}`],
  // SonarQube user and project tokens.
  ['sonarqube-token', 'squ_', `${HEX}{40}${END_ALNUM}`],
  ['sonarqube-token', 'sqp_', `${HEX}{40}${END_ALNUM}`],
  // xAI and Perplexity API keys.
  ['xai-key', 'xai-', `[A-Za-z0-9]{80}${END_ALNUM}`],
  ['perplexity-key', 'pplx-', `[A-Za-z0-9]{48}${END_ALNUM}`],
  // Replicate API tokens.
  ['replicate-token', 'r8_', `[A-Za-z0-9]{37}${END_ALNUM}`],
  // LangSmith personal access tokens and service keys.
  ['langsmith-key', 'lsv2_pt_', `${HEX}{32}_${HEX}{10}${END_ALNUM}`],
  ['langsmith-key', 'lsv2_sk_', `${HEX}{32}_${HEX}{10}${END_ALNUM}`],
  // Heroku API keys (v2).
  ['heroku-token', 'HRKU-', `[A-Za-z0-9_-]{36${RUN}`],
  // Figma personal access tokens.
  ['figma-token', 'figd_', `[A-Za-z0-9_-]{40${RUN}`],
  // Notion integration tokens, old and new.
  ['notion-token', 'secret_', `[A-Za-z0-9]{43}${END_ALNUM}`],
  ['notion-token', 'ntn_', `[A-Za-z0-9]{46}${END_ALNUM}`],
  // HubSpot private app tokens (the North America and EU regions).
  ['hubspot-token', 'pat-na1-', `${UUID}${END_TOKEN}`],
  ['hubspot-token', 'pat-eu1-', `${UUID}${END_TOKEN}`],
  // Grafana Cloud API tokens (base64url, maybe padded).
  ['grafana-token', 'glc_', `[A-Za-z0-9_-]{32${RUN}={0,2}`],
  // Dropbox short-lived access tokens.
  ['dropbox-token', 'sl.', `[A-Za-z0-9_-]{130${RUN}`],
  // Prefect Cloud API keys; Pulumi access tokens.
  ['prefect-token', 'pnu_', `[A-Za-z0-9]{36}${END_ALNUM}`],
  ['pulumi-token', 'pul-', `${HEX}{40}${END_ALNUM}`],
  // Review 24: Supabase secret API keys (`sb_publishable_` is public); Tailscale auth, API,
  // OAuth client, SCIM and webhook keys; NVIDIA API keys; PostHog personal API keys; Resend
  // API keys; Yandex OAuth tokens; Google OAuth refresh tokens; Doppler service, CLI and
  // service account tokens.
  ['supabase-token', 'sb_secret_', `[A-Za-z0-9_-]{24${RUN}`],
  [
    'tailscale-key',
    'tskey-',
    `(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,64}-[A-Za-z0-9]{16${RUN}`,
  ],
  ['nvidia-key', 'nvapi-', `[A-Za-z0-9_-]{60${RUN}`],
  ['posthog-key', 'phx_', `[A-Za-z0-9]{40,64}${END_ALNUM}`],
  ['resend-key', 're_', `[A-Za-z0-9]{8}_[A-Za-z0-9]{24}${END_ALNUM}`],
  ['yandex-token', 'y0_', `[A-Za-z0-9_-]{50${RUN}`],
  ['google-refresh-token', '1//0', `[A-Za-z0-9_-]{40${RUN}`],
  ['doppler-token', 'dp.st.', `(?:[a-z0-9_-]{2,35}\\.)?[A-Za-z0-9]{40,44}${END_ALNUM}`],
  ['doppler-token', 'dp.ct.', `[A-Za-z0-9]{40,44}${END_ALNUM}`],
  ['doppler-token', 'dp.sa.', `[A-Za-z0-9]{40,44}${END_ALNUM}`],
  // Formats of gitleaks' rules, here for PREFILTER's size (a vendored rule's trigger holds its
  // body): Shopify custom and private app tokens, Slack app tokens, RubyGems API keys, Sentry
  // user and organization tokens.
  ['shopify-token', 'shpca_', `[a-fA-F0-9]{32${RUN}`],
  ['shopify-token', 'shppa_', `[a-fA-F0-9]{32${RUN}`],
  ['slack-token', 'xapp-', '\\d-[A-Za-z0-9]+-\\d+-[A-Za-z0-9]+'],
  ['rubygems-token', 'rubygems_', `${HEX}{48}${END_ALNUM}`],
  ['sentry-token', 'sntryu_', `${HEX}{64}${END_ALNUM}`],
  [
    'sentry-token',
    'sntrys_',
    'eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)' +
      '[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43}(?![a-zA-Z0-9+/])',
  ],
  // Mapbox secret tokens: `sk.` + base64 of `{"u":…` + `.` + the signature (`pk.` is public).
  [
    'mapbox-token',
    'sk.eyJ1',
    `[A-Za-z0-9_-]{20,${MAX_TOKEN_RUN}}\\.[A-Za-z0-9_-]{20,64}${END_TOKEN}`,
  ],
];

const FORMAT_RULES: PrefixRule[] = FORMATS.map(([kind, prefix, body, edge = EDGE]) => ({
  kind,
  prefix,
  body,
  source: `${edge}${escape(prefix)}${body}`,
  back: prefix.search(/[^A-Za-z0-9]/),
}));

/** Per anchor character, the words before it that start a format's prefix (`dckr`, `NRAK`). */
export const FORMAT_HEADS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  [...new Set(FORMAT_RULES.map((r) => r.prefix[r.back]))].map((a) => [
    a,
    [
      ...new Set(
        FORMAT_RULES.filter((r) => r.prefix[r.back] === a).map((r) => r.prefix.slice(0, r.back)),
      ),
    ],
  ]),
);

/**
 * One detector per anchor character. Its trigger is only the words before the anchor and a run
 * of token characters after it, not each rule's body as the vendored rules' (./rules): PREFILTER
 * joins every trigger into one regex, and V8 stops optimizing a regex whose source passes 20 KB
 * (kRegExpTooLargeToOptimize): with the bodies, the texts dense enough with anchors to be
 * left to PREFILTER took five times as long (review 20).
 */
const FORMAT_DETECTORS: Detector[] = Object.entries(FORMAT_HEADS).map(([a, heads]) => ({
  ...anchorDetector(
    a,
    FORMAT_RULES.filter((r) => r.prefix[r.back] === a),
  ),
  trigger: `${escape(a)}(?<=(?:${heads.map(escape).join('|')})${escape(a)})(?=[A-Za-z0-9_./-]{8})`,
}));

/**
 * Atlassian API tokens: `ATATT3` + 180-200 base64url characters and `=`, and its Cloud admin
 * tokens, `ATCTT3` (review 24), alike (found by their needles).
 */
export const atlassianToken = regexDetector({
  kind: 'atlassian-token',
  anchors: '3',
  // No EDGE in the trigger (a long look-behind; PREFILTER's size, see FORMAT_DETECTORS).
  trigger: '3(?<=AT[AC]TT3)(?=[A-Za-z0-9_=-]{180})',
  back: 5,
  source: `${EDGE}AT[AC]TT3[A-Za-z0-9_=-]{180,${MAX_TOKEN_RUN}}`,
});

/**
 * Meta (Facebook, Instagram, WhatsApp) access tokens: `EAA` + 90 or more letters and digits,
 * with a digit (review 25). Found by the needle `EAA` (patterns.ts NEEDLES).
 */
export const metaToken = regexDetector({
  kind: 'meta-token',
  anchors: 'E',
  // Short triggers (PREFILTER's size, see FORMAT_DETECTORS): the source checks the rest.
  trigger: 'E(?=AA[A-Za-z0-9]{90})',
  back: 0,
  source: `${EDGE_ALNUM}EAA(?=[A-Za-z]*[0-9])[A-Za-z0-9]{90,${MAX_TOKEN_RUN}}${END_ALNUM}`,
});

/**
 * Alibaba Cloud AccessKey ids: `LTAI` + 12 or 20 letters and digits, with a digit (review 25;
 * anchored on the `I`, a character the scan already looks for: AWS's `AKIA`).
 */
export const alibabaKeyId = regexDetector({
  kind: 'alibaba-key',
  anchors: 'I',
  trigger: 'I(?<=LTAI)(?=[A-Za-z0-9]{12})',
  back: 3,
  source: `${EDGE_ALNUM}LTAI(?=[A-Za-z]{0,19}[0-9])[A-Za-z0-9]{12}(?:[A-Za-z0-9]{8})?${END_ALNUM}`,
});

/** Airtable personal access tokens: `pat` + 14 letters and digits, `.`, 64 hex. */
export const airtableToken = regexDetector({
  kind: 'airtable-token',
  anchors: '.',
  trigger: `\\.(?=${HEX}{64})(?<=pat[A-Za-z0-9]{14}\\.)`,
  back: 17,
  literal: 'pat',
  source: `${EDGE}pat[A-Za-z0-9]{14}\\.${HEX}{64}${END_ALNUM}`,
});

const OTHER_MODULES_KINDS = new Set([
  'grafana-token',
  'shopify-token',
  'doppler-token',
  'slack-token',
]);

/** The kinds of this module. */
export const SERVICE_TOKEN_KINDS: readonly string[] = [
  'databricks-token',
  'twilio-key',
  'nuget-key',
  'telegram-token',
  'fcm-key',
  'discord-token',
  'discord-webhook',
  'salesforce-token',
  // Not the kinds other modules list (gitleaks' grafana, shopify, doppler; formats.ts' slack).
  ...new Set(FORMATS.map(([kind]) => kind).filter((k) => !OTHER_MODULES_KINDS.has(k))),
  'atlassian-token',
  'airtable-token',
  'meta-token',
  'alibaba-key',
  // Algolia's key in `algoliasearch(appId, key)` (./credential-calls).
  'algolia-key',
  // Okta's `Authorization: SSWS …` (./assignments authorization).
  'okta-token',
];

export const SERVICE_TOKENS: readonly Detector[] = [
  databricksToken,
  twilioKey,
  nugetKey,
  nugetSetApiKey,
  colonTokens,
  discordToken,
  salesforceToken,
  ...FORMAT_DETECTORS,
  atlassianToken,
  airtableToken,
  metaToken,
  alibabaKeyId,
];
