import { EDGE_ALNUM, type Detector, type Span } from './detector';

// --- a token cut by the compact tier's truncation ---------------------------------------------

/**
 * Token prefixes and their kinds. A cut leaves a token's first part, too short for its format's
 * detector, yet most of the secret: a `ghp_` token's first 30 characters are its whole random
 * part (the last 6 are a checksum of them), an `AIza` key's first 31 of 39 (console review 20c).
 */
const PREFIXES: readonly (readonly [string, string, Glue])[] = [
  ['gh[pousr]_', 'github-token', 'glued'],
  ['github_pat_', 'github-token', 'glued'],
  ['glpat-', 'gitlab-token', 'glued'],
  ['A[KS]IA', 'aws-access-key', 'edge'],
  ['AIza', 'gcp-api-key', 'edge'],
  ['ya29\\.', 'google-oauth-token', 'edge'],
  ['xox[a-z]-', 'slack-token', 'glued'],
  ['sk-ant-', 'anthropic-key', 'glued'],
  ['sk-', 'openai-key', 'edge'],
  ['[sr]k_(?:live|test)_', 'stripe-key', 'glued'],
  ['whsec_', 'stripe-key', 'edge'],
  ['hf_', 'huggingface-token', 'edge'],
  ['npm_', 'npm-token', 'edge'],
  ['pypi-', 'pypi-token', 'glued'],
  ['dop_v1_', 'digitalocean-token', 'glued'],
  ['shp(?:at|ss|ca|pa)_', 'shopify-token', 'glued'],
  ['SG\\.', 'sendgrid-key', 'edge'],
  ['hvs\\.', 'vault-token', 'glued'],
  ['eyJ', 'jwt', 'edge'],
];
/**
 * Where a token may start. `edge`: not inside a longer word (`mask-` is no `sk-`, `shelf_` no
 * `hf_`), except where the whole tokens' EDGE_ALNUM allows a letter before (a URL escape's
 * `url%3Dghp_…`, a JSON `\n`). `glued`: anywhere, as the whole token's own detector takes it
 * (`kkkxghp_…` cut is still a GitHub token: console review 20d).
 */
type Glue = 'edge' | 'glued';
const PREFIX = new RegExp(
  PREFIXES.map(([p, , glue], i) => `${glue === 'edge' ? EDGE_ALNUM : ''}(?<p${i}>${p})`).join('|'),
  'g',
);
const MARKER = /truncated \d{1,12} bytes>/y;
/** What a token is made of (base64url, and `.` of JWTs and SendGrid keys). */
const TOKEN_CHAR = /[A-Za-z0-9_.-]/;
/** How far back before a run EDGE_ALNUM reads (`\u001b[` and 16 parameter characters). */
const EDGE_CONTEXT = 24;
/** How far back from the cut a token's start is looked for. */
const RUN_MAX = 256;

/**
 * The compact tier cuts a long value at 2,048 bytes and writes `\n<truncated N bytes>` there
 * (a real line break, or `\n` escaped in a raw line; FORMAT-NOTES). The run of token characters
 * right before the break is masked from a token prefix in it to the cut.
 */
export const cutToken: Detector = {
  kind: 'github-token',
  anchors: '<',
  trigger: '<(?=truncated \\d{1,12} bytes>)(?<=\\n<|\\\\n<)',
  find(text, at, _state, out) {
    MARKER.lastIndex = at + 1;
    if (!MARKER.test(text)) return -1;
    const end = MARKER.lastIndex;
    const head = cutHead(text, at, out);
    return Math.max(head, cutTail(text, end, out));
  },
};

/** The head side: a token or URL password cut right before the marker (`at` is its `<`). */
function cutHead(text: string, at: number, out: Span[]): number {
  const brk = text[at - 1] === '\n' ? at - 1 : text.startsWith('\\n', at - 2) ? at - 2 : -1;
  if (brk < 0) return -1;
  const password = cutUrlPassword(text, brk);
  if (password >= 0) {
    out.push({ start: password, end: brk, kind: 'password' });
    return at + 1;
  }
  let start = brk;
  while (start > 0 && brk - start < RUN_MAX && TOKEN_CHAR.test(text[start - 1])) start--;
  if (start === brk) return -1;
  // The run with what comes before it, as far as EDGE_ALNUM looks back (an ANSI sequence).
  const from = Math.max(0, start - EDGE_CONTEXT);
  const run = text.slice(from, brk);
  PREFIX.lastIndex = start - from;
  const m = PREFIX.exec(run);
  if (!m || m.index + m[0].length >= run.length) return -1;
  const i = Object.values(m.groups ?? {}).findIndex((g) => g !== undefined);
  out.push({ start: from + m.index, end: brk, kind: PREFIXES[i][1] });
  return at + 1;
}

/** What the tail of a token, key or password may be made of (base64 and base64url too). */
const TAIL_CHAR = /[A-Za-z0-9_.~+/=-]/;
/** The shortest tail masked. */
const TAIL_MIN = 8;
/** The shortest tail masked with one digit only, when it mixes upper and lower case. */
const TAIL_MIXED = 16;

/**
 * Whole runs that are no secret's tail though they mix letters and digits (review 10 counted
 * them as secrets): a UUID, a `0x` number, a version (`v1.2.3-beta45`, `ubuntu-22.04`,
 * `python3.11`, `node18.20.4`), a file name with a short extension (`test_123.py`,
 * `src/v2/api/v1/users.ts`). A secret's tail has no dot between digits, and base64 none at all.
 */
const ORDINARY = new RegExp(
  `^(?:${[
    '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
    '0x[0-9a-fA-F]+',
    '[A-Za-z]*[-_]?v?\\d+(?:\\.\\d+)+(?:[-+~][A-Za-z0-9.]+)?',
    '[A-Za-z0-9_./-]*\\.[a-z]{1,4}',
  ].join('|')})$`,
);

/**
 * A path of lower-case words (review 11): `x86_64-linux-gnu/lib`, `page2/section3`, `h264/aac`.
 * A secret's tail with a `/` is base64, with both cases (an AWS secret key's).
 */
const PATH = /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)+\/?$/;
/** Words of an identifier: a capitalised or lower-case word, an acronym, a number. */
const WORD = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;
const VOWEL = /[aeiouyAEIOUY]/;

/**
 * An identifier made of words and a few short numbers (review 11): `MyComponent2Props`,
 * `Step3of10`. Each word has two letters or more and a vowel (an acronym of up to 4 capitals
 * may have none), at most three numbers of up to 4 digits. A random tail (`B3dE5fG7hJ9k…`) has
 * one-letter words.
 */
function wordsAndNumbers(run: string): boolean {
  if (!/^[A-Za-z0-9]+$/.test(run)) return false;
  let numbers = 0;
  for (const w of run.match(WORD) ?? []) {
    const c = w.charCodeAt(0);
    if (c <= 0x39) {
      if (++numbers > 3 || w.length > 4) return false;
    } else if (w.length < 2 || !(VOWEL.test(w) || (w.length <= 4 && w === w.toUpperCase()))) {
      return false;
    }
  }
  return true;
}

/**
 * Whether a letters-only value is random, not a name (review 26 M1: `api_key=TfaQnWxkrqSEAXVNy`
 * served clear, read as code like `api_key=getApiKey`): 12 letters or more in both cases, of
 * which two words or more are not words (one letter, or no vowel and not an acronym of up to 4
 * capitals: `Qn`, `Wxkrq`). Names have at most one (`HaveIBeenPwned`, `WaitMsBeforeAsync`: the
 * real fixtures' worst); a random 12 letters has two or more 4 times in 5, 20 letters 19 in 20.
 * All lower or all upper case (`refreshtokenvalue`) stays: without a dictionary it is a word.
 */
export function randomLetters(v: string): boolean {
  if (v.length < 12 || !/^[A-Za-z]+$/.test(v) || !/[a-z]/.test(v) || !/[A-Z]/.test(v)) return false;
  let odd = 0;
  for (const w of v.match(WORD) ?? []) {
    if (w.length < 2 || !(VOWEL.test(w) || (w.length <= 4 && w === w.toUpperCase()))) odd++;
  }
  return odd >= 2;
}

/**
 * Whether `v` is words, numbers and versions between `-`, `_` and `.` (`report_2024_final_v2`,
 * `18-alpine3.19`, `MyComponent2Props`): no key or password (./cloud, ./formats).
 */
export function wordParts(v: string): boolean {
  return v
    .split(/[-_.]/)
    .every((part) => part === '' || wordsAndNumbers(part) || /^[A-Za-z]{1,3}\d{1,4}$/.test(part));
}

/**
 * The tail side (review 9, high): `content` and `thinking` go on after the marker with their
 * last 2,048 bytes, which can start inside a secret (the last 30 characters of a `ghp_` token,
 * the end of a password or bearer token). The run of token characters right after the
 * marker's line break (`\n`, or `\\n` escaped in a raw line) is masked, as `unchecked` (its
 * start is not seen), when it could be a secret's tail: at least TAIL_MIN characters, two of
 * them letters and two digits, or of TAIL_MIXED with one digit and both cases (an AWS secret's
 * tail); a word, a number, a date or a path word stays. `end` is just
 * after the marker's `>`; returns how far it read, or -1.
 */
function cutTail(text: string, end: number, out: Span[]): number {
  const from = text[end] === '\n' ? end + 1 : text.startsWith('\\n', end) ? end + 2 : -1;
  if (from < 0) return -1;
  const pem = pemBody(text, from);
  if (pem >= 0) {
    out.push({ start: from, end: pem, kind: 'private-key' });
    return pem;
  }
  const run = tailRun(text, from, out);
  if (run >= 0) return run;
  SEPARATOR.lastIndex = from;
  if (!SEPARATOR.test(text) || SEPARATOR.lastIndex === from) return -1;
  // A value, not an option after a word (`oot -pV` is the command rules').
  const value = SEPARATOR.lastIndex;
  if (!/[A-Za-z0-9]/.test(text[value] ?? '')) return -1;
  return tailRun(text, value, out, KEYED.test(text.slice(from, value)));
}

/**
 * What may stand between the cut and a value's tail when the cut fell at the end of its key
 * or just after it (review 18 H1): the key's last letters (up to 3) before a `:`, `=` or
 * quote, or `Bearer`'s before a blank, then a closing quote (maybe escaped), blanks, a `:` or
 * `=`, an opening quote (`d": "V"`, `y = V`, `er V` of `Bearer V`, `:V@host`). Not any short
 * word before a blank (`the V`: a hash in prose). Longer ends of key words are ./cut-tails'.
 */
const SEPARATOR =
  /(?:[A-Za-z]{1,3}(?=[ \t]*[\\"':=])|e?r(?=[ \t]))?(?:\\?["'])?[ \t]*(?:[:=][ \t]*)?(?:\\?["'])?/y;

/** The end of a key's name before its `:` or `=` (SEPARATOR's first part): `ord: `, `y = `. */
const KEYED = /^[A-Za-z]{1,3}(?:\\?["'])?[ \t]*[:=]/;

/**
 * cutTail's run of token characters from `from`: masked when it may be a secret's tail.
 * `keyed`: the run is a value after the end of a key's name (`ord: V` of `password: V`), where
 * an identifier-like run with two digits or more and both cases is a value too (review 20:
 * `ord: Qxbne3000AsDle` stayed clear as words and a number; `Record: MyComponent2Props`,
 * one number, stays).
 */
function tailRun(text: string, from: number, out: Span[], keyed = false): number {
  let stop = from;
  let letters = 0;
  let digits = 0;
  let upper = 0;
  while (stop < text.length && stop - from < RUN_MAX && TAIL_CHAR.test(text[stop])) {
    const c = text.charCodeAt(stop);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) {
      letters++;
      if (c < 0x61) upper++;
    }
    stop++;
  }
  // A run longer than RUN_MAX is masked to its end all the same.
  while (stop < text.length && TAIL_CHAR.test(text[stop])) stop++;
  const len = stop - from;
  const mixed = digits >= 1 && upper >= 1 && upper < letters && len >= TAIL_MIXED;
  if (len < TAIL_MIN || letters < 2 || (digits < 2 && !mixed)) return -1;
  const run = text.slice(from, stop);
  if (ORDINARY.test(run) || PATH.test(run)) return -1;
  const value = keyed && digits >= 2 && upper >= 1 && upper < letters;
  if (!value && wordsAndNumbers(run)) return -1;
  out.push({ start: from, end: stop, kind: 'unchecked' });
  return stop;
}

/** A PEM key's last line, and what its body lines are made of. */
const PEM_END = /[ \t]*-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/y;
const PEM_LINE = /[ \t]*[A-Za-z0-9+/=]{1,128}(?:\r?\n|\\r\\n|\\n)/y;
/** The most body lines read: a 16,384-bit RSA key is about 200. */
const PEM_LINES = 256;

/**
 * A private key cut by the marker (review 10, high): its base64 lines go on after the marker
 * to its END line, and the tail rule alone masked only the first. When the lines after the
 * break are base64 lines ending at `-----END … PRIVATE KEY-----`, all of them and the END line
 * are the key's; returns where they end, or -1 (the tail rule decides).
 */
function pemBody(text: string, from: number): number {
  let at = from;
  for (let lines = 0; lines <= PEM_LINES; lines++) {
    PEM_END.lastIndex = at;
    if (PEM_END.test(text)) return lines > 0 ? PEM_END.lastIndex : -1;
    PEM_LINE.lastIndex = at;
    if (!PEM_LINE.test(text)) return -1;
    at = PEM_LINE.lastIndex;
  }
  return -1;
}

/** A URL's `scheme://` right before its userinfo. */
const SCHEME = /[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/$/;
/** What a URL's userinfo runs over (not its end: `@`, `/`, space, quotes). */
const USERINFO_CHAR = /[^\s/@"'\\]/;

/**
 * Where a URL password cut by the truncation starts (`postgres://app:Wkf…` + the cut, so no `@`
 * follows for the URL credentials detector): after the first `:` of the userinfo; -1 when the
 * text before the cut is no such URL. The seventh #19 review saw up to 22 of a password's
 * characters served at the cut.
 */
function cutUrlPassword(text: string, brk: number): number {
  let start = brk;
  while (start > 0 && brk - start < RUN_MAX && USERINFO_CHAR.test(text[start - 1])) start--;
  if (!SCHEME.test(text.slice(Math.max(0, start - 34), start))) return -1;
  const colon = text.indexOf(':', start);
  if (colon < 0 || colon + 1 >= brk) return -1;
  // `host:8080` cut before its path is a port, not a user's password.
  return /^\d{1,5}$/.test(text.slice(colon + 1, brk)) ? -1 : colon + 1;
}

/** Line breaks a text may end with after a cut value (a diff's last line has one). */
const TRAILING_BREAKS = /(?:\r?\n)+$/;
/** A word, not a password: `http://host:port`, `redis://host:PORT` at a text's end. */
const PORT_WORD = /^(?:[a-z]+|[A-Z_]+|\$\{?\w+\}?|<[^<>]*>)$/;
/** The shortest password taken at a text's end, where no marker says it was cut. */
const END_PASSWORD_MIN = 6;

/**
 * A URL password the text ends with (`…DATABASE_URL=https://bob:Xk9…` and at most a line
 * break or two): a value cut before its `@host`, where no marker follows any more (review 20:
 * a compact `write_to_file` whose CodeContent was cut there; the FileChange's diff is built
 * from what is left without the marker, and its last `+` line served the password on
 * GraphQL, REST and the CLI). Masked as the marker's cut is (cutHead), as cutUrlPassword, and the password looks like one: 6
 * characters or more, not a lower-case word or an upper-case name (a port's name), nor a
 * variable. Reads at most the text's last RUN_MAX + 34 characters.
 */
export function endUrlPassword(text: string): Span | null {
  const tail = TRAILING_BREAKS.exec(text.slice(-8));
  const brk = text.length - (tail ? tail[0].length : 0);
  if (brk <= 0 || !USERINFO_CHAR.test(text[brk - 1])) return null;
  if (!text.slice(Math.max(0, brk - RUN_MAX - 3), brk).includes('://')) return null;
  const start = cutUrlPassword(text, brk);
  if (start < 0 || brk - start < END_PASSWORD_MIN) return null;
  const pass = text.slice(start, brk);
  if (PORT_WORD.test(pass) || pass.includes(':') || !/[A-Za-z]/.test(pass)) return null;
  return { start, end: brk, kind: 'password' };
}
