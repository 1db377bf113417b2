/**
 * The built-in secret detectors and the one scan that runs them.
 *
 * Speed: a plain regex per detector costs a full pass over the text each, so the detectors
 * share one prefilter instead. Each detector names an *anchor* character inside its secret or
 * its context (`J` of `eyJ`, `K`/`S` of `AKIA`/`ASIA`, `_` of `ghp_`, `:`/`=` after
 * `password`, ...) plus zero-width assertions around it, its *trigger*. The scan finds each
 * anchor character with `indexOf` (native, far faster than the regex engine's loop over every
 * character), drops in JavaScript the candidates whose neighbours no trigger of that character
 * accepts (NEAR), and tries that character's triggers, one sticky regex, at the rest; the
 * candidates are exactly where the alternation of all triggers (PREFILTER, the one-regex scan
 * it replaces, kept for the spec) matches. At a candidate, the detectors for that anchor
 * character run their own sticky regex from a fixed offset before the anchor. A trigger may be
 * looser than its detector, never stricter (a property test in the spec compares with trying
 * every detector at every anchor character).
 *
 * Linear time: every regex starts at a fixed place and has no nested unbounded quantifiers;
 * it fails within a bounded run of characters or matches it. After a detector matched
 * (whether it then masked or rejected the match) it skips candidates inside the stretch it
 * already read, so runs such as `eyJeyJeyJ...` or `password=password=...` are read once.
 * The spec times every detector against 1 MB adversarial strings.
 *
 * Everything here is ASCII: patterns never match inside non-ASCII characters.
 */

import {
  ASSIGNMENT_TRIGGER,
  keyEnd,
  assignment,
  authorization,
  awsSecretKey,
  azureAccountKey,
  cookie,
} from './assignments';
import { accountsBefore, hardhatAccounts, secretArray, secretObject } from './collections';
import { commandPasswords } from './commands';
import { hereStringPassword, stdinPassword } from './stdin-logins';
import type { Detector, ScanState, Span } from './detector';
import {
  anthropicKey,
  awsAccessKey,
  awsSecretAfterKeyId,
  bearer,
  gcpApiKey,
  githubPat,
  githubToken,
  googleAccessToken,
  googleClientSecret,
  grafanaApiKey,
  huggingFaceToken,
  jwt,
  npmTokenGlued,
  openaiKey,
  slackToken,
  stripeKey,
  stripeWebhookSecret,
  urlCredentials,
  urlPasswordAtEnd,
  urlTokenUser,
  oauthCode,
} from './formats';
import { optionSecrets } from './flags';
import { browserPassword, htmlPasswordValue } from './browser';
import { callSecret, secureStringPassword } from './calls';
import { xmlSecretElement } from './xml-elements';
import { envListValue } from './env-lists';
import { terraformDefault, tripleQuoted } from './config-values';
import {
  awsParameterValue,
  azureKeyList,
  cookieJarValue,
  urlSignature,
  vaultSecretId,
  vaultToken,
} from './cloud';
import { SET_COMMANDS, TOOL_ARGUMENTS } from './positional';
import { goDsnPassword, sqlIdentifiedBy, sqlPasswordLower, sqlPasswordUpper } from './sql';
import { cutToken } from './cut-token';
import { netrcPassword } from './netrc';
import { npmCredential } from './npmrc';
import { openVpnStaticKey, privateKey, privateKeyBase64, puttyPrivateKey } from './private-key';
import { rclonePair, wordPassword } from './spaced';
import {
  browserJsonFill,
  cookieValue,
  keyValuePair,
  sensitiveValue,
  ssmParameterValue,
} from './json-fields';
import { GITLEAKS_DETECTORS, GITLEAKS_KINDS } from './rules';
import { LINE_DETECTORS } from './lines';
import { FORMAT_HEADS, SERVICE_TOKEN_KINDS, SERVICE_TOKENS } from './service-tokens';
import { credentialCall } from './credential-calls';
import { cDefine, charArray } from './c-source';
import { mnemonicPhrase } from './mnemonics';
import { TOOL_SECRETS } from './tool-secrets';

export { ci } from './detector';
export type { Detector, ScanState, Span } from './detector';
export { MAX_PRIVATE_KEY_BLOCK } from './private-key';

/**
 * The kinds this module produces; `custom` is for REDACT_PATTERNS, `unchecked` for what a
 * byte range masks without seeing its start (./range).
 */
export const KINDS: readonly string[] = [
  'jwt',
  'aws-access-key',
  'aws-secret-key',
  'gcp-api-key',
  'google-oauth-token',
  'google-client-secret',
  'azure-storage-key',
  'github-token',
  'slack-token',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  ...GITLEAKS_KINDS,
  ...SERVICE_TOKEN_KINDS,
  'private-key',
  'bearer',
  'basic-auth',
  'cookie',
  'password',
  'url-credentials',
  'url-signature',
  'vault-token',
  'custom',
  'unchecked',
];

/**
 * Which kind a merged span of overlapping ones takes: private keys, then token formats
 * (80), then custom patterns, then the detectors that go by context (so a JWT after
 * `Bearer ` or `password=` is a `jwt`).
 */
const PRIORITY: Record<string, number> = {
  'private-key': 100,
  custom: 70,
  bearer: 60,
  'basic-auth': 60,
  'url-credentials': 50,
  cookie: 45,
  password: 40,
  unchecked: 10,
};
export function priorityOf(kind: string): number {
  return PRIORITY[kind] ?? 80;
}

// --- the scan ---------------------------------------------------------------------------------

/**
 * Every built-in detector, in the order they are tried at a shared anchor. Their anchors are 16
 * distinct characters (B J : I = z . - _ | < w ( W and the full-width colon and equals sign).
 * Each anchor character costs the scan one `indexOf` pass per text and a call per occurrence:
 * anchor on one of these, and on a rare character rather than a frequent letter (a `t` anchor
 * once took figure 7 from 1.95x to 3.03x). A trigger added to a character of NEAR must keep
 * NEAR a necessary condition (the spec compares the scan with PREFILTER); put the test that
 * fails most often first (a look-ahead for the next literal before a long look-behind), and
 * let detectors that share an anchor share one trigger (callSecret's, secureString's).
 */
export const DETECTORS: readonly Detector[] = [
  privateKey,
  privateKeyBase64,
  puttyPrivateKey,
  openVpnStaticKey,
  jwt,
  grafanaApiKey,
  awsAccessKey,
  awsSecretAfterKeyId,
  awsSecretKey,
  azureAccountKey,
  gcpApiKey,
  googleAccessToken,
  googleClientSecret,
  huggingFaceToken,
  npmTokenGlued,
  githubToken,
  githubPat,
  slackToken,
  anthropicKey,
  openaiKey,
  stripeKey,
  stripeWebhookSecret,
  ...GITLEAKS_DETECTORS,
  ...SERVICE_TOKENS,
  authorization,
  cookie,
  bearer,
  urlCredentials,
  urlPasswordAtEnd,
  urlTokenUser,
  oauthCode,
  commandPasswords,
  stdinPassword,
  hereStringPassword,
  optionSecrets,
  netrcPassword,
  npmCredential,
  assignment,
  secretArray,
  secretObject,
  hardhatAccounts,
  browserPassword,
  htmlPasswordValue,
  browserJsonFill,
  keyValuePair,
  cookieValue,
  sensitiveValue,
  ssmParameterValue,
  callSecret,
  credentialCall,
  cDefine,
  charArray,
  mnemonicPhrase,
  urlSignature,
  vaultToken,
  vaultSecretId,
  azureKeyList,
  awsParameterValue,
  cookieJarValue,
  ...SET_COMMANDS,
  sqlPasswordUpper,
  sqlIdentifiedBy,
  sqlPasswordLower,
  wordPassword,
  rclonePair,
  goDsnPassword,
  ...TOOL_ARGUMENTS,
  secureStringPassword,
  xmlSecretElement,
  envListValue,
  tripleQuoted,
  terraformDefault,
  ...LINE_DETECTORS,
  ...TOOL_SECRETS,
  cutToken,
];

/**
 * Triggers that start with the same anchor character share one alternative, `-(?:...|...)`:
 * V8 then tests that character once, not once per trigger (text is full of `-`, `_`, `.`).
 */
function grouped(triggers: string[]): string {
  const byHead = new Map<string, string[]>();
  for (const t of triggers) {
    const head = /^(?:\\.|[^\\[(])/.exec(t)?.[0] ?? t;
    byHead.set(head, [...(byHead.get(head) ?? []), head === t ? '' : t.slice(head.length)]);
  }
  return [...byHead]
    .map(([head, rests]) =>
      rests.length === 1 ? head + rests[0] : `${head}(?:${rests.join('|')})`,
    )
    .join('|');
}

/** Every trigger, each consuming exactly its anchor character. */
const TRIGGERS = [...DETECTORS.map((d) => d.trigger).filter((t) => t !== ''), ASSIGNMENT_TRIGGER];

/**
 * The triggers as one regex: what the scan finds is exactly where this matches (the spec
 * compares them).
 */
export const PREFILTER = new RegExp(grouped(TRIGGERS), 'g');

/** Detector indexes by anchor character code. */
const BY_ANCHOR: (number[] | undefined)[] = [];
DETECTORS.forEach((d, i) => {
  for (const c of d.anchors) (BY_ANCHOR[c.charCodeAt(0)] ??= []).push(i);
});

/**
 * Each detector's own trigger, sticky; null for one that rides a shared trigger (''). A hit
 * is any detector's trigger: a detector runs there only where its own matches too (review
 * 23's and 24's baits hit one trigger at every `:` or `.` and ran every detector of that
 * anchor at each, some reading 256 characters back: 1 MB of `sl.a` took 3 s of CPU).
 */
const OWN_TRIGGER = DETECTORS.map((d) => (d.trigger === '' ? null : new RegExp(d.trigger, 'y')));

/** The first element of a trigger: an escaped or plain character, or a character class. */
function headOf(trigger: string): string {
  return /^(?:\\.|\[(?:\\.|[^\\\]])*\]|[^\\[(])/.exec(trigger)?.[0] ?? trigger;
}

/**
 * Where to look for each anchor character's candidates: `needle` is text every one of its
 * triggers needs, `offset` where the anchor is in it. By default the character itself.
 */
const NEEDLES: Record<string, [needle: string, offset: number][]> = {
  // Every `w` trigger is the w of `passw` with a look-ahead for `ord` (./netrc, ./sql, ./spaced).
  w: [['word', 0]],
  // The only `h` trigger is ngrok's `authtoken` (./positional TOOL_ARGUMENTS). A needle is
  // searched from its first character on: one of common letters (`a`, `n`, `o`, `s`) stops
  // the search at every such letter, so each needle is the part of its word from a rarer one
  // (`authtoken`, `net user`, `setapikey` and `oy2` cost 190 ms per pass over the 64 MiB of
  // bench figure 7's strings, `htok`, `user`, `pikey` and `y2` 90; the triggers check the rest).
  h: [['htok', 0]],
  // The only `V` trigger is Dockerfile's `ENV NAME value` (./lines dockerEnv).
  V: [
    ['ENV ', 2],
    ['ENV\t', 2],
  ],
  // Service tokens without punctuation (./service-tokens): `dapi…`, `SK…`, `oy2…`, `setapikey`.
  p: [
    ['dapi', 2],
    // `schtasks … /rp PASSWORD` (./lines), any case.
    ['/rp', 2],
    ['/Rp', 2],
  ],
  P: [
    ['/rP', 2],
    ['/RP', 2],
  ],
  K: [['SK', 1]],
  y: [
    ['y2', 0],
    ['pikey', 4],
  ],
  // `net user NAME PASSWORD` (./tool-secrets).
  u: [['user', 0]],
  // Meta's access tokens, `EAA…` (./service-tokens, review 25).
  E: [['EAA', 0]],
  // Atlassian's `ATATT3…` (./service-tokens, review 20).
  '3': [
    ['ATATT3', 5],
    ['ATCTT3', 5],
  ],
};

/**
 * Needles found by a rarer character of theirs than the first (NEEDLES), their words checked
 * around each: `indexOf('htok')` stops at every `h` (18 ms per pass over figure 7's strings),
 * one search for `k` finds both `htok` and `pikey` (35 ms before, 5 after); `2` finds `y2`,
 * `V` both `ENV` needles.
 */
const BY_RARE: Record<string, string> = {
  htok: 'k',
  pikey: 'k',
  y2: '2',
  'ENV ': 'V',
  'ENV\t': 'V',
};

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Which characters may come just before or just after a candidate (ASCII tables). */
interface Around {
  prev: Uint8Array;
  next: Uint8Array;
}
function around(prevChars: string, nextChars = ''): Around {
  return { prev: codes(prevChars), next: codes(nextChars) };
}

/** An ASCII character-class table, by character code. */
function codes(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (const c of chars) t[c.charCodeAt(0)] = 1;
  return t;
}

/** `c` in lower case for the pair tests (ASCII letters only, or any non-ASCII character). */
function lower(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  return String.fromCharCode(c).toLowerCase().charCodeAt(0);
}

/**
 * Every trigger of `:`, `=` and the full-width ones needs a key before it, past quotes and
 * blanks, ending in one of KEY_LAST's endings (its last three characters, or two for the
 * endings any character may precede: `cfg`, `ль`, `密码`...) or in a digit (KEY_LAST's
 * `_v4`), or is a URL's `://`. Besides, `:` follows `Private-Lines`; `sensitive`, `value`,
 * `text`, `input`, `keys` before `":`; `http`, `https`; `env`; and `=` follows `sig`,
 * `Signature`, `Token`. Three characters, not two: `temperature:`, `localhost:`, `NODE_ENV=`,
 * `--config=` end in a key's last two letters (`re`, `st`, `nv`, `ig`) but in none of its
 * last three, and fail here instead of in the triggers' long look-behinds (figure 7).
 * Kept by hand beside KEY_LAST (./assignments); the spec tries every three-letter ending.
 */
const KEY_LAST_ENDINGS = [
  ...['ord', 'pwd', 'swd', 'rod', 'old', 'sse', 'ase', 'kie', 'fre', 'ode', 'ive', 'lue'],
  ...['ass', 'ies', 'rds', 'ets', 'als', 'ens', 'eys', 'ret', 'ort', 'est', 'ken', 'ion'],
  ...['son', 'key', 'ial', 'cal', 'uth', 'mdp', 'kup', 'ena', 'eña', 'ana', 'nha', 'ola'],
  ...['slo', 'sło', 'ing', 'dev', 'new', 'fg', 'ль', '密码', '密碼', 'ード', '번호'],
  ...['szó', 'szo', 'hẩu', 'hau', 'ｒｄ'],
  // Hindi, Arabic, Persian, Hebrew, Thai, Greek (either case), Indonesian (review r17 M4).
  // DB_PW, GITHUB_PAT (review r17 M4).
  ...['pw', 'pat'],
  ...['्ड', 'ور', 'سر', 'מה', 'מא', 'าน', 'ός', 'ος', 'όσ', 'οσ', 'ΌΣ', 'ΟΣ', 'ndi'],
  // KEY_TAILS (review r14 M2): whole where the last three letters end common keys (`content`,
  // `domain`); `db` after a key word's last letter or a separator (`password_db`, `tokenDb`).
  ...['confirm', 'again', 'repeat', 'current', 'retype', 'previous', 'rev'],
  ...['_db', '-db', 'ddb', 'sdb', 'ndb', 'tdb', 'ydb', 'edb', 'hdb', 'ldb', 'adb', 'odb'],
  // KEY_TAILS' environments and accounts (review r16 L).
  ...['_qa', '-qa', 'uat', 'stg', 'prd', 'admin', 'root'],
  // KEY_TAILS' `new` in other languages (review r19).
  ...['neu', 'eau', 'eva', 'evo', 'ova', 'ovo'],
  // KEYSTORE_PIN (review 19).
  'pin',
  // bearer (review 23).
  'rer',
  // otp, totp; a key's _SALT (review 25).
  'otp',
  '_salt',
  '-salt',
];
/**
 * Lower-case pair -> the first characters allowed before it (ASCII; 2: a longer ending's, see
 * `long`), or true for any.
 */
type Endings = Map<number, Uint8Array | true> & { long?: string[] };
function endings(words: string[]): Endings {
  const m: Endings = new Map();
  m.long = words.filter((w) => w.length > 3);
  for (const w of words) {
    const n = w.length;
    const k = w.charCodeAt(n - 2) * 0x10000 + w.charCodeAt(n - 1);
    if (n === 2) {
      m.set(k, true);
      continue;
    }
    let t = m.get(k);
    if (t === undefined) m.set(k, (t = new Uint8Array(128)));
    if (t !== true && t[w.charCodeAt(n - 3)] !== 1) t[w.charCodeAt(n - 3)] = n === 3 ? 1 : 2;
  }
  return m;
}
/** Whether the key ending at `i` ends with one of `long` (lower case). */
function longEnding(text: string, i: number, long: string[]): boolean {
  next: for (const w of long) {
    for (let k = 0; k < w.length; k++) {
      if (lower(text.charCodeAt(i - w.length + 1 + k)) !== w.charCodeAt(k)) continue next;
    }
    return true;
  }
  return false;
}
/**
 * `:` also follows: `Private-Lines`; `sensitive`, `value`, `text`, `input`, `keys` before `":`;
 * `http`, `https`; `env`; Windows' `/p`, `/u`, `/user` (xfreerdp, net use); a port's `*`
 * (.pgpass). `=` also follows `sig`, `Signature`, `Token`, `psk` (wpa_supplicant) and a type,
 * `str`/`string`/`bytes` (`const API_KEY: &str = …`). Both: `private_key_id`.
 */
const COLON_KEYS = endings(
  [
    ...KEY_LAST_ENDINGS,
    'nic',
    'nes',
    'ive',
    'lue',
    'ext',
    'put',
    'eys',
    'ttp',
    'tps',
    'env',
  ].concat(['/p', '/u', '/user', 'y_id', 'y-id']),
);
const EQUALS_KEYS = endings([
  ...KEY_LAST_ENDINGS,
  // MNEMONIC (./mnemonics).
  'nic',
  'sig',
  'ure',
  'ken',
  'psk',
  'str',
  // `password: bytes = b"…"` (./lines typedConstant, review r19).
  'tes',
  'y_id',
  'y-id',
  // Terraform's `default =` in a variable block (./config-values).
  'ult',
]);
/** Whether a run of backslashes and a `/` start at `i` (`\/`, `\\/`: a JSON-escaped slash). */
function escapedSlash(text: string, i: number): boolean {
  let j = i;
  while (text.charCodeAt(j) === 0x5c) j++;
  return j > i && text.charCodeAt(j) === 0x2f;
}
function afterKeyIn(keys: Endings): (text: string, at: number) => boolean {
  const long = keys.long ?? [];
  return (text, at) => {
    // A URL's `://`, or its slashes escaped (`:\/\/`: sed, JSON).
    if (text.charCodeAt(at + 1) === 0x2f || escapedSlash(text, at + 1)) return true;
    const i = keyEnd(text, at);
    if (i < 1) return false;
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) return true;
    if (c === 0x2a) return keys === COLON_KEYS;
    const t = keys.get(lower(text.charCodeAt(i - 1)) * 0x10000 + lower(c));
    if (t === undefined) return false;
    if (t === true) return true;
    const f = i > 1 ? lower(text.charCodeAt(i - 2)) : -1;
    if (!(f >= 0 && f < 128)) return false;
    return t[f] === 1 || (t[f] === 2 && longEnding(text, i, long));
  };
}

const colonKey = afterKeyIn(COLON_KEYS);
const equalsKey = afterKeyIn(EQUALS_KEYS);
/** Rust's `Option<String> =`, `Option<&str> =` (./lines typedConstant, review 20). */
function typeArgumentBefore(text: string, at: number): boolean {
  let j = at - 1;
  while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09) j--;
  if (text.charCodeAt(j) !== 0x3e) return false;
  return text.startsWith('tr', j - 2) || text.startsWith('ring', j - 4);
}
/** `]` and blanks before the `=` at `at`: C's `char pass[] = "…"` (./c-source). */
function bracketBefore(text: string, at: number): boolean {
  let j = at - 1;
  while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09) j--;
  return text.charCodeAt(j) === 0x5d;
}
/**
 * The `:` triggers: after a key (COLON_KEYS), or a redis-cli prompt's port (`localhost:6379>`,
 * `127.0.0.1:6379[1]>`): up to 5 digits, maybe `[db]`, maybe `(TX)`, then `>`.
 */
function colon(text: string, at: number): boolean {
  if (colonKey(text, at)) return true;
  // FCM's `AAAA…:APA91b…` (./service-tokens; Telegram's `<digits>:AA…` follows a digit).
  if (text.startsWith('APA91b', at + 1)) return true;
  // `jdbc:oracle:thin:user/password@` (./tool-secrets).
  if (text.startsWith('thin', at - 4)) return true;
  // Hardhat's `accounts: ['0x…']` (./collections, review 20).
  if (accountsBefore(text, at)) return true;
  let i = at + 1;
  const stop = at + 6;
  while (i < stop && isDigit(text.charCodeAt(i))) i++;
  if (i === at + 1) return false;
  if (text.charCodeAt(i) === 0x5b) {
    const db = ++i + 5;
    while (i < db && isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i++) !== 0x5d) return false;
  }
  // `(TX)` inside MULTI (review 10).
  if (text.startsWith('(TX)', i)) i += 4;
  return text.charCodeAt(i) === 0x3e;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const UPPER_DIGIT = codes(ALNUM.slice(0, 26) + ALNUM.slice(52));
const TOKEN_PREFIX_END = codes('fgpousrtkimnac');
const WORD_CHARS = codes(`${ALNUM}_`);
const RCLONE_KEY_END = codes('tnrhy');

/**
 * The words a lower-case letter's `_` trigger needs before the `_`, by their last three letters
 * (two where anything may precede: `hf_`, `sk_`, `rk_`): token prefixes (hf, api_org,
 * gh[pousr], github_pat, [sr]k, api, npm, dop, doo, dor, shpat, shpss, lin, glsa, whsec), aws,
 * rclone's secret|session|client|bearer|auth|key, add, change, nginx's proxy_set. Exact case, as
 * the triggers.
 */
const UNDERSCORE_WORDS = exactEndings([
  ...['hf', 'org', 'ghp', 'gho', 'ghu', 'ghs', 'ghr', 'pat', 'sk', 'rk', 'api', 'npm', 'dop'],
  ...['doo', 'dor', 'pss', 'lin', 'lsa', 'aws', 'ret', 'ion', 'ent', 'rer', 'uth', 'key', 'add'],
  ...['nge', 'set'],
  // Stripe's webhook secrets, `whsec_` (./formats, review 23).
  'sec',
]);
function exactEndings(words: string[]): Endings {
  const m: Endings = new Map();
  for (const w of words) {
    const k = w.charCodeAt(w.length - 2) * 0x10000 + w.charCodeAt(w.length - 1);
    if (w.length === 2) m.set(k, true);
    else {
      let t = m.get(k);
      if (t === undefined) m.set(k, (t = new Uint8Array(128)));
      if (t !== true) t[w.charCodeAt(0)] = 1;
    }
  }
  return m;
}
function wordBefore(text: string, at: number): boolean {
  const t = UNDERSCORE_WORDS.get(text.charCodeAt(at - 2) * 0x10000 + text.charCodeAt(at - 1));
  if (t === undefined) return false;
  if (t === true) return true;
  const f = text.charCodeAt(at - 3);
  return f < 128 && t[f] === 1;
}
/**
 * An upper-case name's `_` (`config set DB_PASSWORD`, `setx API_KEY`): the name's letters and
 * digits before it start after a blank and maybe a quote, within 40 characters (not the
 * second `_` of `SKIP_PREFLIGHT_CHECK`, nor `USER_INPUT` alone in a JSON value).
 */
function nameAfterBlank(text: string, at: number): boolean {
  let i = at - 1;
  const stop = Math.max(-1, at - 41);
  while (i > stop && UPPER_DIGIT[text.charCodeAt(i)] === 1) i--;
  if (i <= stop && i >= 0 && UPPER_DIGIT[text.charCodeAt(i)] === 1) return false;
  let c = text.charCodeAt(i);
  if (c === 0x22 || c === 0x27) c = text.charCodeAt(--i);
  return c === 0x20 || c === 0x09;
}

/** The words before a format's `_` (./service-tokens: `dckr`, `sbp`, `r8`, `lsv2`...). */
const FORMAT_UNDERSCORE_HEADS = FORMAT_HEADS['_'] ?? [];
const FORMAT_HEAD_LAST = codes(FORMAT_UNDERSCORE_HEADS.map((h) => h[h.length - 1]).join(''));
function formatHead(text: string, at: number): boolean {
  for (const h of FORMAT_UNDERSCORE_HEADS) if (text.startsWith(h, at - h.length)) return true;
  return false;
}

/**
 * The `_` triggers, by the characters around the anchor: a token prefix's end (hf_, api_org_,
 * gh[pousr]_, github_pat_, [sr]k_, npm_, dop_, shpat_, lin_, glsa_...) then a word character;
 * npm's `:_auth`, `set _password`, `/:_authToken`; an upper-case name's `_` (aws configure
 * set, setx); aws_secret_access_key; rclone's `secret_access_key`-like options; add_user,
 * change_password. A lower-case letter's word before the `_` is one of UNDERSCORE_WORDS.
 */
function underscore(text: string, at: number): boolean {
  const b = text.charCodeAt(at - 1);
  const a = text.charCodeAt(at + 1);
  if (!(b < 128)) return false;
  if (FORMAT_HEAD_LAST[b] === 1 && formatHead(text, at)) return true;
  if (UPPER_DIGIT[b] === 1) return nameAfterBlank(text, at);
  if (b === 0x3a || b === 0x20 || b === 0x09) return (a | 0x20) === 0x61 || (a | 0x20) === 0x70;
  if (!(a < 128)) return false;
  if (TOKEN_PREFIX_END[b] === 1 && WORD_CHARS[a] === 1) return wordBefore(text, at);
  if (RCLONE_KEY_END[b] === 1 && (a === 0x61 || a === 0x74 || a === 0x73 || a === 0x66)) {
    return wordBefore(text, at);
  }
  return (b === 0x64 || b === 0x65) && (a === 0x75 || a === 0x70) && wordBefore(text, at);
}

/**
 * For frequent anchor characters: a necessary condition of all its triggers on the characters
 * around the anchor, read off the triggers (the spec compares the scan with PREFILTER). A
 * candidate that fails it is not tried: most `-` are inside words (`built-in`), most `.` end a
 * sentence, most `:` follow words that name no secret.
 */
export const NEAR: Record<string, Around | ((text: string, at: number) => boolean)> = {
  // GOCSPX-, xox[abprs]-, sk-, gl*|pypi|AGE|PMAK-, ConvertTo|add|pypi|http-, [ \t]- options,
  // redis|valkey|keydb-cli in either case; the formats of ./service-tokens (NRAK, sq0csp, key,
  // xai, pplx, HRKU, pat-na1, pul: review 20).
  '-': around(
    `XabprsktiEKodySYB \t${(FORMAT_HEADS['-'] ?? []).map((h) => h[h.length - 1]).join('')}`,
  ),
  // ya29., hooks|SG|dp., hv[sbr]|s.; a cookie jar's `.domain` (an alphanumeric or - next).
  '.': around('9sGpbr', `${ALNUM}-`),
  // -----BEGIN, Bearer.
  B: around('-', 'e'),
  // eyJ, LS0tLS1CRUdJ.
  J: around('yd'),
  // AKIA, ASIA (whatever follows their 16 characters since review r12); IDENTIFIED BY;
  // Alibaba's LTAI (./service-tokens).
  I: (text, at) => {
    const c = text.charCodeAt(at + 1);
    if (c === 0x44) return true;
    const p = text.charCodeAt(at - 1);
    return (
      (c === 0x41 && (p === 0x4b || p === 0x53)) || (p === 0x41 && text.charCodeAt(at - 2) === 0x54)
    );
  },
  _: underscore,
  // setItem(, setenv(, fetch(, get(, auth = (, HTTPBasicAuth(, .login(, PDO(, fill(, type(,
  // send_keys(, setValue(, fillField(, pressSequentially(, @tcp(, @unix(...; fireEvent.change(,
  // new Sequelize(; a password file's <(echo …); mysqli(; twilio( (review 20); set_var(.
  '(': around('mvtyedh= \tnOlspx<ior'),
  ':': colon,
  // A key; a type argument; C's `char pass[] =` (./c-source).
  '=': (text, at) => equalsKey(text, at) || typeArgumentBefore(text, at) || bracketBefore(text, at),
  '\uFF1A': afterKeyIn(EQUALS_KEYS),
  '\uFF1D': afterKeyIn(EQUALS_KEYS),
};

interface Search {
  needle: string;
  offset: number;
  /** The triggers of the anchor character, sticky: tried at the anchor only. */
  trigger: RegExp;
  /** NEAR of the anchor character as tables, or null. */
  around: Around | null;
  /** NEAR of the anchor character as a function, or null. */
  near: ((text: string, at: number) => boolean) | null;
  /** `needle` is a rare character of these words (BY_RARE), or null. */
  words: Word[] | null;
}

/** A needle found by its character at `at` (BY_RARE); its anchor at `offset` in it. */
interface Word {
  word: string;
  at: number;
  offset: number;
  trigger: RegExp;
}

const ANCHOR_SEARCHES: Search[] = [...new Set(DETECTORS.flatMap((d) => [...d.anchors]))].flatMap(
  (c) => {
    const own = TRIGGERS.filter((t) => new RegExp(`^(?:${headOf(t)})$`).test(c));
    if (own.length === 0) return [];
    const trigger = new RegExp(grouped(own), 'y');
    const test = NEAR[c];
    // NEAR reads the characters around the needle: needles of one character only.
    if (test !== undefined && NEEDLES[c] !== undefined) throw new Error(`NEAR and NEEDLES: ${c}`);
    const around = test !== undefined && typeof test !== 'function' ? test : null;
    const near = typeof test === 'function' ? test : null;
    return (NEEDLES[c] ?? [[c, 0]]).map(([needle, offset]) => ({
      needle,
      offset,
      trigger,
      around,
      near,
      words: null,
    }));
  },
);

/**
 * Per anchor character: where to look for it and its triggers. Only a detector's anchor is
 * a candidate (the prefilter's other matches would find no detector to run). The needles of
 * BY_RARE are searched by that character, one search for the words that share it.
 */
export const SEARCHES: Search[] = ANCHOR_SEARCHES.filter((s) => BY_RARE[s.needle] === undefined);
for (const c of new Set(Object.values(BY_RARE))) {
  const words = ANCHOR_SEARCHES.filter((s) => BY_RARE[s.needle] === c).map((s) => ({
    word: s.needle,
    at: s.needle.indexOf(c),
    offset: s.offset,
    trigger: s.trigger,
  }));
  if (words.length === 0) continue;
  SEARCHES.push({
    needle: c,
    offset: 0,
    trigger: words[0].trigger,
    around: null,
    near: null,
    words,
  });
}

/**
 * Where PREFILTER matches in `text`, ascending. Not PREFILTER itself: one regex over the
 * whole text runs the engine's loop on every character and the look-behinds of every anchor
 * character (28% of figure 7); `indexOf` finds each needle in native code and the
 * anchor's own triggers run only there.
 */
export function candidates(text: string): number[] {
  const hits: number[] = [];
  // Text dense with anchor characters (`====`, `::::`, a minified file) costs a call per
  // character here, more than the regex engine's loop: past one anchor in 16 characters, the
  // one-regex prefilter finds the same candidates (the adversarial inputs of figure 7).
  let budget = 64 + (text.length >> 4);
  let rare = 64 + (text.length >> 3);
  for (const { needle, offset, trigger, around, near, words } of SEARCHES) {
    // Four copies of the loop, so that each runs its test inline.
    if (around !== null) {
      const { prev, next } = around;
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
        if (--budget < 0) return prefilterHits(text);
        // Out of range, charCodeAt is NaN, which is not < 128.
        const b = text.charCodeAt(at - 1);
        const a = text.charCodeAt(at + 1);
        if (!((b < 128 && prev[b] === 1) || (a < 128 && next[a] === 1))) continue;
        trigger.lastIndex = at;
        if (trigger.test(text)) hits.push(at);
      }
    } else if (words !== null) {
      // A rare character, read at every occurrence: its own budget (a text full of `k`).
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
        if (--rare < 0) return prefilterHits(text);
        for (const w of words) {
          const p = at - w.at;
          if (p < 0 || !text.startsWith(w.word, p)) continue;
          if (--budget < 0) return prefilterHits(text);
          w.trigger.lastIndex = p + w.offset;
          if (w.trigger.test(text)) hits.push(p + w.offset);
        }
      }
    } else if (near !== null) {
      for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
        if (--budget < 0) return prefilterHits(text);
        if (!near(text, at)) continue;
        trigger.lastIndex = at;
        if (trigger.test(text)) hits.push(at);
      }
    } else {
      for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) {
        if (--budget < 0) return prefilterHits(text);
        trigger.lastIndex = p + offset;
        if (trigger.test(text)) hits.push(p + offset);
      }
    }
  }
  if (hits.length > 1) {
    hits.sort((a, b) => a - b);
    let n = 1;
    for (let i = 1; i < hits.length; i++) if (hits[i] !== hits[n - 1]) hits[n++] = hits[i];
    hits.length = n;
  }
  return hits;
}

/** Where PREFILTER matches a detector's anchor in `text`, ascending (one regex, one pass). */
function prefilterHits(text: string): number[] {
  const hits: number[] = [];
  PREFILTER.lastIndex = 0;
  // Every trigger consumes exactly its anchor character: `test` (no match array) gives the
  // position as lastIndex - 1.
  while (PREFILTER.test(text)) {
    const at = PREFILTER.lastIndex - 1;
    if (BY_ANCHOR[text.charCodeAt(at)] !== undefined) hits.push(at);
  }
  return hits;
}

/** All built-in detector hits in `text`, unmerged (nearly sorted by start). */
export function scanBuiltins(text: string): Span[] {
  const spans: Span[] = [];
  const hits = candidates(text);
  if (hits.length === 0) return spans;
  const skipUntil = new Array<number>(DETECTORS.length).fill(0);
  const state: ScanState = { footerFrom: -1, footerAt: -1, footerEnd: -1 };
  for (const at of hits) {
    for (const i of BY_ANCHOR[text.charCodeAt(at)]!) {
      if (at < skipUntil[i]) continue;
      const own = OWN_TRIGGER[i];
      if (own !== null) {
        own.lastIndex = at;
        if (!own.test(text)) continue;
      }
      const extent = DETECTORS[i].find(text, at, state, spans);
      if (extent >= 0) skipUntil[i] = extent;
    }
  }
  return spans;
}
