import { EDGE, EDGE_ALNUM, EDGE_TOKEN, REDACTED, regexDetector, type Detector } from './detector';
import { wordParts } from './cut-token';
import { placeholderPassword } from './keys';
import { MAX_TOKEN_RUN } from './rules';

// --- tokens with a recognisable format --------------------------------------------------------

/** Three base64url segments, the first (the header) starting `eyJ` (`{"`). */
export const jwt = regexDetector({
  kind: 'jwt',
  anchors: 'J',
  // Also Grafana's legacy API key (grafanaApiKey), base64 of `{"k":"…` with no dot.
  trigger: `J(?<=${EDGE}eyJ)(?=[\\w-]{5,}\\.[\\w-]{5}|rIjoi[A-Za-z0-9]{70})`,
  back: 2,
  literal: 'eyJ',
  source: `${EDGE}eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*`,
});

/**
 * Grafana's legacy API key (review 24 medium 3): base64 of `{"k":"…","n":"…","id":…}`, as
 * gitleaks' grafana-api-key rule reads it (`eyJrIjoi[A-Za-z0-9]{70,400}={0,3}`); found by jwt's
 * trigger.
 */
export const grafanaApiKey = regexDetector({
  kind: 'grafana-token',
  anchors: 'J',
  trigger: '', // jwt's
  back: 2,
  literal: 'eyJrIjoi',
  source: `${EDGE}eyJrIjoi[A-Za-z0-9]{70,400}={0,3}(?![A-Za-z0-9])`,
  // Grafana's JSON names the key (`"n":`); Power BI's embed `?r=eyJrIjoi…` holds `"t":`.
  pick: (m) => (/"n":/.test(Buffer.from(m[0], 'base64').toString('latin1')) ? m.index : -1),
});

/**
 * An AWS access key id (long-term AKIA, temporary ASIA). Standing apart, with 16 of `A-Z0-9`;
 * glued to letters or digits before or after it (`cccAKIA…`, `AKIA…abc`, a log that lost its
 * separator: reviews H5 and r12) only with its documented alphabet (base32: `A-Z`, `2-7`) and
 * its 16 characters, masked then to the end of that alphabet's run (`AKIA…7` whole, `abc` of
 * `AKIA…abc` not). The group `edge` is set when it stands apart.
 */
const AWS_KEY_ID = `(?:${EDGE_ALNUM}(?<edge>)A(?:KIA|SIA)[A-Z0-9]{16}(?![A-Za-z0-9])|A(?:KIA|SIA)[A-Z2-7]{16,})`;
/** The key id as awsSecretAfterKeyId reads it: apart from what follows (a pair is written so). */
const AWS_KEY_ID_APART = `(?:${EDGE_ALNUM}(?<edge>)A(?:KIA|SIA)[A-Z0-9]{16}|A(?:KIA|SIA)[A-Z2-7]{16})(?![A-Za-z0-9])`;

/**
 * Anchored on the `I` of AKIA/ASIA: one first character for both (the prefilter has room for
 * 16 distinct first characters before V8 drops its fast scan; see DETECTORS).
 */
export const awsAccessKey = regexDetector({
  kind: 'aws-access-key',
  anchors: 'I',
  // What stands before first: not an I after an earlier AKIA/ASIA of the same run of the
  // alphabet, which masks to the run's end (`AKIA` repeated is one key id: its first I only is
  // tried, where every I read 16 characters ahead, 19 -> 45 ms); then the alphabet's 16
  // characters (whatever follows: review r12), or 16 of `A-Z0-9` apart.
  trigger: `I(?<=A[KS]I)(?<!A[KS]IA[A-Z2-7]*?A[KS]I)(?=A(?:[A-Z2-7]{16}|[A-Z0-9]{16}(?![A-Za-z0-9])))`,
  back: 2,
  source: AWS_KEY_ID,
});

/**
 * An AWS secret key written a little after its key id (`AKIA… / wJalr…`, `AKIA… secret: …`,
 * as people paste a pair, or alone on the next line): 40 characters of its alphabet with upper
 * and lower case and a digit, within 40 characters of the id on its line or one of the next two.
 * Runs where the key id's trigger fires.
 */
export const awsSecretAfterKeyId = regexDetector({
  kind: 'aws-secret-key',
  anchors: 'I',
  trigger: '', // awsAccessKey's
  back: 2,
  // The key id's 16 characters end 18 after the I: no letter or digit there.
  quick: (text, at) => !isAlnumAt(text, at + 18),
  source:
    `${AWS_KEY_ID_APART}(?:[^\\r\\n]{0,40}?\\r?\\n){0,2}[^\\r\\n]{0,40}?(?<![A-Za-z0-9/+=])` +
    `(?=[A-Za-z0-9/+]{0,39}[0-9])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])` +
    `(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
  pick: (m, end) => end - (m.groups?.secret.length ?? 0),
});

function isAlnumAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/**
 * Google API keys: `AIza` and 35 URL-safe characters; glued to letters or digits before it
 * (`keyxAIza…`: review r12) with exactly 35, as AWS key ids and Stripe keys.
 */
export const gcpApiKey = regexDetector({
  kind: 'gcp-api-key',
  anchors: 'z',
  // Glued: what ends the 35 characters first (one fixed-length skip: `AIza` repeated fails
  // there, where reading the alphabet at every z cost 35 steps).
  trigger:
    `z(?<=AIz)(?:(?<=${EDGE_TOKEN}AIz)(?=a[0-9A-Za-z_-]{35})` +
    `|(?![\\s\\S]{36}[0-9A-Za-z_-])(?=a[0-9A-Za-z_-]{35}))`,
  back: 2,
  source: `(?:${EDGE_TOKEN}AIza[0-9A-Za-z_-]{35,}|AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-]))`,
});

/**
 * GitHub's prefixes and their 36 characters are distinctive enough to need no edge: a token
 * glued to a word or a number (`Token: xghp_…`, a log that lost its separator) is the token.
 */
export const githubToken = regexDetector({
  kind: 'github-token',
  anchors: '_',
  trigger: `_(?<=gh[pousr]_)(?=[A-Za-z0-9]{36})`,
  back: 3,
  source: `gh[pousr]_[A-Za-z0-9]{36,}`,
});

export const githubPat = regexDetector({
  kind: 'github-token',
  anchors: '_',
  trigger: `_(?<=github_pat_)(?=[A-Za-z0-9_]{22})`,
  back: 10,
  source: `github_pat_[A-Za-z0-9_]{22,}`,
});

/**
 * Secret and restricted keys, live and test (`pk_` publishable keys are public). Glued to a
 * letter or digit before it (`abcsk_live_…`: review H5) only as Stripe writes one: 24 or more
 * letters and digits with a digit and both cases (not `task_test_` and an identifier).
 */
export const stripeKey = regexDetector({
  kind: 'stripe-key',
  anchors: '_',
  trigger: `_(?<=[sr]k_)(?=(?:live|test)_[A-Za-z0-9]{10})`,
  back: 2,
  source: `(?:${EDGE_TOKEN}(?<edge>)|)[sr]k_(?:live|test)_(?<body>[A-Za-z0-9]{10,})`,
  pick: (m, end) => {
    if (m.groups?.edge !== undefined) return end - m[0].length;
    const body = m.groups?.body ?? '';
    const random = body.length >= 24 && /\d/.test(body) && /[A-Z]/.test(body) && /[a-z]/.test(body);
    return random && !/[A-Za-z0-9]/.test(m.input[end] ?? '') ? end - m[0].length : -1;
  },
});

/**
 * Stripe's webhook signing secrets (review 23: `whsec_…` was served clear unless a secret's
 * name stood before it): `whsec_` and 32 or more letters and digits (24 random ones: review 24), standing apart or glued
 * to an identifier's `_`, as the other Stripe keys; the run masked whole.
 */
export const stripeWebhookSecret = regexDetector({
  kind: 'stripe-key',
  anchors: '_',
  trigger: `_(?<=${EDGE_TOKEN}whsec_)(?=[A-Za-z0-9]{24})`,
  back: 5,
  source: `whsec_[A-Za-z0-9]{24,}`,
  // 24 to 31 (review 24: `STRIPE_WEBHOOK=whsec_` and 26 was clear) when random: a digit, a
  // capital and a small letter.
  pick: (m, end) => {
    const body = m[0].slice(6);
    if (body.length >= 32) return end - m[0].length;
    const random = /\d/.test(body) && /[A-Z]/.test(body) && /[a-z]/.test(body);
    return random ? end - m[0].length : -1;
  },
});

/**
 * Slack tokens. Glued to letters or digits before it (`abcdxoxb-…`: review r12) only as Slack
 * writes them: an optional version digit, two or three numeric ids of 10-13 digits, then 24-64
 * letters and digits ending the token.
 */
export const slackToken = regexDetector({
  kind: 'slack-token',
  anchors: '-',
  // Glued: only before the numeric ids (`xoxb-` repeated is no candidate), not after another
  // prefix in the same run (`xoxb-1234567890-` repeated: 16 -> 42 ms without).
  trigger: `-(?<=xox[abprs]-)(?:(?<=${EDGE_TOKEN}xox[abprs]-)(?=[A-Za-z0-9-]{10})|(?=(?:\\d-)?\\d{10})(?<!xox[abprs]-[A-Za-z0-9-]*?xox[abprs]-))`,
  back: 4,
  literal: 'xox',
  source:
    `(?:${EDGE_TOKEN}xox[abprs]-[A-Za-z0-9-]{10,}` +
    `|xox[abprs]-(?:\\d-)?(?:\\d{10,13}-){2,3}[A-Za-z0-9]{24,64}(?![A-Za-z0-9-]))`,
});

/**
 * Anthropic keys. Glued to letters or digits before it (review r12) only as documented:
 * `sk-ant-api03-` (or `admin01-`), 93 URL-safe characters and `AA`, ending the token.
 */
export const anthropicKey = regexDetector({
  kind: 'anthropic-key',
  anchors: '-',
  // Glued: only before the documented prefixes (`sk-a` repeated is no candidate), for openaiKey
  // too; not after another such prefix in the same run (`sk-proj-` repeated: 83 ms without,
  // `sk-ant-api03-` 47), then Anthropic's `AA` and what follows (one fixed-length skip).
  trigger:
    `-(?<=sk-)(?:(?<=${EDGE_TOKEN}sk-)(?=[\\w-]{20})` +
    `|(?=ant-(?:api03|admin01)-)(?<!sk-ant-[\\w-]*?sk-)(?=[\\s\\S]{4}(?:api03-|admin01-[\\s\\S]{2})[\\s\\S]{93}AA(?![\\w-]))` +
    `|(?=(?:proj|svcacct|admin)-[\\w-]{40})(?<!sk-(?:proj|svcacct|admin)-[\\w-]*?sk-))`,
  back: 2,
  literal: 'sk-ant-',
  source:
    `(?:${EDGE_TOKEN}sk-ant-[A-Za-z0-9_-]{20,}` +
    `|sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA(?![A-Za-z0-9_-]))`,
});

/** Google OAuth 2.0 access tokens (`ya29.` and 20 or more URL-safe characters). */
export const googleAccessToken = regexDetector({
  kind: 'google-oauth-token',
  anchors: '.',
  trigger: `\\.(?<=${EDGE}ya29\\.)(?=[0-9A-Za-z_-]{20})`,
  back: 4,
  literal: 'ya29.',
  source: `${EDGE}ya29\\.[0-9A-Za-z_-]{20,}`,
});

/** Google OAuth client secrets: `GOCSPX-` and 28 characters. */
export const googleClientSecret = regexDetector({
  kind: 'google-client-secret',
  anchors: '-',
  trigger: `-(?<=${EDGE}GOCSPX-)(?=[\\w-]{20})`,
  back: 6,
  literal: 'GOCSPX-',
  source: `${EDGE}GOCSPX-[A-Za-z0-9_-]{20,}`,
});

/**
 * `sk-...` (48 random) and `sk-proj-...`: random, so with a digit and a capital. Glued to
 * letters or digits before it (review r12) only with a project, service account or admin
 * prefix (`sk-proj-`, `sk-svcacct-`, `sk-admin-`) and 40 or more characters with a digit and
 * both cases, ending the token.
 */
export const openaiKey = regexDetector({
  kind: 'openai-key',
  anchors: '-',
  trigger: '', // the anthropic trigger
  back: 2,
  literal: 'sk-',
  source:
    `(?:${EDGE}(?<edge>)sk-(?!ant-)[A-Za-z0-9_-]{20,}` +
    `|sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-]))`,
  pick: (m, end) => {
    const random = /\d/.test(m[0]) && /[A-Z]/.test(m[0]);
    const glued = m.groups?.edge === undefined;
    if (!random || (glued && !/[a-z]/.test(m[0].slice(m[0].indexOf('-', 3))))) return -1;
    return end - m[0].length;
  },
});

/** `Bearer <token>` outside an Authorization header: a token of 16+ characters with a digit. */
export const bearer = regexDetector({
  kind: 'bearer',
  anchors: 'B',
  trigger: `B(?<=${EDGE_ALNUM}B)(?=earer[ \\t]+[A-Za-z0-9._~+/-]{16})`,
  back: 0,
  source: `${EDGE_ALNUM}Bearer[ \\t]+([A-Za-z0-9._~+/-]{16,}=*)`,
  pick: (m, end) => (/\d/.test(m[1]) ? end - m[1].length : -1),
});

/** A password urlPasswordAtEnd reads (no `@`, no `:`), and what may follow it. */
const AT_END_PASSWORD = '[^\\s\\/?#"\'\\\\@:]{8,256}';
const AT_END = '(?:$|[\\r\\n"\']|\\\\+[nr"])';
const AT_END_URL = new RegExp(
  `:(?:\\\\*\\/){2}[^\\s:@\\/?#"'\\\\]*:(${AT_END_PASSWORD})(?=${AT_END})`,
  'y',
);

/**
 * `scheme://user:password@host`: masks the password (up to the last `@` of the authority). A
 * raw `#` in the password too (review 22: `postgres://bob:Zq8#mW2@db/app` was served clear, read
 * as a fragment; a fragment has no `@host` after it).
 */
const PORT_FRAGMENT = /^\d{1,5}#/;
export const urlCredentials = regexDetector({
  kind: 'url-credentials',
  anchors: ':',
  // `:\/\/` too: slashes escaped for sed (`s/…/postgres:\/\/app:pw@db/`) or for JSON.
  // Or 8 or more at its line's or string's end (urlPasswordAtEnd's).
  trigger:
    ':(?=(?:\\\\*\\/){2}[^\\s:@\\/?#"\'\\\\]*:(?:[^\\s\\/?"\'\\\\]*@|' +
    `${AT_END_PASSWORD}${AT_END}))`,
  back: 0,
  source: ':(?:\\\\*\\/){2}[^\\s:@\\/?#"\'\\\\]*:([^\\s\\/?"\'\\\\]+)@',
  quick: (text, at) => {
    const c = text.charCodeAt(at + 1);
    return c === 0x5c || (c === 0x2f && text.charCodeAt(at + 2) === 0x2f);
  },
  pick: (m, end) => {
    const pass = m[1];
    if (pass.startsWith(REDACTED) || /^\$\{?\w+\}?$/.test(pass) || placeholderPassword(pass)) {
      return -1;
    }
    // A port, then a fragment with an `@` (`http://host:8080#to@x`).
    if (PORT_FRAGMENT.test(pass)) return -1;
    return end - 1 - pass.length;
  },
  trimEnd: 1,
});

/**
 * `scheme://user:V` ending its line or string, no `@host` after it (`git clone
 * https://bob:V` then a line break, a JSON string's `"` or `\n`): a URL cut before its host.
 * The compact tier's cut head is masked so (./cut-token), and a text's last line
 * (endUrlPassword); review 21 saw the same URL in a full text's line served clear. Masked when
 * V looks like a password: 8 or more with a letter and a digit, not words, numbers and
 * versions between `-`, `_`, `.` (`docker://node:18-alpine3.19`); a port stays
 * (`http://localhost:3000`).
 */
export const urlPasswordAtEnd: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: '', // urlCredentials'
  find(text, at, _state, out) {
    const c = text.charCodeAt(at + 1);
    if (c !== 0x5c && !(c === 0x2f && text.charCodeAt(at + 2) === 0x2f)) return -1;
    AT_END_URL.lastIndex = at;
    const m = AT_END_URL.exec(text);
    if (!m) return -1;
    const pass = m[1];
    if (!/\d/.test(pass) || !/[A-Za-z]/.test(pass) || placeholderPassword(pass)) return -1;
    // Separated words, numbers and versions (a tag); `Summer2024` alone is a password's shape.
    if (/[-_.]/.test(pass) && wordParts(pass)) return -1;
    const end = AT_END_URL.lastIndex;
    out.push({ start: end - pass.length, end, kind: 'password' });
    return end;
  },
};

/** A user that looks generated: 12+ characters with upper and lower case and a digit, or 20+. */
const TOKEN_USER =
  /^(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])(?=\D*\d)[\w-]{12,}$|^(?=\D*\d)(?=[^A-Za-z]*[A-Za-z])[\w-]{20,}$/;
/**
 * `https://<token>@github.com/org/repo.git`: a token given as the URL's user, with no password
 * (review r19 M4: GitHub and GitLab take a token so, and it was served clear; `user:token@` is
 * urlCredentials'). Only a user that looks generated (TOKEN_USER): `https://bob@host` is a
 * name. Not Azure DevOps' `https://org1@dev.azure.com/org1/…`, whose user is the path's first
 * name. A DSN's key with a digit (dsn: Sentry's are lower-case hex) too.
 */
export const urlTokenUser = regexDetector({
  kind: 'url-credentials',
  anchors: ':',
  trigger: ':(?=(?:\\\\*\\/){2}[\\w-]{12,200}@)',
  back: 0,
  source: ':(?:\\\\*\\/){2}([\\w-]{12,200})@([\\w.-]{1,253})(?:\\\\*\\/)?([\\w-]{0,200})',
  quick: (text, at) => {
    const c = text.charCodeAt(at + 1);
    return c === 0x5c || (c === 0x2f && text.charCodeAt(at + 2) === 0x2f);
  },
  pick: (m) => {
    const user = m[1];
    if (m[3] === user || !m[2].includes('.')) return -1;
    if (!TOKEN_USER.test(user) && !(DSN_KEY.test(user) && dsn(m))) return -1;
    return m.index + m[0].indexOf(user);
  },
  extend: (m) => m.index + m[0].indexOf(m[1]) + m[1].length,
});

/** What an OAuth code is made of in a URL (Google's `4/0AX4…`, base64url, escapes). */
const OAUTH_CODE = '[A-Za-z0-9._~%+/-]';
/** A login's redirect before the code, on its URL (`/callback?`, `/oauth2/redirect?`). */
const REDIRECT = /callback|redirect|oauth|auth|login|signin|sso/i;
/** How far back on its URL the redirect's words are looked for. */
const REDIRECT_REACH = 256;
/**
 * An OAuth authorization code in a redirect URL (review 23: `/callback?code=4/0AX4XfWh…&state=…`
 * was served clear; with the client's secret it buys the user's tokens): `?code=` or `&code=`
 * and 16 or more URL characters with a letter and a digit, on a URL whose path or query names
 * a login's redirect (REDIRECT) or that carries a `state=`. Masked to the `&`, `#`, blank or
 * quote.
 */
export const oauthCode = regexDetector({
  kind: 'password',
  anchors: '=',
  trigger: `=(?<=[?&]code=)(?=${OAUTH_CODE}{16})`,
  back: 5,
  quick: (text, at) =>
    text.startsWith('code', at - 4) && (text[at - 5] === '?' || text[at - 5] === '&'),
  source: `[?&]code=(${OAUTH_CODE}{16,1024})(?!${OAUTH_CODE})`,
  pick: (m, end) => {
    const code = m[1];
    if (!/\d/.test(code) || !/[A-Za-z]/.test(code)) return -1;
    const text = m.input;
    let a = m.index;
    const lo = Math.max(0, a - REDIRECT_REACH);
    while (a > lo && !/[\s"'`<>]/.test(text[a - 1])) a--;
    const url = text.slice(a, m.index);
    if (!url.includes('://') && !url.startsWith('/')) return -1;
    if (REDIRECT.test(url) || /^[^\s"'`<>#]*[?&]state=/.test(text.slice(end, end + 512))) {
      return end - code.length;
    }
    return /[?&]state=/.test(url) ? end - code.length : -1;
  },
});

/** A DSN's public key: letters and digits with a digit (Sentry's are 32 hex digits). */
const DSN_KEY = /^(?=\D*\d)[A-Za-z0-9]{12,}$/;
/** Sentry's hosts (`o1.ingest.sentry.io`, `sentry.example.com`). */
const DSN_HOST = /(?:^|[.-])(?:sentry|ingest)[.-]/i;
/** A DSN's name before the URL's scheme (`SENTRY_DSN=https`, `"dsn": "https`, `dsn: 'https`). */
const DSN_NAME = /dsn\\*["'\]]*[ \t]*[:=][ \t]*\\*["'`]?[A-Za-z][\w+.-]{1,15}$/i;
/**
 * Whether the URL of `m` is a DSN (review 23: `SENTRY_DSN=https://abc123def456@o1.ingest.…`,
 * `"dsn": "https://…"` served the key clear, its user not TOKEN_USER's mixed case): its host
 * Sentry's, or a `dsn` key's value.
 */
function dsn(m: RegExpExecArray): boolean {
  return DSN_HOST.test(m[2]) || DSN_NAME.test(m.input.slice(Math.max(0, m.index - 40), m.index));
}

/**
 * An npm token glued to letters or digits before it (`xnpm_…`: review r12; the gitleaks rule
 * takes one standing apart, exactly 36 long and before a blank or quote): `npm_` and 36 letters
 * and digits or more, with both a letter and a digit in the first 36, masked to the end of the
 * run (review r13: `npm_` and 37, or 36 then `_x`, was not masked at all).
 */
export const npmTokenGlued = regexDetector({
  kind: 'npm-token',
  anchors: '_',
  trigger: `_(?<=npm_)(?=[A-Za-z0-9]{36})`,
  back: 3,
  source: `npm_(?=[A-Za-z0-9]{0,35}[0-9])(?=[A-Za-z0-9]{0,35}[A-Za-z])[A-Za-z0-9]{36,${MAX_TOKEN_RUN}}`,
});

/**
 * Hugging Face user and organisation tokens: `hf_` or `api_org_` and 34 letters or digits
 * (the vendored gitleaks rule takes letters only and misses most real tokens).
 */
export const huggingFaceToken = regexDetector({
  kind: 'huggingface-token',
  anchors: '_',
  // Glued to letters or digits before it too (`xhf_…`: review r12), not to `_` or `-`.
  // 34 or more, masked to the run's end (review r13: `hf_` and 35 or 40 was not masked at all).
  trigger: `_(?<=(?:${EDGE}|[A-Za-z0-9])(?:hf|api_org)_)(?=[A-Za-z0-9]{34})`,
  back: 0,
  source: `(?<=(?:${EDGE}|[A-Za-z0-9])(?:hf|api_org))_([A-Za-z0-9]{34,${MAX_TOKEN_RUN}})`,
  // Random: a digit, or both cases (not `hf_` and a 34-letter identifier).
  pick: (m) =>
    /\d/.test(m[1]) || (/[a-z]/.test(m[1]) && /[A-Z]/.test(m[1]))
      ? m.index - (m.input[m.index - 1] === 'f' ? 2 : 7)
      : -1,
});
