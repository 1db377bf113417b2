/**
 * The built-in secret detectors and the one scan that runs them.
 *
 * Speed: a plain regex per detector costs a full pass over the text each (about 100 ms per
 * 64 MiB for a 3-letter literal), so the detectors share ONE prefilter pass instead. Each
 * detector names an *anchor* character inside its secret or its context (`J` of `eyJ`,
 * `K`/`S` of `AKIA`/`ASIA`, `_` of `ghp_`, `:`/`=` after `password`, ...) plus zero-width
 * assertions around it; the prefilter is the alternation of those triggers. V8 runs it in
 * native code and rejects nearly every anchor character in place, so clean text costs one
 * pass and JavaScript only sees real candidates. At a candidate, the detectors for that
 * anchor character run their own sticky regex from a fixed offset before the anchor. A
 * trigger may be looser than its detector, never stricter (a property test in the spec
 * compares with trying every detector at every anchor character).
 *
 * Linear time: every regex starts at a fixed place and has no nested unbounded quantifiers;
 * it fails within a bounded run of characters or matches it. After a detector matched
 * (whether it then masked or rejected the match) it skips candidates inside the stretch it
 * already read, so runs such as `eyJeyJeyJ...` or `password=password=...` are read once.
 * The spec times every detector against 1 MB adversarial strings.
 *
 * Everything here is ASCII: patterns never match inside non-ASCII characters.
 */

/** A masked stretch of text [start, end) in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
  kind: string;
}

/** Per-scan memory of detectors that look ahead (the private-key footer search). */
export interface ScanState {
  footerFrom: number;
  footerAt: number;
  footerEnd: number;
}

export interface Detector {
  kind: string;
  /** The characters the trigger starts with (one per member of its first class). */
  anchors: string;
  /** Regex source: the anchor character with zero-width assertions around it. */
  trigger: string;
  /**
   * Tries the detector at candidate position `at` (the anchor character), pushing the span
   * to mask, if any, to `out`. Returns how far its match reached (later candidates of this
   * detector before that are skipped), or -1 when nothing matched.
   */
  find(text: string, at: number, state: ScanState, out: Span[]): number;
}

/** Longest private key block (BEGIN to END) recognised, in characters. */
export const MAX_PRIVATE_KEY_BLOCK = 16 * 1024;

/** The kinds this module produces; `custom` is for REDACT_PATTERNS. */
export const KINDS = [
  'jwt',
  'aws-access-key',
  'aws-secret-key',
  'gcp-api-key',
  'github-token',
  'slack-token',
  'openai-key',
  'anthropic-key',
  'stripe-key',
  'private-key',
  'bearer',
  'basic-auth',
  'password',
  'url-credentials',
  'custom',
] as const;

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
  password: 40,
};
export function priorityOf(kind: string): number {
  return PRIORITY[kind] ?? 80;
}

/** `[Pp][Aa]...`: case-insensitive letters without the `i` flag (the prefilter is shared). */
export function ci(word: string): string {
  return word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/**
 * Not preceded by a token character, except the letter of an escape (`\n`, `\t`) as in
 * JSON-encoded text, where `\neyJ...` starts a token.
 */
const EDGE = '(?<!(?<!\\\\)[A-Za-z0-9_-])';
/** Not preceded by a letter or digit (escape letters excepted, as for EDGE). */
const EDGE_ALNUM = '(?<!(?<!\\\\)[A-Za-z0-9])';

/**
 * Where the masked part of a match starts, given the match and its end, or -1 to reject
 * the match. The masked part runs to the end of the match less `trimEnd`: capture groups are
 * measured from the end (no `d` flag, whose indices cost an allocation per match).
 */
type Pick = (m: RegExpExecArray, end: number) => number;

/** A detector whose sticky regex starts `back` characters before the anchor. */
function regexDetector(o: {
  kind: string;
  anchors: string;
  trigger: string;
  back: number;
  source: string;
  /** A cheap test before the regex (several detectors share an anchor character). */
  quick?: (text: string, at: number) => boolean;
  /** Where the masked part starts; default the whole match. */
  pick?: Pick;
  trimEnd?: number;
  kindOf?: (m: RegExpExecArray) => string;
}): Detector {
  const re = new RegExp(o.source, 'y');
  const trimEnd = o.trimEnd ?? 0;
  return {
    kind: o.kind,
    anchors: o.anchors,
    trigger: o.trigger,
    find(text, at, _state, out) {
      const from = at - o.back;
      if (from < 0 || (o.quick && !o.quick(text, at))) return -1;
      re.lastIndex = from;
      const m = re.exec(text);
      if (!m) return -1;
      const extent = re.lastIndex;
      const start = o.pick ? o.pick(m, extent) : from;
      const end = extent - trimEnd;
      if (start >= 0 && end > start) {
        out.push({ start, end, kind: o.kindOf ? o.kindOf(m) : o.kind });
      }
      return extent;
    },
  };
}

const REDACTED = '[REDACTED:';

// --- password=..., "token": "...", DB_PASSWORD=..., api_key: ... ----------------------------

/** Key names whose value is a secret; the name must END with one (`max_tokens=` is not). */
const KEYWORDS = [
  ci('password'),
  ci('passwd'),
  ci('passphrase'),
  // `pass` alone only as its own word (`DB_PASS`, `dbPass`), not in `bypass`, `compass`.
  `(?<!(?<!\\\\)[A-Za-z])${ci('pass')}`,
  '(?<=[a-z])Pass',
  ci('pwd'),
  ci('secret'),
  ci('token'),
  `${ci('api')}[_-]?${ci('key')}`,
  `${ci('access')}[_-]?${ci('key')}`,
  `${ci('private')}[_-]?${ci('key')}`,
].join('|');
/** `SECRET_KEY`, `secret_access_key`, `SECRET_KEY_BASE`. */
const KEY_SUFFIX = `(?:[_-]?(?:${ci('access')}[_-]?)?${ci('key')})?(?:[_-]?${ci('base')})?`;
/** Between the key name and the separator: closing quotes (maybe escaped) and blanks. */
const KEY_CLOSE = `["'\\\\]*[ \\t]*`;
const AUTHZ = ci('authorization');
/**
 * The last two letters of KEYWORDS, KEY_SUFFIX and AUTHZ (rd wd se ss et en ey on): a cheap
 * first test at every `:` and `=`, which JSON keys and code are full of.
 */
const KEY_LAST = '(?:[rRwW][dD]|[sS][eEsS]|[eE][tTnNyY]|[oO][nN])';
const KEY_LAST_CODES = new Set([...'destny'].map((c) => c.charCodeAt(0)));
const LAST_N = 0x6e; // authorizatioN
const LAST_Y = 0x79; // secret_access_keY

/** The last letter of the key before the `:`/`=` at `at`, past quotes and blanks, lower case. */
function keyLast(text: string, at: number): number {
  let i = at - 1;
  for (; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c !== 0x22 && c !== 0x27 && c !== 0x5c && c !== 0x20 && c !== 0x09) break;
  }
  return i < 0 ? 0 : text.charCodeAt(i) | 0x20;
}

/**
 * Values that are code or placeholders, not secrets: types, literals, keywords (quoted
 * too: `"password": "string"` in a schema example is a placeholder).
 */
const NOT_SECRETS = new Set(
  (
    'null none nil undefined true false yes no string str number int integer float bool ' +
    'boolean any unknown bytes object optional required secret password passwd token pwd ' +
    'await new this self typeof function async yield return const let var void env changeme'
  ).split(' '),
);
const REFERENCE = /^(?:\$|%\w+%$|\{\{)/;
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const LOWER_IDENTIFIER = /^[a-z_$][\w$]*$/;

/**
 * Whether an assigned value is masked. Not: placeholders (NOT_SECRETS, `****`), references
 * (`$VAR`, `${{ secrets.X }}`, `%VAR%`, `{{ .Values.x }}`), markers; and when unquoted, code:
 * calls and indexing (`getPassword()`, `tokens[i]`), the key name itself
 * (`password = password`), member paths (`process.env.X`), identifiers built on the key name
 * (`hashedPassword`, `nextToken`), and paths after `PWD=`.
 */
function acceptAssignment(keyword: string, value: string, quoted: boolean, next: string): boolean {
  if (!quoted && (next === '(' || next === '[')) return false;
  const c = value[0];
  const special = c === '$' || c === '%' || c === '{' || c === '[';
  if (special && (REFERENCE.test(value) || value.startsWith(REDACTED))) return false;
  if (value.length <= 9 && NOT_SECRETS.has(value.toLowerCase())) return false;
  if (!/[A-Za-z0-9]/.test(value)) return false;
  if (quoted) return true;
  // Bare values after the looser key words (token, secret, api key...) must look generated:
  // prose like `Refresh Token: Refresh` or `refresh_token:1` is not a secret.
  const passwordKey = /pass|pwd/i.test(keyword);
  if (!passwordKey && value.length < 20 && !(value.length >= 6 && /\d/.test(value))) return false;
  if (value.length === keyword.length && value.toLowerCase() === keyword.toLowerCase()) {
    return false;
  }
  if (value.includes('.') && MEMBER_PATH.test(value)) return false;
  const cap = keyword[0].toUpperCase() + keyword.slice(1).toLowerCase();
  if (value.includes(cap) && LOWER_IDENTIFIER.test(value)) return false;
  if ((c === '/' || c === '~' || c === '.') && /^pwd$/i.test(keyword)) return false;
  return true;
}

/**
 * `password=...`, `"password": "..."`, `DB_PASSWORD=...`, `api_key: ...`, `'pass' => '...'`,
 * `token := "..."`: masks the value only. Groups: 1 key word, 2 "value", 3 'value',
 * 4 `value`, 5 bare value; the value ends the match.
 */
const assignment = regexDetector({
  kind: 'password',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=(${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE})(?::=|=>|[:=])[ \\t]*` +
    '(?:\\\\*"([^"\\\\\\r\\n]+)|\\\\*\'([^\'\\\\\\r\\n]+)|`([^`\\\\\\r\\n]+)' +
    '|(?!=)([^\\s"\'`\\\\,;&|<>(){}\\[\\]]+))',
  quick: (text, at) => KEY_LAST_CODES.has(keyLast(text, at)),
  pick: (m, end) => {
    const value = m[2] ?? m[3] ?? m[4] ?? m[5];
    const ok = acceptAssignment(m[1], value, m[5] === undefined, m.input[end] ?? '');
    return ok ? end - value.length : -1;
  },
});

/** `aws_secret_access_key = <40>` and `"SecretAccessKey": "<40>"` (aws sts output). */
const awsSecretKey = regexDetector({
  kind: 'aws-secret-key',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${ci('secret')}[_-]?${ci('access')}[_-]?${ci('key')}${KEY_CLOSE})(?::=|=>|[:=])` +
    `[ \\t]*\\\\*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  quick: (text, at) => keyLast(text, at) === LAST_Y,
  pick: (m, end) => end - m[1].length,
});

/**
 * `Authorization: Bearer <token>` (and lower case, in JSON, in curl `-H`), `Basic <base64>`,
 * `token <token>` (GitHub), or a bare credential of 8+ characters with a digit. Masks the
 * credential only.
 */
const authorization = regexDetector({
  kind: 'bearer',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${AUTHZ}${KEY_CLOSE})[:=][ \\t]*\\\\*["'\`]?[ \\t]*` +
    `(?:(${ci('bearer')}|${ci('basic')}|${ci('token')})[ \\t]+)?` +
    '([A-Za-z0-9._~+/-]+=*)',
  quick: (text, at) => keyLast(text, at) === LAST_N,
  pick: (m, end) => {
    const cred = m[2];
    if (m[1] === undefined && !(cred.length >= 8 && /\d/.test(cred))) return -1;
    return end - cred.length;
  },
  kindOf: (m) => (/^basic$/i.test(m[1] ?? '') ? 'basic-auth' : 'bearer'),
});

/**
 * For the key names, the prefilter also looks at the value (never stricter than
 * `assignment`, only cheaper): something must follow the separator, and not a bare word of
 * NOT_SECRETS (`password: str`, `token = await ...`): code mentions stay in native code.
 */
const VALUE_START = '(?=[=>]?[ \\t]*(?:\\\\*["\'`][^\\\\\\r\\n]|[^\\s"\'`\\\\,;&|<>(){}\\[\\]=]))';
const NOT_A_WORD = `(?![=>]?[ \\t]*(?:${[...NOT_SECRETS].map(ci).join('|')})(?![^\\s"'\`\\\\,;&|<>(){}\\[\\]]))`;
const ASSIGNMENT_TRIGGER =
  `[:=](?<=${KEY_LAST}${KEY_CLOSE}[:=])(?:(?<=${AUTHZ}${KEY_CLOSE}[:=])` +
  `|(?<=(?:${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE}[:=])${VALUE_START}${NOT_A_WORD})`;

// --- tokens with a recognisable format --------------------------------------------------------

/** Three base64url segments, the first (the header) starting `eyJ` (`{"`). */
const jwt = regexDetector({
  kind: 'jwt',
  anchors: 'J',
  trigger: `J(?<=${EDGE}eyJ)(?=[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5})`,
  back: 2,
  source: `${EDGE}eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*`,
});

const awsAccessKey = regexDetector({
  kind: 'aws-access-key',
  anchors: 'KS',
  trigger: `[KS](?<=${EDGE_ALNUM}A[KS])(?=IA[A-Z0-9]{16}(?![A-Za-z0-9]))`,
  back: 1,
  source: `${EDGE_ALNUM}A(?:KIA|SIA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
});

const gcpApiKey = regexDetector({
  kind: 'gcp-api-key',
  anchors: 'z',
  trigger: `z(?<=${EDGE}AIz)(?=a[0-9A-Za-z_-]{35})`,
  back: 2,
  source: `${EDGE}AIza[0-9A-Za-z_-]{35}`,
});

const githubToken = regexDetector({
  kind: 'github-token',
  anchors: '_',
  trigger: `_(?<=${EDGE}gh[pousr]_)(?=[A-Za-z0-9]{36})`,
  back: 3,
  source: `${EDGE}gh[pousr]_[A-Za-z0-9]{36,}`,
});

const githubPat = regexDetector({
  kind: 'github-token',
  anchors: '_',
  trigger: `_(?<=${EDGE}github_pat_)(?=[A-Za-z0-9_]{22})`,
  back: 10,
  source: `${EDGE}github_pat_[A-Za-z0-9_]{22,}`,
});

/** Secret and restricted keys, live and test (`pk_` publishable keys are public). */
const stripeKey = regexDetector({
  kind: 'stripe-key',
  anchors: '_',
  trigger: `_(?<=${EDGE}[sr]k_)(?=(?:live|test)_[A-Za-z0-9]{10})`,
  back: 2,
  source: `${EDGE}[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`,
});

const slackToken = regexDetector({
  kind: 'slack-token',
  anchors: '-',
  trigger: `-(?<=${EDGE}xox[abprs]-)(?=[A-Za-z0-9-]{10})`,
  back: 4,
  source: `${EDGE}xox[abprs]-[A-Za-z0-9-]{10,}`,
});

const anthropicKey = regexDetector({
  kind: 'anthropic-key',
  anchors: '-',
  trigger: `-(?<=${EDGE}sk-)(?=[A-Za-z0-9_-]{20})`,
  back: 2,
  source: `${EDGE}sk-ant-[A-Za-z0-9_-]{20,}`,
});

/** `sk-...` (48 random) and `sk-proj-...`: random, so with a digit and a capital. */
const openaiKey = regexDetector({
  kind: 'openai-key',
  anchors: '-',
  trigger: '', // the anthropic trigger
  back: 2,
  source: `${EDGE}sk-(?!ant-)[A-Za-z0-9_-]{20,}`,
  pick: (m, end) => (/\d/.test(m[0]) && /[A-Z]/.test(m[0]) ? end - m[0].length : -1),
});

/** `Bearer <token>` outside an Authorization header: a token of 16+ characters with a digit. */
const bearer = regexDetector({
  kind: 'bearer',
  anchors: 'B',
  trigger: `B(?<=${EDGE_ALNUM}B)(?=earer[ \\t]+[A-Za-z0-9._~+/-]{16})`,
  back: 0,
  source: `${EDGE_ALNUM}Bearer[ \\t]+([A-Za-z0-9._~+/-]{16,}=*)`,
  pick: (m, end) => (/\d/.test(m[1]) ? end - m[1].length : -1),
});

/** `scheme://user:password@host`: masks the password (up to the last `@` of the authority). */
const urlCredentials = regexDetector({
  kind: 'url-credentials',
  anchors: ':',
  trigger: ':(?=\\/\\/[^\\s:@\\/?#"\'\\\\]*:[^\\s\\/?#"\'\\\\]*@)',
  back: 0,
  source: ':\\/\\/[^\\s:@\\/?#"\'\\\\]*:([^\\s\\/?#"\'\\\\]+)@',
  quick: (text, at) => text.charCodeAt(at + 1) === 0x2f && text.charCodeAt(at + 2) === 0x2f,
  pick: (m, end) => {
    const pass = m[1];
    if (pass.startsWith(REDACTED) || /^\$\{?\w+\}?$/.test(pass)) return -1;
    return end - 1 - pass.length;
  },
  trimEnd: 1,
});

// --- private key blocks -----------------------------------------------------------------------

const PK_HEADER = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/y;
const PK_FOOTER = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * Without a footer (output cut short): the header and the base64 lines after it, each line
 * broken by a real or escaped newline (`\n`, `\\n`); a line counts when it has 16 or more
 * characters or ends with padding, so prose after the key stays.
 */
const PK_BODY = new RegExp(
  '(?:(?:[ \\t\\r\\n]|\\\\+[rn])+(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}))' +
    `{0,${MAX_PRIVATE_KEY_BLOCK >> 4}}`,
  'y',
);

/**
 * `-----BEGIN ... PRIVATE KEY-----` through `-----END ... PRIVATE KEY-----`, whatever lies
 * between (real newlines, `\n` escapes of JSON strings, `\\n` of JSON inside JSON), up to
 * MAX_PRIVATE_KEY_BLOCK characters. A header with no footer in reach masks itself and the
 * base64-looking lines after it. The footer search is remembered for the scan, so many
 * headers cost one pass.
 */
const privateKey: Detector = {
  kind: 'private-key',
  anchors: 'B',
  trigger: 'B(?<=-----B)(?=EGIN [A-Z0-9 ]{0,40}PRIVATE KEY)',
  find(text, at, state, out) {
    const start = at - 5;
    if (start < 0) return -1;
    PK_HEADER.lastIndex = start;
    if (!PK_HEADER.test(text)) return -1;
    const bodyFrom = PK_HEADER.lastIndex;
    if (!(state.footerFrom <= bodyFrom && state.footerAt >= bodyFrom)) {
      // No footer remembered for this stretch: look for the next one from here.
      PK_FOOTER.lastIndex = bodyFrom;
      const f = PK_FOOTER.exec(text);
      state.footerFrom = bodyFrom;
      state.footerAt = f ? f.index : Infinity;
      state.footerEnd = f ? PK_FOOTER.lastIndex : Infinity;
    }
    let end: number;
    if (state.footerEnd - start <= MAX_PRIVATE_KEY_BLOCK) {
      end = state.footerEnd;
    } else {
      PK_BODY.lastIndex = bodyFrom;
      PK_BODY.test(text);
      end = Math.min(PK_BODY.lastIndex, start + MAX_PRIVATE_KEY_BLOCK);
    }
    out.push({ start, end, kind: 'private-key' });
    return end;
  },
};

// --- the scan ---------------------------------------------------------------------------------

/** Every built-in detector, in the order they are tried at a shared anchor. */
export const DETECTORS: readonly Detector[] = [
  privateKey,
  jwt,
  awsAccessKey,
  awsSecretKey,
  gcpApiKey,
  githubToken,
  githubPat,
  slackToken,
  anthropicKey,
  openaiKey,
  stripeKey,
  authorization,
  bearer,
  urlCredentials,
  assignment,
];

/** Every trigger, each consuming exactly its anchor character. */
export const PREFILTER = new RegExp(
  [...DETECTORS.map((d) => d.trigger).filter((t) => t !== ''), ASSIGNMENT_TRIGGER].join('|'),
  'g',
);

/** Detector indexes by anchor character code (all anchors are ASCII). */
const BY_ANCHOR: (number[] | undefined)[] = [];
DETECTORS.forEach((d, i) => {
  for (const c of d.anchors) (BY_ANCHOR[c.charCodeAt(0)] ??= []).push(i);
});

/** All built-in detector hits in `text`, unmerged (nearly sorted by start). */
export function scanBuiltins(text: string): Span[] {
  const spans: Span[] = [];
  let skipUntil: number[] | null = null;
  let state: ScanState | null = null;
  // Shared: a scan runs to the end without calling out. Every trigger consumes exactly its
  // anchor character, so `test` (no match array) gives the position as lastIndex - 1.
  PREFILTER.lastIndex = 0;
  while (PREFILTER.test(text)) {
    const at = PREFILTER.lastIndex - 1;
    const candidates = BY_ANCHOR[text.charCodeAt(at)];
    if (!candidates) continue;
    skipUntil ??= new Array<number>(DETECTORS.length).fill(0);
    state ??= { footerFrom: -1, footerAt: -1, footerEnd: -1 };
    for (const i of candidates) {
      if (at < skipUntil[i]) continue;
      const extent = DETECTORS[i].find(text, at, state, spans);
      if (extent >= 0) skipUntil[i] = extent;
    }
  }
  return spans;
}
