import { ci, REDACTED, regexDetector, wordTrie } from './detector';
import { judgeProse, phraseEnd, PROSE_WORDS, type ProseJudgement } from './prose';
import { singleQuotedEnd, VALUE_MAX, valueEnd } from './values';
import {
  acceptAssignment,
  AUTHZ,
  COOKIE,
  KEY_CLOSE,
  KEY_LAST_CHARS,
  KEY_SUFFIX,
  KEYWORDS,
  nameChar,
  NOT_SECRETS,
} from './keys';

// --- password=..., "token": "...", DB_PASSWORD=..., api_key: ... ----------------------------

/**
 * The last letters of KEYWORDS, KEY_SUFFIX, AUTHZ and AccountKey: a cheap first test at every
 * `:` and `=`, which JSON keys and code are full of. Three letters where two would let common
 * words through to the long look-behind after it (`host`, `port`, `region`, `temperature`,
 * `set`, `total`): ord swd pwd sse ase ass ret ken key ies tion son rds ets als ens eys ial kie
 * uth; other languages' mdp wort eña ena ana nha ola ль sło slo fre ode est 密码 ード 번호.
 * Each is the ending of a key word (or of AUTHZ's authorization, .dockerconfigjson's json),
 * so the trigger matches where it did with two letters, only sooner rejects the rest.
 * Grouped by the last letter, which a look-behind reads first: one test per group, not one
 * per ending, at every `:` and `=`.
 */
export const KEY_LAST = `(?:${[
  `(?:[oO][rR]|[pPsS][wW]|${ci('pro')}|${ci('ol')})[dD]`,
  `(?:[sSaA][sS]|[kK][iI]|[fF][rR]|[oO][dD]|${ci('liv')}|[_-]${ci('valu')}|${ci('retyp')})[eE]`,
  '(?:[aA][sS]|[iI][eE]|[rR][dD]|[eE][tT]|[aA][lL]|[eE][nN]|[eE][yY])[sS]',
  `(?:[rR][eE]|[wW][oO][rR]|[eE][sS]|${ci('tes')}|${ci('repea')}|${ci('curren')}|[_-]${ci('sal')})[tT]`,
  `(?:[kK][eE]|[tT][iI][oO]|[sS][oO]|${ci('agai')})[nN]`,
  '[kK][eE][yY]',
  `(?:[iI][aA]|${ci('loca')})[lL]`,
  '[uU][tT][hH]',
  // DB_PW, GITHUB_PAT (review r17 M4).
  '[pP][wW]',
  '[pP][aA][tT]',
  `(?:[mM][dD]|[oO][tT]|${ci('backu')})[pP]`,
  '(?:[eE][nNñÑ]|[aA][nN]|[nN][hH]|[oO][lL])[aA]',
  '[лЛ][ьЬ]',
  '[sS][lLłŁ][oO]',
  '密[码碼]',
  'ード',
  '번호',
  // Hindi, Arabic, Persian, Hebrew, Thai, Greek, Indonesian (review r17 M4).
  'र्ड',
  '[وس]ر',
  'מ[הא]',
  'าน',
  '[όΌοΟ][σΣς]',
  `${ci('nd')}[iI]`,
  // jelszó, mật khẩu, ｐａｓｓｗｏｒｄ (review r12).
  '[sS][zZ][óÓoO]',
  '[hH][ẩẨaA][uU]',
  '[ｒＲ][ｄＤ]',
  // KEY_SUFFIX's endings, whole (a bare `value`, `string` or `method` key is everywhere in JSON):
  // SecretString, password_value, _v4, _2, -12, _prod...; .dockercfg.
  `(?:[_-]${ci('strin')}|[fF]|${ci('stagin')})[gG]`,
  '[a-z]String',
  '[a-z]Value',
  // Review r14 M2: a number glued to the name (`password2`, `DB_PASSWORD2`; up to four digits,
  // `password_2026`, review r15), and KEY_TAILS.
  '(?:[A-Za-z_-]|[^\\x00-\\x7f])\\d{1,5}',
  `(?:${ci('de')}|${ci('pre')})[vV]`,
  `${ci('ne')}[wW]`,
  `${ci('confir')}[mM]`,
  '(?:[_-]|[dDsSnNtTyYeEhHlLaAoO])[dD][bB]',
  `${ci('previou')}[sS]`,
  // KEY_TAILS' environments and accounts (review r16 L: `DB_PASSWORD_QA`, `_stg`, `_root`).
  `[_-]${ci('q')}[aA]`,
  `(?:${ci('ua')}|${ci('roo')})[tT]`,
  `${ci('st')}[gG]`,
  `${ci('pr')}[dD]`,
  `${ci('admi')}[nN]`,
  // KEY_TAILS' `new` in other languages (review r19: `passwortNeu`, `contraseñaNueva`).
  `(?:${ci('ne')}|${ci('nouvea')})[uU]`,
  `(?:${ci('nue')}|${ci('nuo')}|${ci('no')})[vV][aAoO]`,
  // private_key_id.
  `[yY][_-][iI][dD]`,
  // KEYSTORE_PIN (review 19).
  `${ci('pi')}[nN]`,
  // bearer (review 23).
  `${ci('re')}[rR]`,
].join('|')})`;
/** KEY_LAST_CHARS as codes, for keyLast's lower-cased character. */
export const KEY_LAST_CODES = new Set([...KEY_LAST_CHARS].map((c) => c.charCodeAt(0)));

/** Where the key before the `:`/`=` at `at` ends (its last character), past quotes and blanks. */
export function keyEnd(text: string, at: number): number {
  let i = at - 1;
  for (; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c !== 0x22 && c !== 0x27 && c !== 0x5c && c !== 0x5d && c !== 0x20 && c !== 0x09) break;
  }
  return i;
}

/** The last letter of the key before the `:`/`=` at `at`, past quotes and blanks, lower case. */
export function keyLast(text: string, at: number): number {
  const i = keyEnd(text, at);
  if (i < 0) return 0;
  const c = text.charCodeAt(i);
  return c < 0x80 ? c | 0x20 : text[i].toLowerCase().charCodeAt(0);
}

/**
 * Whether the key before the `:`/`=` at `at` ends with `word` (lower-case ASCII letters), in
 * any case: a test in JavaScript before a detector's regex, which costs a call into the
 * regex engine at each of the many `:` and `=` the shared trigger lets through. Only a
 * necessary condition of the regexes below: their KEY_CLOSE takes a subset of what keyEnd
 * skips, and their key words end in a letter it does not skip.
 */
function keyEndsWith(text: string, at: number, word: string): boolean {
  const i = keyEnd(text, at) + 1 - word.length;
  if (i < 0) return false;
  for (let k = 0; k < word.length; k++) {
    if ((text.charCodeAt(i + k) | 0x20) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * The separators of an assignment: also the full-width colon and equals sign of Chinese and
 * Japanese text (`密码：…`), as the words of those languages are secret names too.
 */
const SEP = '[:=\\uFF1A\\uFF1D]';

/**
 * A string literal's prefix: Python's bytes, raw and f-strings (`b'…'`, `rb"…"`), C's and
 * C++'s wide and UTF-8 literals (`L"…"`, `u8"…"`), C#'s verbatim `@"…"` (review r19 M2: the
 * prefix letter was read as the bare value and masked, the value after it served clear).
 */
export const STRING_PREFIX = '(?:[bBrRfFuU]{1,2}|L|u8|@)';
/** A bare prefix before a quote: `password = b''` is no value (nor is the `b`). */
const BARE_PREFIX = /^(?:[bBrRfFuU]{1,2}|L|u8|@|[NE])$/;
/** An f-string's value with a placeholder (`f"{pw}"`) is code. */
const F_PREFIX = /(?:^|[^A-Za-z])[rR]?[fF][rR]?\\*["']$/;
/**
 * Calls that only wrap a literal: pydantic's `SecretStr("…")`, Rust's `String::from("…")`,
 * `Secret::new("…")`, `SecretString::from("…")`, Go's and JavaScript's `String("…")`; and
 * those that make its bytes (review 25: `jwtKey = []byte("…")` served clear): Go's `[]byte`,
 * Node's `Buffer.from`, Python's `bytes`/`bytearray`, `new TextEncoder().encode`.
 */
export const WRAPPER =
  '(?:SecretStr|SecretBytes|String::from|SecretString::(?:new|from)|Secret::new|String|Some' +
  '|\\[\\]byte|Buffer\\.from|bytes|bytearray|(?:new[ \\t]+)?TextEncoder\\(\\)\\.encode)';

/**
 * `password=...`, `"password": "..."`, `DB_PASSWORD=...`, `api_key: ...`, `'pass' => '...'`,
 * `token := "..."`: masks the value only. Groups: 1 key word, 2 "value", 3 'value',
 * 4 `value`, 5 bare value; the value ends the match.
 */
export const assignment = regexDetector({
  kind: 'password',
  anchors: ':=\uFF1A\uFF1D',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=(${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE})(?::=|=>|${SEP})[ \\t]*` +
    // A quoted value in a wrapper, after a string prefix (review r19 M2).
    `(?:${WRAPPER}\\([ \\t]*(?=(?:${STRING_PREFIX})?\\\\*["']))?(?:${STRING_PREFIX}(?=\\\\*["']))?` +
    // `N'…'` and `E'…'` (SQL Server's and PostgreSQL's string prefixes) are quoted values.
    `(?:\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})|(?:[NE](?='))?\\\\*'([^'\\\\\\r\\n]{1,${VALUE_MAX}})` +
    // A bare value ends at a control character: in a binary file a NUL ends a C string.
    `|\`([^\`\\\\\\r\\n]{1,${VALUE_MAX}})|(?!=)([^\\s"'\`\\\\,;&|<>(){}\\[\\]\\x00-\\x08\\x0e-\\x1f\\x7f]{1,${VALUE_MAX}}))`,
  quick: (text, at) => KEY_LAST_CODES.has(keyLast(text, at)),
  extend: (m, end) => {
    const value = m[2] ?? m[3] ?? m[4] ?? m[5];
    // `'it'\''s…'`, `'Xy''q…'`: a quote inside a single-quoted value.
    if (m[3] !== undefined) {
      const quoted = singleQuotedEnd(m.input, end);
      if (quoted > end) return quoted;
    }
    // `DB_PASSWORD=Ab;cd9…`, `DB_PASSWORD=Summer(2024)!`: a .env line's value (review 23).
    if (m[5] !== undefined && value.length < VALUE_MAX) {
      const line = envLineEnd(m, end, end + VALUE_MAX - value.length);
      if (line > end) return line;
    }
    // `Tr0ub4dor&3Qda`, `Qg6(abc)def9a`: one word the bare class ends early (review 20).
    if (m[5] !== undefined && value.length < VALUE_MAX) {
      const glued = gluedEnd(m.input, end, end + VALUE_MAX - value.length);
      if (glued > end && /\d/.test(m.input.slice(end - value.length, glued))) return glued;
    }
    // A bare value that begins a phrase to mask whole (./prose): a passphrase, a sentence
    // after `=`. The pick below knows it by the match reaching further than the regex read.
    // A first word that is no secret (`password= password words`, `password: none yet`) begins
    // no phrase: the prefilter (NOT_A_WORD) passes over it, so reading on masked only at times.
    if (m[5] !== undefined && value.length < VALUE_MAX && !NOT_SECRETS.has(value.toLowerCase())) {
      const judged = judge(m, end, value);
      if (judged === 'phrase') return phraseEnd(m.input, end, VALUE_MAX - value.length);
      // A configuration line's value runs to the line's end (review r19).
      if (judged === 'value') return lineValueEnd(m, end, VALUE_MAX - value.length);
    }
    if (value.length < VALUE_MAX) return end;
    const quote =
      m[2] !== undefined ? 0x22 : m[3] !== undefined ? 0x27 : m[4] !== undefined ? 0x60 : -1;
    return valueEnd(m.input, end, quote);
  },
  pick: (m, end) => {
    const value = m[2] ?? m[3] ?? m[4] ?? m[5];
    // `"invalid password: " + reason`: the quote closed a string, what follows is code.
    if (m[5] === undefined && CONCATENATED.test(value)) return -1;
    const bare = m[5] !== undefined;
    const read = m.index + m[0].length;
    if (bare && BARE_PREFIX.test(value) && QUOTES.has(m.input.charCodeAt(read))) return -1;
    // `password: SecretStr = "…"`: a type annotation, the value after its `=` (./lines
    // typedConstant); the type name was masked (review r19 M2).
    if (bare && m[0][0] === ':' && m[0][1] !== '=' && annotation(m.input, read, value)) return -1;
    // `https://x-access-token:V@github.com/…`: a URL's user and password, urlCredentials'
    // (review r19: read as `token: …`, the host and path were masked with it).
    if (
      bare &&
      value.includes('@') &&
      URL_USER.test(m.input.slice(Math.max(0, m.index - 110), m.index))
    )
      return -1;
    if (!bare && value.includes('{') && F_PREFIX.test(m[0].slice(0, m[0].length - value.length)))
      return -1;
    if (bare && value.length < VALUE_MAX && end > read) {
      // A phrase (extend): masked whole unless it is a placeholder or a reference.
      const phrase = m.input.slice(read - value.length, end);
      const loose = m[0][0] === '=' && ENV_NAME.test(m[1]);
      const ok = acceptAssignment(m[1], phrase, false, m.input[end] ?? '', loose);
      return ok ? read - value.length : -1;
    }
    // A Python string's prefix (`password = r"""V"""`: ./config-values reads the string).
    if (
      bare &&
      value.length <= 2 &&
      PY_PREFIX.test(value) &&
      QUOTE.test(m.input.slice(end, end + 9))
    ) {
      return -1;
    }
    if (bare && judge(m, end, value) === 'prose') return -1;
    if (conditionCode(m.input, m.index, value, bare)) return -1;
    if (numberedKeyValue(m, value)) return -1;
    const colon = m[0][0] === ':' && m[0][1] !== '=';
    // The shell's `${PASSWORD:?message}`: the message, not a value (`:-default` is one).
    const inExpansion = () =>
      m.input.lastIndexOf('${', m.index) > m.input.lastIndexOf('}', m.index);
    if (bare && colon && value[0] === '?' && inExpansion()) return -1;
    const envKey = m[0][0] === '=' && ENV_NAME.test(m[1]);
    const loose = envKey || (bare && yamlWord(m, end, value));
    const ok = acceptAssignment(m[1], value, !bare, m.input[end] ?? '', loose);
    return ok ? m.index + m[0].length - value.length : -1;
  },
  // `PRIVATE_KEY=0x…`, `"privateKey": "0x…"`: a wallet's key (review 19), as ./credential-calls.
  kindOf: (m) =>
    WALLET_KEY.test(m[2] ?? m[3] ?? m[4] ?? m[5] ?? '') &&
    PRIVATE_KEY_NAME.test(m.input.slice(Math.max(0, m.index - 24), m.index))
      ? 'private-key'
      : 'password',
  // A bare value ending with a separator may be the next key (review r15 L3: `password: \t`
  // repeated, each escape-led value the next `password:`): its separator is tried again, or
  // the last value went clear. Each character is read by two matches at most.
  reach: (m, extent) => {
    const c = m[5]?.charCodeAt(m[5].length - 1);
    return c === 0x3a || c === 0x3d ? extent - 1 : extent;
  },
});

/** What a bare value is made of (the bare class of `assignment`, as codes below 0x80). */
const BARE_CHAR = new Uint8Array(128).fill(1);
for (const c of ' \t\n\v\f\r"\'`\\,;&|<>(){}[]') BARE_CHAR[c.charCodeAt(0)] = 0;
for (let c = 0; c < 0x20; c++) BARE_CHAR[c] = 0;
BARE_CHAR[0x7f] = 0;
const bareAt = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c < 0x80 ? BARE_CHAR[c] === 1 : !/\s/.test(text[i]);
};
const alnumAt = (text: string, i: number): boolean => /[A-Za-z0-9]/.test(text[i] ?? '');

/**
 * Where a bare value ending at `end` really ends when it goes on past a `&` or a `(…)` glued
 * inside one word (review 20: `password: Tr0ub4dor&3Qda` masked `Tr0ub4dor` and served
 * `&3Qda`, `DB_PASSWORD=Qg6(abc)def9a` was read as a call and served whole): a `&` between a
 * letter or digit and a run with a digit or a capital that no `=` follows (a query's
 * `&state=…` ends the value, a shell's `&&` too), and a `(…)` or `[…]` of bare characters
 * followed by a letter or digit (no call or index is: `f(x)y`, `a[0]b`; review 23:
 * `password=Xy[9]Kp#2mQ` was served whole), a `<` or `>` between letters or digits (review 21:
 * `DB_PASSWORD=Ab<c>d&e…` was served from its `<`). At most `max`; `end` when nothing goes on.
 */
function gluedEnd(text: string, end: number, max: number): number {
  let at = end;
  const stop = Math.min(text.length, max);
  while (at < stop && alnumAt(text, at - 1)) {
    const c = text.charCodeAt(at);
    let i = at + 1;
    const entity = c === 0x26 ? htmlEntityAt(text, at) : 0;
    if (entity > 0) {
      // `Jd&#x26;Xm2…`, `Jd&amp;Xm2…`: the value as HTML writes its `&` (review 23).
      i = at + entity;
      if (!alnumAt(text, i)) return at;
      while (i < stop && bareAt(text, i)) {
        if (text.charCodeAt(i) === 0x3d) return at;
        i++;
      }
    } else if (c === 0x26) {
      let strong = false;
      while (i < stop && bareAt(text, i)) {
        const d = text.charCodeAt(i);
        if (d === 0x3d) return at;
        if ((d >= 0x30 && d <= 0x39) || (d >= 0x41 && d <= 0x5a)) strong = true;
        i++;
      }
      if (i === at + 1 || !strong || !alnumAt(text, at + 1)) return at;
    } else if (c === 0x3c || c === 0x3e) {
      // `Ab<c>d&e…` (review 21): a `<` or `>` between letters or digits, no blank around it
      // (a shell's `A=b >file`, `A=b <in` keep theirs: the value ended at the blank).
      if (!alnumAt(text, at + 1)) return at;
      while (i < stop && bareAt(text, i)) {
        if (text.charCodeAt(i) === 0x3d) return at;
        i++;
      }
    } else if (c === 0x28 || c === 0x5b) {
      // `Xy[9]Kp#2mQ` as `Qg6(abc)def9a` (review 23: read as indexing, served whole).
      while (i < stop && i - at <= 64 && bareAt(text, i)) i++;
      if (text.charCodeAt(i) !== c + (c === 0x28 ? 1 : 2) || !alnumAt(text, i + 1)) return at;
      i++;
      while (i < stop && bareAt(text, i)) i++;
    } else {
      return at;
    }
    at = i;
  }
  return at;
}

/** HTML's ways of writing a character a value may hold: `&amp;`, `&#38;`, `&#x26;`... */
const HTML_ENTITY = /&(?:amp|lt|gt|quot|apos|#\d{1,5}|#[xX][0-9a-fA-F]{1,4});/y;

/** The length of the HTML entity at `at`, else 0. */
function htmlEntityAt(text: string, at: number): number {
  HTML_ENTITY.lastIndex = at;
  return HTML_ENTITY.test(text) ? HTML_ENTITY.lastIndex - at : 0;
}

/** What a .env value may hold past the bare class's stop, glued (envLineEnd). */
const ENV_GLUE = new Set([...';|,{}[]()<>&"\'`'].map((c) => c.charCodeAt(0)));
/** Quotes: inside a .env value only between letters or digits (`Ab"cd9…`). */
const ENV_QUOTE = new Set([0x22, 0x27, 0x60]);
/** An upper-case environment name (`DB_PASSWORD`, `SENTRY_DSN`). */
const UPPER_NAME = /^[A-Z][A-Z0-9_]*$/;
/**
 * Code, not a value: a name or member path with calls and indexes (`os.getenv`, `sys.argv[1]`,
 * `secrets.token_hex(32)`, `f(g(x))`), maybe ending in `;` or `,`, or in a call or literal
 * opened for the next lines (`os.getenv(`, `cfg.get("a",`). Each repeated part starts with its
 * own character: no backtracking over a long value.
 */
const CODE_VALUE =
  /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\((?:[^()]|\([^()]*\))*\)|\[[^[\]]*\])*(?:[;,[{]|\((?=[^()]*[,"']|$)[^()]*)?$/;

/**
 * Where a .env line's bare value ends (review 23: `DB_PASSWORD=Kq7Xm2vL9(pT4wZ8`,
 * `DB_PASSWORD=Summer(2024)!`, `DB_PASSWORD=Kq7[Xm2]vL9pT4` were served whole, read as a call or
 * an index; `DB_PASSWORD=Ab;cd9…`, `Ab|cd9…`, `Ab,cd9…`, `Ab{cd9…`, `Ab"cd9…` masked `Ab`): an
 * upper-case name alone at its line's start (./lines lineStartKey: blanks, `export `) glued to
 * its `=` and value, the value stopped by the bare class at one of ENV_GLUE, runs on to the
 * first blank (a ` # comment`, a shell's ` && cmd` or ` cmd` after it stay) or its line's end:
 * a backslash (a JSON string's `\n`, read decoded by ./escaped), a control character, a quote
 * not between letters or digits (the JSON string's end in a raw line). Not (`end` as it was):
 * a reference (`$…`), a run with no letter or digit past the stop (`V;`), holding a `=` but a
 * base64 tail's (`A=1;B=2`, a shell's next assignment), code (CODE_VALUE), a run longer than
 * `max`. Review 24: also `NAME: V` and `NAME = V` at a line's start (YAML, a config, GitHub
 * Actions' `env:`; a lower-case snake name too: `password: Y00q(…`), and `NAME=V` after a
 * prefix (envPrefix: `set `, `declare -x `, `$ export `, `docker run -e `, kubectl's
 * `--from-literal=`), when the value holds a letter and a digit.
 */
function envLineEnd(m: RegExpExecArray, end: number, max: number): number {
  const text = m.input;
  if (!ENV_GLUE.has(text.charCodeAt(end))) return end;
  const value = m[5];
  if (value.charCodeAt(0) === 0x24) return end;
  const sep = m[0][0];
  const gap = m[0].length - 1 - value.length;
  // `NAME=V` glued, or `NAME: V`, `NAME = V` (review 24: YAML, a config's spaced `=`).
  const glued = sep === '=' && gap === 0;
  if (!glued && !((sep === ':' || sep === '=') && gap >= 1 && gap <= 3 && blanks(m[0], 1, gap))) {
    return end;
  }
  // The name: glued to its `=`; before `: ` or ` = ` past blanks only.
  let nameEnd = m.index - 1;
  if (!glued) while (nameEnd >= 0 && isBlank(text.charCodeAt(nameEnd))) nameEnd--;
  let k = nameEnd;
  while (k >= 0 && nameChar(text.charCodeAt(k))) k--;
  // A YAML flow mapping's key (`{password: V}`): its value ends at the mapping's `}` or `,`.
  const flow = !glued && sep === ':' && text.charCodeAt(skipBlanksBack(text, k)) === 0x7b;
  const stop = Math.min(text.length, max);
  let alnum = false;
  let i = end;
  for (; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x5c || c === 0x7f) break;
    if (flow && (c === 0x7d || c === 0x2c)) break;
    if (ENV_QUOTE.has(c) && !(alnumAt(text, i - 1) && alnumAt(text, i + 1))) break;
    if (c === 0x3d) {
      let k = i;
      while (k < stop && text.charCodeAt(k) === 0x3d) k++;
      const d = text.charCodeAt(k);
      if (!(k === text.length || d <= 0x20 || d === 0x5c || ENV_QUOTE.has(d))) return end;
      i = k - 1;
    } else if (!alnum && alnumAt(text, i)) alnum = true;
  }
  if (i === stop && stop < text.length) return end;
  const run = text.slice(end - value.length, i);
  const callLike = CALL_LIKE_SECRET.test(run);
  if (!alnum && !callLike) return end;
  const name = text.slice(k + 1, nameEnd + 1);
  if (CODE_VALUE.test(run) && !callLike) return end;
  // grep's context line, `path-12-NAME=V` (review 25; its match line `path:12:` is a line
  // marker of lineStartKey's): the name after the line number, the path at a line's start.
  if (glued && GREP_CONTEXT.test(name) && lineStartAt(text, pathStart(text, k))) return i;
  const upper = UPPER_NAME.test(name);
  if (!upper && !ANY_NAME.test(name)) return end;
  if (glued && upper && lineStartKey(text, m.index)) return i;
  // Review 24: past the .env shape, a value with a letter and a digit (not code, nor prose),
  // its key at a line's start (YAML, GitHub Actions' `env:`, a config's `NAME = V`) or after
  // a shell's or a tool's prefix (envPrefix: `set `, `declare -x `, `docker run -e `, …).
  // Review 25: any name (`Password:`, `api-key:`, `db.password=`, an INI's `password=`), a
  // flow mapping's key.
  if (!/\d/.test(run) || !/[A-Za-z]/.test(run) || CALL_IN_VALUE.test(run)) return end;
  if (flow || lineStartKey(text, m.index)) return i;
  // Review 25 M3: an upper-case name glued to its `=` after any word and a blank (a log's
  // `[INFO] `, a compose service's `web_1  | `, a timestamp, `C:\app>set `, `>>> `, a
  // Dockerfile's `ENV `) or a quote (``Run `DB_PASSWORD=… npm start` ``), the run 8 or more
  // characters (`echo DB_PASSWORD=Ab(cd1` stays).
  if (glued && upper && i - (end - value.length) >= 8 && (k < 0 || wordGap(text, k))) return i;
  return envPrefix(text, k) ? i : end;
}

/** grep's context line's line number and the name after it: `.env-12-DB_PASSWORD`. */
const GREP_CONTEXT = /-\d{1,9}-[A-Z][A-Z0-9_]*$/;
/** Where a path ending at `at` starts (no blank, no quote; 256 characters at most), less 1. */
function pathStart(text: string, at: number): number {
  let p = at;
  while (p >= 0 && p > at - 256 && text.charCodeAt(p) > 0x20 && text.charCodeAt(p) !== 0x22) p--;
  return p;
}

/** A blank or an opening quote before a name. */
function wordGap(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return isBlank(c) || c === 0x60 || c === 0x22 || c === 0x27;
}
/** A setting's name: `password`, `Password`, `api-key`, `db.password`, `auth.postgresPassword`. */
const ANY_NAME = /^[A-Za-z][A-Za-z0-9_]*(?:[.-][A-Za-z][A-Za-z0-9_]*){0,4}$/;
/** A call of a name with a name or nothing as its argument: `md5(salt)+x` is code. */
const CALL_IN_VALUE = /[A-Za-z_$][\w$]*\((?:[A-Za-z_$][\w$.]*)?\)/;
/**
 * A value that ends in `(` but is no call (review 25: `DB_PASSWORD=Qk00Xm2vL9pT4wZ8(` was read
 * as `name(`): 12 or more letters and digits, with three digits, a lower-case and two upper-case letters,
 * before it (`getSecretValue1(` is a call).
 */
const CALL_LIKE_SECRET =
  /^(?=(?:[A-Za-z]*\d){3})(?=[A-Za-z0-9]*[a-z])(?=(?:[a-z0-9]*[A-Z]){2})[A-Za-z0-9]{12,}\($/;
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
/** Whether `s` holds blanks only from `from`, `n` characters. */
function blanks(s: string, from: number, n: number): boolean {
  for (let i = from; i < from + n; i++) if (!isBlank(s.charCodeAt(i))) return false;
  return true;
}
/** Words that set a shell's variable at a line's start (`set X=V`, `declare -x X=V`). */
const SETTERS = new Set([
  'set',
  'env',
  'readonly',
  'declare',
  'typeset',
  'local',
  'export',
  'sudo',
]);
/** Setters that take an option before the name (`declare -x`, `env -i`, `sudo -E`). */
const OPTION_SETTERS = new Set(['declare', 'typeset', 'env', 'sudo', 'export']);
/** Options that pass an environment variable, anywhere on a command line (`docker run -e`). */
const ENV_OPTIONS = new Set([
  '-e',
  '--env',
  '--build-arg',
  '--set',
  '--set-string',
  '--from-literal',
  'config:set',
]);
/** The same glued to the name by `=` (`--env=NAME=V`). */
const ENV_EQ_OPTIONS = ['--from-literal=', '--env=', '--build-arg=', '--set=', '--set-string='];
/** Another `NAME=value` word before the name (`export A=1 NAME=V`). */
const OTHER_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=[^\s"'`]*$/;
/** A shell prompt's word before its `$`: `user@host:~`, `host:dir`, `(venv)`. */
const PROMPT_WORD = /^(?:\([\w.-]+\))?[\w.-]+@[\w.-]+(?::[~\w./-]*)?$|^[\w.-]+:[~\w./-]*$/;

/**
 * Whether the name ending at `at` + 1 follows a prefix that makes `NAME=V` an assignment
 * (review 24): kubectl's `--from-literal=`, an option passing a variable (`-e`, `--env`), or a
 * shell's setter at a line's start (`set`, `env`, `readonly`, `declare -x`, `export` after a
 * prompt's `$ `).
 */
function envPrefix(text: string, at: number): boolean {
  // Review 25: the assignment quoted whole (`set "NAME=V"`, `-e "NAME=V"`, `--from-literal='…'`).
  let q = at;
  if (text.charCodeAt(q) === 0x22 || text.charCodeAt(q) === 0x27) {
    q--;
    while (q >= 0 && q > at - 8 && text.charCodeAt(q) === 0x5c) q--;
  }
  if (ENV_EQ_OPTIONS.some((o) => text.endsWith(o, q + 1))) return true;
  if (!isBlank(text.charCodeAt(q))) return false;
  let i = q;
  let word = '';
  let w = i;
  // Other assignments before it (`export A=1 NAME=V`, `env X=1 NAME=V`): at most four.
  for (let n = 0; n < 5; n++) {
    while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
    w = i;
    while (w >= 0 && w > i - 40 && text.charCodeAt(w) > 0x20 && text.charCodeAt(w) !== 0x22) w--;
    word = text.slice(w + 1, i + 1);
    if (!OTHER_ASSIGNMENT.test(word)) break;
    i = w;
  }
  if (word.length > 16) return false;
  if (ENV_OPTIONS.has(word)) return true;
  // `fly secrets set NAME=V`, `flyctl secrets set …`.
  if (word === 'set' && text.endsWith('secrets', skipBlanksBack(text, w) + 1)) return true;
  if (/^-[a-zA-Z]{1,3}$/.test(word)) {
    // `declare -x`, `typeset -gx`, `env -i`, `sudo -E`.
    i = w;
    while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
    w = i;
    while (w >= 0 && w > i - 10 && text.charCodeAt(w) > 0x20 && text.charCodeAt(w) !== 0x22) w--;
    word = text.slice(w + 1, i + 1);
    if (!OPTION_SETTERS.has(word)) return false;
  } else if (!SETTERS.has(word)) return false;
  // The setter at a line's start, maybe after a prompt (`$ `, `% `, `> `, `# `,
  // `user@host:~$ `).
  let j = w;
  while (j >= 0 && isBlank(text.charCodeAt(j))) j--;
  const p = text.charCodeAt(j);
  if (p === 0x24 || p === 0x25 || p === 0x3e || p === 0x23) {
    j--;
    const s = j;
    while (j >= 0 && j > s - 64 && text.charCodeAt(j) > 0x20 && text.charCodeAt(j) !== 0x22) {
      if (
        text.charCodeAt(j) === 0x5c &&
        (text.charCodeAt(j + 1) === 0x6e || text.charCodeAt(j + 1) === 0x72)
      )
        break;
      j--;
    }
    if (j < s && !PROMPT_WORD.test(text.slice(j + 1, s + 1))) j = s;
    while (j >= 0 && isBlank(text.charCodeAt(j))) j--;
  }
  if (j < 0 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d) return true;
  const c = text.charCodeAt(j);
  if ((c === 0x6e || c === 0x72) && text.charCodeAt(j - 1) === 0x5c) return true;
  return c === 0x22 && jsonStringStart(text, j);
}

/** Key words whose configuration line's value is the rest of the line (lineValueEnd). */
const LINE_KEY = /^(?:pass(?:words?|wd|phrase)?|pwd|pw|secrets?|sshpass)$/i;
/** Where a configuration line's value stops: its line's end, a quote, a JSON string's `\\n`. */
const LINE_STOP = new Set([0x0a, 0x0d, 0x5c, 0x22, 0x27, 0x60]);
/** Characters of code or of a shell after a YAML or properties value: not a passphrase's. */
const CODE_CHAR = new Set([...'=(){}[];|<>,'].map((c) => c.charCodeAt(0)));
/** What a shell runs: a command's name after `KEY=V ` (`PGPASSWORD=V psql db`). */
const COMMANDS = new Set(
  (
    'sudo env exec time nohup node npm npx yarn pnpm bun deno python python3 pip pip3 uv poetry ' +
    'pytest ruby bundle rails rake php java mvn gradle go cargo dotnet make cmake bash sh zsh ' +
    'psql pg_dump mysql mysqldump mongo mongosh redis-cli sqlcmd docker podman kubectl helm ' +
    'terraform ansible aws gcloud az git curl wget ssh scp rsync sshpass echo printf cat ' +
    'uvicorn gunicorn flask django-admin celery jest vitest tsx ts-node composer'
  ).split(' '),
);
/** Words of prose after a value (with ./prose's PROSE_WORDS): `password: hunter2 then …`. */
const PROSE_AFTER = new Set(
  'then again but so because which where what when how after before until than'.split(' '),
);

/**
 * Where a bare value ending at `end` ends when its line is configuration (review r19: a .env,
 * YAML or properties line `DB_PASSWORD=Correct Horse Battery Staple`, `password: Tr0ub4dor&3`
 * masked only `Correct`, `Tr0ub4dor`): the key a password, passphrase or secret name alone at
 * its line's start (after blanks, `export `, a YAML `- `), the value running to the line's end
 * (before trailing blanks, a ` #` comment, a quote or a backslash: a JSON string's `\n`, so the
 * raw line reads what the decoded one does), at most `max` characters on. Not (`end` as it
 * was): after `KEY=` glued, a shell command line (`DB_PASSWORD=V some-command args`: a word
 * with `-`, `/`, `.`, `_`, an option, a command's name, a shell operator, one lower-case word);
 * after `: ` or ` = `, code (`password: str = Field(…)`, `string | null;`, a trailing `,`) or
 * prose words (`password: hunter2 is the default`).
 */
function lineValueEnd(m: RegExpExecArray, end: number, max: number): number {
  const text = m.input;
  if (!LINE_KEY.test(m[1])) return end;
  const sep = m[0][0];
  if (sep === ':' ? m[0][1] !== ' ' && m[0][1] !== '\t' : sep !== '=') return end;
  const c = text.charCodeAt(end);
  if (!(c === 0x20 || c === 0x09 || (c > 0x20 && c < 0x80 && !CODE_CHAR.has(c)))) return end;
  const v = m[5].charCodeAt(m[5].length - 1);
  if (v === 0x3a || v === 0x3d) return end;
  // The rest of the line; code, a shell's operator or the next key (`:`) ends the look early.
  const stop = Math.min(text.length, end + max);
  let last = end;
  let i = end;
  for (; i < stop; i++) {
    const d = text.charCodeAt(i);
    if (LINE_STOP.has(d)) break;
    if (d === 0x23 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) break;
    if (d === 0x3a || CODE_CHAR.has(d) || (d === 0x26 && text.charCodeAt(i + 1) === 0x26)) {
      return end;
    }
    if (d !== 0x20 && d !== 0x09) last = i + 1;
  }
  // A line longer than a value may be is no configuration line's: its cut would fall inside a
  // word (`DB_PASSWORD=Abcd1234 Abcd1234 …` showed `[REDACTED:password]34 Abcd1234 …`).
  if (i === stop && stop < text.length && !LINE_STOP.has(text.charCodeAt(stop))) return end;
  if (last <= end || !lineStartKey(text, m.index)) return end;
  const rest = text.slice(end, last);
  const words = rest.trim().split(/[ \t]+/);
  for (const w of words) {
    const word = w.toLowerCase();
    if (PROSE_WORDS.has(word) || PROSE_AFTER.has(word)) return end;
  }
  const glued = sep === '=' && m[0].length === 1 + m[5].length && !blankAt(text, m.index - 1);
  if (!glued) return last;
  // `KEY=V words`: words, not a command after an environment assignment.
  if (c !== 0x20 && c !== 0x09) return end;
  for (const w of words) if (!PLAIN_WORD.test(w)) return end;
  // One word a command's name may be: lower case (`cd9Kq7Zx2` is none, review 23).
  if (COMMANDS.has(words[0]) || (words.length < 2 && /^[a-z][a-z0-9]*$/.test(words[0]))) {
    return end;
  }
  return last;
}

/** A passphrase's word after `KEY=V `: no `-`, `/`, `.`, `_`, `$`, `&` (a command's, a path's). */
const PLAIN_WORD = /^[A-Za-z0-9!?@%^*+~]+$/;

function blankAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x20 || c === 0x09;
}

/**
 * Whether the key before the separator at `at` stands alone at its line's start: blanks, a
 * YAML list's `- ` or `export ` before it, then the line's start.
 */
function lineStartKey(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  while (i >= 0 && (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27)) i--;
  const keyEnd = i;
  while (i >= 0 && nameChar(text.charCodeAt(i))) i--;
  if (i === keyEnd || at - i > 128) return false;
  // A JSON string's start is its text's line start (`{"CommandLine":"password: …"}`).
  if (text.charCodeAt(i) === 0x22 && jsonStringStart(text, i)) return true;
  while (i >= 0 && (text.charCodeAt(i) === 0x22 || text.charCodeAt(i) === 0x27)) i--;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  // `export` at a line's start: also a JSON string's (review 23: `"content":"export
  // DB_PASSWORD=Ea1(…"` in a raw line was clear while its decoded text was masked).
  if (text.startsWith('export', i - 5)) {
    if (i - 6 < 0 || exportStart(text, i - 6)) i -= 6;
    else if (lineMarkerStart(text, i - 6) !== i - 6) {
      return lineStartAt(text, lineMarkerStart(text, i - 6)); // `+export NAME=V` in a diff
    }
  } else if (text.charCodeAt(i) === 0x2d) i--;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  if (lineStartAt(text, i)) return true;
  // A line's marker before the key (review 24): a diff's `+`, a comment's `#`, `//` or `;`, a
  // quote's `>`, a prompt's `$`, a list's `*`, a table's `12 |`, `[12]`, grep's `path:12:`.
  const marker = lineMarkerStart(text, i);
  return marker !== i && lineStartAt(text, marker);
}

/** Where the marker ending at `i` (see lineStartKey) begins, past blanks before it; else `i`. */
function lineMarkerStart(text: string, i: number): number {
  const c = text.charCodeAt(i);
  let j = i;
  // Glued to the key only a diff's `+` and a commented-out line's `#` (`$pass`, `*ptr` are code).
  const spaced = isBlank(text.charCodeAt(i + 1));
  if (c === 0x2b || c === 0x23) j = i - 1;
  else if (spaced && (c === 0x3b || c === 0x3e || c === 0x24 || c === 0x2a)) j = i - 1;
  else if (spaced && c === 0x2f && text.charCodeAt(i - 1) === 0x2f) j = i - 2;
  else if (c === 0x7c || c === 0x5d || c === 0x3a) {
    // `12 |`, `[12]`, `path:12:`: a number, then `[`, or a path's `:` (no blank in the path).
    let d = i - 1;
    while (c === 0x7c && d >= 0 && isBlank(text.charCodeAt(d))) d--;
    const digits = d;
    while (d >= 0 && text.charCodeAt(d) >= 0x30 && text.charCodeAt(d) <= 0x39) d--;
    if (d === digits || digits - d > 9) return i;
    if (c === 0x5d) return text.charCodeAt(d) === 0x5b ? skipBlanksBack(text, d - 1) : i;
    if (c === 0x7c) return skipBlanksBack(text, d);
    if (text.charCodeAt(d) !== 0x3a) return i;
    let p = d - 1;
    while (p >= 0 && p > d - 256 && text.charCodeAt(p) > 0x20 && text.charCodeAt(p) !== 0x22) p--;
    return p === d - 1 ? i : p;
  } else return i;
  return skipBlanksBack(text, j);
}

function skipBlanksBack(text: string, i: number): number {
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  return i;
}

/**
 * Whether a line starts after `i` (blanks before the key skipped): the text's or a line's start,
 * a viewer's line number before it, a JSON string's escaped line break or its start.
 */
function lineStartAt(text: string, i: number): boolean {
  if (i < 0 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d) return true;
  // A viewer's line number (./gutter: `12: `, `    12\t`).
  let d = text.charCodeAt(i) === 0x3a ? i - 1 : i;
  const digits = d;
  while (d >= 0 && text.charCodeAt(d) >= 0x30 && text.charCodeAt(d) <= 0x39) d--;
  if (d < digits && digits - d <= 9) {
    while (d >= 0 && (text.charCodeAt(d) === 0x20 || text.charCodeAt(d) === 0x09)) d--;
    if (d < 0 || text.charCodeAt(d) === 0x0a || text.charCodeAt(d) === 0x0d) return true;
  }
  // A JSON string's escaped line break (`\npassword: …` in a raw line), or its start.
  const c = text.charCodeAt(i);
  if ((c === 0x6e || c === 0x72) && text.charCodeAt(i - 1) === 0x5c) return true;
  return c === 0x22 && jsonStringStart(text, i);
}

/** What may stand before a line's `export`: a blank, a JSON string's start or its `\n`. */
function exportStart(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return true;
  if ((c === 0x6e || c === 0x72) && text.charCodeAt(at - 1) === 0x5c) return true;
  return c === 0x22 && jsonStringStart(text, at);
}

/** Whether the `"` at `q` opens a JSON string value (after `:`, `,`, `[`, past blanks). */
function jsonStringStart(text: string, q: number): boolean {
  let k = q - 1;
  while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k--;
  const c = text.charCodeAt(k);
  return c === 0x3a || c === 0x2c || c === 0x5b;
}
const PY_PREFIX = /^[rRbBuUfF]{1,2}$/;
const QUOTE = /^\\{0,8}["']/;
const WALLET_KEY = /^0x[0-9a-fA-F]{64}$/;
const PRIVATE_KEY_NAME = /private[_-]?key["'\]\s\\]*$/i;

/** ./prose's judgement of the bare value `value` ending at `end`. */
function judge(m: RegExpExecArray, end: number, value: string): ProseJudgement {
  const colon = (m[0][0] === ':' && m[0][1] !== '=') || m[0][0] === '\uFF1A';
  return judgeProse(m.input, end, value, m[1], colon);
}
/** A key ending in a number of 3-5 digits, before its closing quotes and blanks. */
/** Only a token's key: `API_KEY_2024=…`, `password_1234: …` are secrets' (review r15). */
const TOKEN_WORD = /^token$/i;
const NUMBERED_KEY = /[A-Za-z_-]\d{3,5}["'\]\s]*$/;
/** A number, or a lower-case name (`llama-3-8b`, `cl100k_base`): a model's, an encoding's. */
const NAME_OR_NUMBER = /^(?:\d+|[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*)$/;
/**
 * `TOKEN_2048=4096`, `token2048: llama-3-8b`, `token_4096: "cl100k_base"` (review r16 L): a
 * token key numbered like a context size holds a count or a model's name, not a secret. Not
 * after other names (`password_1234: see vault` stays as it was), nor a long value.
 */
function numberedKeyValue(m: RegExpExecArray, value: string): boolean {
  if (value.length >= 20 || !TOKEN_WORD.test(m[1]) || !NAME_OR_NUMBER.test(value)) return false;
  return NUMBERED_KEY.test(m.input.slice(Math.max(0, m.index - 12), m.index));
}
const QUOTES = new Set([0x22, 0x27, 0x5c]);
const TYPE_NAME = /^[A-Za-z_][\w.:]*$/;
const ANNOTATED = /[ \t]*=(?![=>~])/y;
/** Whether the bare value `value` ending at `end` is a type name before an `=`. */
function annotation(text: string, end: number, value: string): boolean {
  if (!TYPE_NAME.test(value)) return false;
  // A generic type: `password: Option<String> = …`; not a value glued on past its `>`
  // (review 22: `password: Ab<c>d&e…` was served clear, read as the type `Ab<c>`).
  if (text.charCodeAt(end) === 0x3c) return genericType(text, end);
  ANNOTATED.lastIndex = end;
  return ANNOTATED.test(text);
}
/** How far a generic type's arguments are read (`Option<HashMap<String, Vec<u8>>>`). */
const GENERIC_REACH = 128;
/**
 * Whether the `<` at `at` opens a generic type's arguments: a balanced `<…>` of names, blanks,
 * `,`, `&`, `'`, `[]`, `()`, `:` and `.`, followed by no letter or digit (`Option<String>`,
 * `Vec<u8>,`, `Option<&'a str> =`); `Ab<c>d&e9` goes on past its `>`, a value. Unclosed within
 * GENERIC_REACH or the line: a type cut at the line's end (`Result<String,`) when a blank or a
 * `,` came in it, else a value (`Ab<cd9Xq`).
 */
function genericType(text: string, at: number): boolean {
  let depth = 0;
  let spaced = false;
  const stop = Math.min(text.length, at + GENERIC_REACH);
  for (let i = at; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c) depth++;
    else if (c === 0x3e) {
      if (--depth === 0) return !alnumAt(text, i + 1);
    } else if (c === 0x20 || c === 0x2c) spaced = true;
    else if (!GENERIC_CHAR.test(text[i])) return spaced;
  }
  return spaced;
}
const GENERIC_CHAR = /[\w&'[\]():.\t]/;
/** A URL's user before its `:` (`https://x-access-token`). */
const URL_USER = /:\/\/[\w.~%-]{1,100}$/;
const CONCATENATED = /^[ \t]*(?:\+|\.\.|\|\||\)|,|;|$)/;
const YAML_KEY = /key|token/i;
const WORD = /^[\w+/=.~-]{8,}$/;
const LINE_END = /[ \t]*(?:$|[\r\n]|\\[rn])/y;
/**
 * `api_key: AbcDefGhij` in YAML: a single word of 8+ characters ending the line after an
 * api-key or token key and `: ` is configuration (`token: the thing` goes on, prose).
 */
function yamlWord(m: RegExpExecArray, end: number, value: string): boolean {
  if (m[0][0] !== ':' || m[0][1] === '=' || !YAML_KEY.test(m[1]) || !WORD.test(value)) {
    return false;
  }
  LINE_END.lastIndex = end;
  return LINE_END.test(m.input);
}
const ENV_NAME = /^[A-Z_-]+$/;
/**
 * Python's and JavaScript's keywords that end a condition's line, and literals: after
 * `if password1 != password2: raise …`, `elif password2: pass`, `case password2: break`,
 * code, not a value (review r15 M3). Only after such a condition (CONDITION): `password: raise`
 * alone is a value, and so is `raise123` anywhere.
 */
const CODE_WORDS = new Set(
  'raise pass break continue return yield throw del print exit None null nil True False'.split(' '),
);
/**
 * A condition's keyword on the line before the key (a line break, or a JSON string's escaped
 * one, starts the line): `if`, `elif`, `else if`, `while`, `until`, `unless`, `case`, `when`
 * (`if not password2:` has `if`). Not `assert`: keeping a quoted value after it served
 * `assert client.login(username="admin", password="V")` clear on every route (review r16 H1).
 */
const CONDITION = /(?:^|[^\w$.]|\\[nt])(?:if|elif|while|until|unless|case|when)[ \t(!]/;
/** How far back on its line the key's condition is looked for. */
const CONDITION_REACH = 160;

/**
 * Whether the value after the key at `at` is code after a condition: a bare CODE_WORDS word
 * (`if password1 != password2: raise …`). A quoted value is always a value.
 */
function conditionCode(text: string, at: number, value: string, bare: boolean): boolean {
  if (!bare || !CODE_WORDS.has(value)) return false;
  // Back to the line's start, at most CONDITION_REACH (lastIndexOf would read a long line whole
  // at every key: quadratic).
  let from = at;
  const stop = Math.max(0, at - CONDITION_REACH);
  while (from > stop) {
    const c = text.charCodeAt(from - 1);
    if (c === 0x0a || c === 0x0d) break;
    from--;
  }
  return CONDITION.test(text.slice(from, at));
}

/** `aws_secret_access_key = <40>` and `"SecretAccessKey": "<40>"` (aws sts output). */
export const awsSecretKey = regexDetector({
  kind: 'aws-secret-key',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${ci('secret')}[_-]?${ci('access')}[_-]?${ci('key')}${KEY_CLOSE})(?::=|=>|[:=])` +
    `[ \\t]*\\\\*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  quick: (text, at) => keyEndsWith(text, at, 'key'),
  pick: (m, end) => end - m[1].length,
});

/**
 * `Authorization: Bearer <token>` (and lower case, in JSON, in curl `-H`), `Basic <base64>`,
 * `token <token>` (GitHub), or a bare credential of 8+ characters with a digit. Masks the
 * credential only.
 */
export const authorization = regexDetector({
  kind: 'bearer',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${AUTHZ}${KEY_CLOSE})[:=][ \\t]*\\\\*["'\`]?[ \\t]*` +
    // Elasticsearch's `ApiKey` scheme too (review r17 M4), Okta's `SSWS` (review 19).
    `(?:(${ci('bearer')}|${ci('basic')}|${ci('token')}|${ci('apikey')}|SSWS)[ \\t]+)?` +
    '([A-Za-z0-9._~+/-]+=*)',
  quick: (text, at) => keyEndsWith(text, at, 'authorization'),
  pick: (m, end) => {
    const cred = m[2];
    if (m[1] === undefined && !(cred.length >= 8 && /\d/.test(cred))) return -1;
    return end - cred.length;
  },
  kindOf: (m) =>
    /^basic$/i.test(m[1] ?? '') ? 'basic-auth' : m[1] === 'SSWS' ? 'okta-token' : 'bearer',
});

/**
 * `Cookie: sid=...; theme=dark`, `Set-Cookie: ...`, `document.cookie = "..."`: the whole
 * header value, from its first `name=` to the end of the line or of the quoted string. The
 * name takes no character the shared trigger's VALUE_START refuses (a trigger is never
 * stricter than its detector).
 */
export const cookie = regexDetector({
  kind: 'cookie',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source:
    `(?<=${COOKIE}${KEY_CLOSE})[:=][ \\t]*(?:\\\\*["'\`])?[ \\t]*` +
    '([^\\s"\'`\\\\,;&|<>(){}\\[\\]=]+=[^\\r\\n"\'`\\\\]*)',
  quick: (text, at) => keyEndsWith(text, at, 'cookie') || keyEndsWith(text, at, 'cookies'),
  pick: (m, end) => (m[1].includes(REDACTED) ? -1 : end - m[1].length),
});

/** Azure storage connection strings: `AccountName=x;AccountKey=<base64>;...`. */
export const azureAccountKey = regexDetector({
  kind: 'azure-storage-key',
  anchors: ':=',
  trigger: '', // the shared ASSIGNMENT_TRIGGER
  back: 0,
  source: `(?<=${ci('accountkey')}${KEY_CLOSE})[:=][ \\t]*\\\\*["']?([A-Za-z0-9+/]{20,}={0,2})`,
  quick: (text, at) => keyEndsWith(text, at, 'accountkey'),
  pick: (m, end) => end - m[1].length,
});

/**
 * For the key names, the prefilter also looks at the value (never stricter than the
 * detectors that share the trigger, only cheaper): something must follow the separator, and
 * not a bare word of NOT_SECRETS (`password: str`, `token = await ...`): code mentions stay in
 * native code. A quoted value holds a letter or digit before its quote closes (what
 * acceptAssignment asks; `/+=` for a secret access key), or starts a cookie's name: `token:
 * '}'` in a compiler's message is not one.
 */
const QUOTED_VALUE = ['"', "'", '`']
  .map((q) => `${q}[^${q}\\\\\\r\\n]*?[A-Za-z0-9/+=\\x80-\\uffff]`)
  .join('|');
const VALUE_START =
  `(?=[=>]?[ \\t]*(?:\\\\*(?:${QUOTED_VALUE}|["'\`][ \\t]*[^\\s"'\`\\\\,;&|<>(){}\\[\\]=])` +
  '|\\[[ \\t]*\\\\*"|\\{|[^\\s"\'`\\\\,;&|<>(){}\\[\\]=]))';
/**
 * NOT_SECRETS as one alternation (wordTrie), less words rarely seen bare after a key, whose
 * candidates go on to the detectors that drop them: PREFILTER's size (20 KB, see patterns.spec).
 */
const RARE_BARE = new Set(['same-origin', 'include', 'changeme', 'typeof']);
const PREFILTER_WORDS = [...NOT_SECRETS].filter((w) => !RARE_BARE.has(w));
const NOT_A_WORD = `(?![=>]?[ \\t]*${ci(wordTrie(PREFILTER_WORDS))}(?![^\\s"'\`\\\\,;&|<>(){}\\[\\]]))`;
/**
 * After `Authorization:`, what `authorization` masks: a scheme, or a credential with a digit
 * (`Authorization: required` in prose is not one; no detector but `authorization` reads
 * that key, so the candidate need not leave native code).
 */
const AUTHZ_VALUE =
  `(?=[ \\t]*\\\\*["'\`]?[ \\t]*(?:(?:${ci('bearer')}|${ci('basic')}|${ci('token')}|${ci('apikey')}|SSWS)[ \\t]` +
  '|[A-Za-z0-9._~+/-]*\\d))';
/**
 * A wrapper a value may start with though NOT_A_WORD or VALUE_START would pass over it
 * (`String("…")`, `bytes("…")`; `[` starts no value): the source checks the literal (short, for
 * PREFILTER's size).
 */
const WRAPPED = '(?=[=>]?[ \\t]*(?:\\[\\]byte\\(|[Ss]tring\\(|bytes\\(|new[ \\t]+T))';
export const ASSIGNMENT_TRIGGER =
  `${SEP}(?<=${KEY_LAST}${KEY_CLOSE}${SEP})(?:(?<=${AUTHZ}${KEY_CLOSE}${SEP})${AUTHZ_VALUE}` +
  `|(?<=${ci('accountkey')}${KEY_CLOSE}${SEP})` +
  `|(?<=(?:${KEYWORDS})${KEY_SUFFIX}${KEY_CLOSE}${SEP})(?:${WRAPPED}|${VALUE_START}${NOT_A_WORD}))`;
