import { REDACTED, ci, type Detector, type Span } from './detector';
import { GUTTER } from './gutter';
import { STRING_PREFIX, WRAPPER } from './assignments';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- secrets in the lines of scripts and configuration files (review 8) -------------------------
//
// Each is anchored on a character the scan already looks for (`:`, `=`, `_`, `|`): a letter
// needle (`requirepass`, `bw unlock`) costs every text one more indexOf pass (see DETECTORS).

/** A value that names where the secret is or stands in for it: `$VAR`, `[lindex …]`, `<pw>`. */
function standIn(value: string): boolean {
  const c = value[0];
  return (
    c === '$' ||
    c === '%' ||
    c === '[' ||
    c === '{' ||
    c === '@' ||
    value.startsWith(REDACTED) ||
    /^<[^<>]*>$/.test(value)
  );
}
const password = (value: string, quoted: boolean) =>
  !standIn(value) && acceptAssignment('password', value, quoted, '');

/** Where the line holding `at` starts (past a real or an escaped line break), within `max`. */
function lineStart(text: string, at: number, max = 400): number {
  const from = Math.max(0, at - max);
  for (let i = at - 1; i >= from; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i + 1;
  }
  return from;
}
function lineEnd(text: string, at: number, max = 1200): number {
  const to = Math.min(text.length, at + max);
  for (let i = at; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return to;
}

// Expect scripts: `expect "assword:"` then `send "S3cret\r"`, on the next line or in braces.

const PROMPT_END = /^[ *]{0,2}["'}]/;
const EXPECT_WORD = /(?<![\w.-])expect(?:[ \t]+-\w+)*[ \t]+["'{]?[^\r\n]{0,40}$/;
const SEND = new RegExp(
  `:[^\\r\\n]{0,80}?(?:[\\r\\n]{1,2}${GUTTER}[ \\t]*|[{;][ \\t]*)send[ \\t]+(?:--[ \\t]+)?` +
    `"((?:[^"\\\\\\r\\n]|\\\\[^rn\\r\\n]){1,${VALUE_MAX}}?)((?:\\\\[rn])*)"`,
  'y',
);
/** `expect "Password:"` … `send "S3cret\r"`: the password sent after a password prompt. */
export const expectSend: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=[aA]ssword:)(?=[ *]{0,2}["\'}])',
  find(text, at, _state, out) {
    // The trigger's context, checked here too (a detector is never looser than its trigger).
    if (
      !/[aA]ssword$/.test(text.slice(at - 7, at)) ||
      !PROMPT_END.test(text.slice(at + 1, at + 4))
    ) {
      return -1;
    }
    if (!EXPECT_WORD.test(text.slice(lineStart(text, at, 80), at))) return -1;
    SEND.lastIndex = at;
    const m = SEND.exec(text);
    if (!m) return -1;
    const value = m[1];
    const end = SEND.lastIndex - 1 - m[2].length;
    if (password(value, true)) out.push({ start: end - value.length, end, kind: 'password' });
    return SEND.lastIndex;
  },
};

// Windows' slash options: `net use \\host\share S3cret /user:dom\bob`, `xfreerdp /p:S3cret`.

/** A quoted or bare argument. */
const ARG = /[ \t]+(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"']{1,1024}))/y;
const NET_USE = /(?<![\w.-])net(?:\.exe)?[ \t]+use(?=[ \t])/i;
const FREERDP = /(?<![\w.])(?:[xw]l?|sdl-)?freerdp3?(?:\.exe)?(?=[ \t])/i;
const SLASH_OPTION = /[ \t"']\/(?:[uU](?:[sS][eE][rR])?|[pP])$/;
const SLASH_P = /:(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"'\\]{1,1024}))/y;

/** An escape a bare value may start with: `\/`, `\t`, `\"`, `\u0041` (at any depth of JSON). */
const LEAD_ESCAPE = /^\\+(?:[/tbf"]|u[0-9a-fA-F]{4})/;

/** The arguments of `net use` after the share: the first that is no option is the password. */
function netUsePassword(text: string, from: number, end: number, out: Span[]): void {
  let pos = from;
  let share = false;
  while (pos < end) {
    ARG.lastIndex = pos;
    const m = ARG.exec(text);
    if (!m || ARG.lastIndex > end) return;
    pos = ARG.lastIndex;
    const value = m[1] ?? m[2] ?? m[3];
    const quoted = m[3] === undefined;
    if (!quoted && value.startsWith('/')) continue;
    if (!share) {
      share = value.startsWith('\\\\') || value.startsWith('//');
      continue;
    }
    // A bare password ends at a backslash, as other bare values do: in a JSON line `\n` ends
    // it, and the line's decoded literal is read too (./escaped). One that starts with an
    // escape (`\/Vq7…`, review r15 L1) is read past it here: the redactor's second reading of
    // value backslashes (`x/Vq7…`) reads the share's `\\` as `xx` too, no share.
    const lead = quoted ? 0 : (LEAD_ESCAPE.exec(value)?.[0].length ?? 0);
    const cut = quoted ? value : value.slice(0, lead) + value.slice(lead).split('\\')[0];
    if (cut !== '*' && cut.length > lead && password(cut.slice(lead), quoted)) {
      const start = (quoted ? pos - 1 : pos) - value.length;
      out.push({ start, end: start + cut.length, kind: 'password' });
    }
    return;
  }
}

const SLASH_TRIGGER = /[ \t"']\/(?:[uU](?:[sS][eE][rR])?|[pP]):$/;
export const slashOptions: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=[ \\t"\']/(?:[uU](?:[sS][eE][rR])?|[pP]):)',
  find(text, at, _state, out) {
    // Its trigger, checked here: another ':' trigger hit at every ':' of `:*:*…` (a .pgpass
    // port) ran this for each, a 400-character slice and test apiece (1 MB bait: 1 s).
    if (!SLASH_TRIGGER.test(text.slice(Math.max(0, at - 6), at + 1))) return -1;
    const start = lineStart(text, at);
    const head = text.slice(start, at);
    if (!SLASH_OPTION.test(head)) return -1;
    const p = (text.charCodeAt(at - 1) | 0x20) === 0x70;
    if (p) {
      if (!FREERDP.test(head)) return -1;
      SLASH_P.lastIndex = at;
      const m = SLASH_P.exec(text);
      if (!m) return -1;
      const value = m[1] ?? m[2] ?? m[3];
      const quoted = m[3] === undefined;
      const stop = quoted ? SLASH_P.lastIndex - 1 : SLASH_P.lastIndex;
      if (password(value, quoted))
        out.push({ start: stop - value.length, end: stop, kind: 'password' });
      return SLASH_P.lastIndex;
    }
    const net = NET_USE.exec(head);
    if (!net) return -1;
    const end = lineEnd(text, at);
    netUsePassword(text, start + net.index + net[0].length, end, out);
    return end;
  },
};

// `schtasks /create /tn x /tr y /ru bob /rp S3cret` (review 21): the run-as user's password;
// `/RP`, `/Rp`, `/rP` too (review 22: Windows' options are any case).

const SCHTASKS = /(?<![\w.-])schtasks(?:\.exe)?[ \t]/i;
const RP_OPTION = /^[ \t]\/[rR][pP]$/;
const RP_VALUE = /[ \t]+(?:\\*"([^"\\\r\n]{1,1024})\\*"|'([^'\r\n]{1,1024})'|([^\s"'\\]{1,1024}))/y;
export const schtasksPassword: Detector = {
  kind: 'password',
  anchors: 'pP',
  // Found by its needles `/rp`, `/Rp`, `/rP`, `/RP` (./patterns NEEDLES).
  trigger: '[pP](?<=[ \\t]/[rR][pP])(?=[ \\t]+[^\\s*])',
  find(text, at, _state, out) {
    // The option itself (the trigger's look-behind), not any `p` on a schtasks line.
    if (at < 3 || !RP_OPTION.test(text.slice(at - 3, at + 1))) return -1;
    if (!SCHTASKS.test(text.slice(lineStart(text, at), at))) return -1;
    RP_VALUE.lastIndex = at + 1;
    const m = RP_VALUE.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    const quoted = m[3] === undefined;
    const end = text.lastIndexOf(value, RP_VALUE.lastIndex) + value.length;
    if (password(value, quoted)) out.push({ start: end - value.length, end, kind: 'password' });
    return RP_VALUE.lastIndex;
  },
};

// nginx: `proxy_set_header Authorization "Basic dXNlcjpw…";`

const NGINX_AUTH =
  /_header[ \t]+(["']?)[aA]uthorization\1[ \t]+(["']?)([bB]asic|[bB]earer)[ \t]+([A-Za-z0-9+/=._~-]{8,})(?=\2)/y;
export const nginxAuthorization: Detector = {
  kind: 'basic-auth',
  anchors: '_',
  trigger: '_(?<=set_)(?=header[ \\t]+["\']?[aA]uthorization["\']?[ \\t])',
  find(text, at, _state, out) {
    if (!text.startsWith('set', at - 3)) return -1;
    NGINX_AUTH.lastIndex = at;
    const m = NGINX_AUTH.exec(text);
    if (!m) return -1;
    const end = NGINX_AUTH.lastIndex;
    const kind = /^basic$/i.test(m[3]) ? 'basic-auth' : 'bearer';
    out.push({ start: end - m[4].length, end, kind });
    return end;
  },
};

// A SCRAM verifier (pgbouncer's userlist.txt, pg_authid): `SCRAM-SHA-256$4096:salt$stored:server`.

const SCRAM_HEAD = /SCRAM-SHA-256\$\d{1,7}$/;
const SCRAM = /:([A-Za-z0-9+/=]{8,}\$[A-Za-z0-9+/=]{20,}:[A-Za-z0-9+/=]{20,})/y;
export const scramVerifier: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=SCRAM-SHA-256\\$\\d{1,7}:)(?=[A-Za-z0-9+/=]{8})',
  find(text, at, _state, out) {
    if (!SCRAM_HEAD.test(text.slice(Math.max(0, at - 22), at))) return -1;
    SCRAM.lastIndex = at;
    const m = SCRAM.exec(text);
    if (!m) return -1;
    out.push({ start: at + 1, end: SCRAM.lastIndex, kind: 'password' });
    return SCRAM.lastIndex;
  },
};

// wpa_supplicant: `psk="passphrase"` (8-63 characters) or `psk=` 64 hex digits.

const PSK = /=(?:"([^"\r\n]{8,63})"|([0-9a-fA-F]{64})(?![0-9a-zA-Z]))/y;
export const wpaPsk: Detector = {
  kind: 'password',
  anchors: '=',
  trigger: '=(?<=(?<![\\w-])psk=)(?=["0-9a-fA-F])',
  find(text, at, _state, out) {
    if (!/(?:^|[^\w-])psk$/.test(text.slice(Math.max(0, at - 4), at))) return -1;
    PSK.lastIndex = at;
    const m = PSK.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2];
    const end = m[1] !== undefined ? PSK.lastIndex - 1 : PSK.lastIndex;
    if (password(value, true)) out.push({ start: end - value.length, end, kind: 'password' });
    return PSK.lastIndex;
  },
};

// Typed constants: `const API_KEY: &str = "…"` (Rust), `const apiKey: string = "…"` (TypeScript),
// `val password: String = "…"` (Kotlin, Scala, Swift), `var Password string = "…"` (Go); pydantic's
// and Python's `password: SecretStr = SecretStr("…")`, `db_password: Optional[str] = "…"`,
// `password: bytes = b"…"`, Rust's `let password: String = String::from("…")` and
// `let password: Option<String> = Some(String::from("…"))` (review 20) (review r19 M2:
// these were clear, and `password: SecretStr = "…"` masked the type name, not the value).

const TYPE =
  "(?:&(?:'static[ \\t]+)?)?(?:str|string|String|SecretStr|SecretBytes|bytes" +
  '|Optional\\[[ \\t]*(?:str|SecretStr|SecretBytes|bytes)[ \\t]*\\]' +
  // Rust's `Option<String>`, `Option<&str>` (review 20).
  "|Option<[ \\t]*(?:&(?:'static[ \\t]+)?)?(?:str|String)[ \\t]*>)";
const TYPED_NAME = new RegExp(
  `(?:^|[^\\w$])([A-Za-z_$][\\w$]*)(?:[ \\t]*:[ \\t]*${TYPE}|[ \\t]+string)[ \\t]*=$`,
);
const QUOTED = new RegExp(
  `=[ \\t]*(?:${WRAPPER}\\([ \\t]*){0,2}${STRING_PREFIX}?` +
    `(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\`([^\`\\\\\\r\\n$]{1,${VALUE_MAX}})\`)`,
  'y',
);
/**
 * A type's last letters, then blanks, right before the `=` at `at` (the trigger): `str`,
 * `string`/`String`, `SecretStr`, `bytes`/`SecretBytes`, maybe inside `Optional[…]`.
 */
function typedBefore(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j--;
  if (text[j] === ']' || text[j] === '>') j--;
  while (j >= 0 && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j--;
  if (text.startsWith('str', j - 2) || text.startsWith('Str', j - 2)) return true;
  if (text.startsWith('ytes', j - 3)) return true;
  return text.startsWith('tring', j - 4) && (text[j - 5] === 's' || text[j - 5] === 'S');
}

export const typedConstant: Detector = {
  kind: 'password',
  anchors: '=',
  trigger:
    `=(?<=(?:[sS]tr|[sS]tring|[bB]ytes)(?:[ \\t]*[\\]>])?[ \\t]*=)` +
    `(?=[ \\t]*(?:${WRAPPER}\\([ \\t]*){0,2}${STRING_PREFIX}?["'\`])`,
  find(text, at, _state, out) {
    // Every detector anchored on `=` runs at each `=` another trigger took: TYPED_NAME tries
    // each of its 120 starts, which made 1 MB of `PWD=ab,` cost a quarter of its 260 ms. Its
    // own trigger first, in characters.
    if (!typedBefore(text, at)) return -1;
    const name = TYPED_NAME.exec(text.slice(Math.max(0, at - 120), at + 1))?.[1];
    const rule = name === undefined ? null : secretKey(name);
    if (rule === null) return -1;
    QUOTED.lastIndex = at;
    const m = QUOTED.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    const end = QUOTED.lastIndex - 1;
    if (!standIn(value) && acceptAssignment(rule.keyword, value, true, '')) {
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return QUOTED.lastIndex;
  },
};

// `.pgpass` lines: `host:port:database:user:password` (`*` for any field but the password).
// Compiler, linter and grep output has the same shape (`main.c:12:5:warning:unused-variable`,
// `src/app.ts:12:5:error:Unexpected`, `config.yml:12:db:host:localhost`), and so do times
// (`12:34:56:78:90`): review 9 saw each masked and counted. A `.pgpass` host is a host name, an
// address or `*` (no `/`, not a source file's name), its port `*` or a server's port (1024 and
// up: a line number is less, mostly) and its database not a column number (digits).

const PGPASS = /:([^:\s]{1,63}):([^:\s]{1,63}):((?:\\[\\:]|[^\s:"'\\]){1,1024})(?=$|[\s"'])/y;
/** A source or configuration file's extension, as a host's last label: a file, not a host. */
const FILE_EXT =
  /\.(?:ya?ml|json[c5]?|[cm]?[jt]sx?|go|c|h|cpp|cxx|hpp|java|kt|rb|php|swift|toml|ini|cfg|conf|txt|sql|vue|svelte|s?css|html?|xml|log|lock|gradle|properties|env)$/i;
/**
 * Whether `host:port` ends at `at` (the `:` after the port) and starts a line, a quoted string
 * or a redirection's text, or follows a blank (a gutter: `12: `, `+`, `cat -n`'s tab); the host
 * a name, an address or `*`, the port `*` or 1024 and up.
 */
function pgpassHead(text: string, at: number): boolean {
  let i = at - 1;
  if (text.charCodeAt(i) === 0x2a) i--;
  else {
    const stop = at - 6;
    while (i > stop && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i--;
    if (i === at - 1) return false;
    const port = Number(text.slice(i + 1, at));
    if (port < 1024 || port > 65535) return false;
  }
  if (text.charCodeAt(i) !== 0x3a) return false;
  const colon = i;
  const from = i - 1;
  const stop = Math.max(-1, i - 254);
  for (i = from; i > stop; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x3a || c === 0x23 || c === 0x22 || c === 0x27 || c <= 0x20) break;
    // A JSON escape's line break or tab (`\n`, `\t`) starts the line in a raw or encoded text.
    if ((c === 0x6e || c === 0x74 || c === 0x72) && text.charCodeAt(i - 1) === 0x5c) break;
    if (c === 0x2f || c === 0x5c) return false;
  }
  if (i === from) return false;
  if (FILE_EXT.test(text.slice(i + 1, colon))) return false;
  if (i < 0 || text.charCodeAt(i - 1) === 0x5c) return true;
  const c = text.charCodeAt(i);
  return c === 0x0a || c === 0x0d || c === 0x20 || c === 0x09 || c === 0x22 || c === 0x27;
}
/** A database field of digits only: a column number (`file:12:5:…`). */
const COLUMN = /^\d+$/;
/**
 * Log lines of the same shape (review 11): `worker-1:8080:jobs:INFO:started`,
 * `web:3000:app:GET:/health`, `k8s:6443:kube-system:coredns:Running`. A user field that is a log
 * level, an HTTP verb or a status word, or a last field that is a status word, is no `.pgpass`
 * line's.
 */
const LOG_WORD =
  /^(?:trace|debug|info|notice|warn(?:ing)?|err(?:or)?|fatal|crit(?:ical)?|alert|emerg|severe|fine|get|head|post|put|patch|delete|options|connect|running|pending|succeeded|failed|unknown|completed|terminating|containercreating|crashloopbackoff|ready|notready|ok|started|stopped|starting|stopping|healthy|unhealthy|up|down|active|inactive|done|success)$/i;
export const pgpassLine: Detector = {
  kind: 'password',
  anchors: ':',
  // The host field whole, as pgpassHead reads it: after a blank, a quote, a backslash (a JSON
  // escape's line break) or the text's start. Its last character alone hit at every ':' of
  // `:*:*…` (review 23's bait), which then ran every ':' detector at each (3.1 s of CPU per MB).
  trigger:
    ':(?<=(?<![^\\s"\'\\\\])[^:\\s"\'#]{1,253}:(?:\\d{1,5}|\\*):)(?=[^:\\s]{1,63}:[^:\\s]{1,63}:[^\\s:])',
  find(text, at, _state, out) {
    if (!pgpassHead(text, at)) return -1;
    PGPASS.lastIndex = at;
    const m = PGPASS.exec(text);
    if (!m) return -1;
    const value = m[3];
    if (COLUMN.test(m[1]) || LOG_WORD.test(m[2]) || LOG_WORD.test(value)) return PGPASS.lastIndex;
    if (password(value, false) && value !== 'password') {
      out.push({ start: PGPASS.lastIndex - value.length, end: PGPASS.lastIndex, kind: 'password' });
    }
    return PGPASS.lastIndex;
  },
};

// A secret's default in code: `process.env.API_KEY || "…"`, `process.env.API_KEY ?? "…"`, Ruby's
// `ENV["API_KEY"] || "…"` (review r19 M2: the last two were served clear).

const ENV_NAME = /(?:env\.([A-Za-z_$][\w$]{0,80})|ENV\[["']([A-Za-z_$][\w$]{0,80})["']\])[ \t]*$/;
const DEFAULT = new RegExp(
  `(?:\\|\\||\\?\\?)[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\`([^\`\\\\\\r\\n$]{1,${VALUE_MAX}})\`)`,
  'y',
);
/** What comes before the `||` or `??`: `env.NAME`, `ENV["NAME"]`. */
const ENV_REF = `(?:env\\.[A-Za-z_$][\\w$]{0,80}|ENV\\[["'][A-Za-z_$][\\w$]{0,80}["']\\])[ \\t]*`;
export const envDefault: Detector = {
  kind: 'password',
  anchors: '|',
  trigger: `\\|(?<=${ENV_REF}\\|)(?=\\|[ \\t]*["'\`])`,
  find(text, at, _state, out) {
    const env = ENV_NAME.exec(text.slice(Math.max(0, at - 100), at));
    const name = env?.[1] ?? env?.[2];
    const rule = name === undefined ? null : secretKey(name);
    if (rule === null) return -1;
    DEFAULT.lastIndex = at;
    const m = DEFAULT.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    const end = DEFAULT.lastIndex - 1;
    if (!standIn(value) && acceptAssignment(rule.keyword, value, true, '')) {
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return DEFAULT.lastIndex;
  },
};
/** `process.env.API_KEY ?? "…"`: envDefault at a `?` (the look-ahead first: `?` is in URLs). */
export const envDefaultNullish: Detector = {
  ...envDefault,
  anchors: '?',
  trigger: `\\?(?=\\?[ \\t]*["'\`])(?<=${ENV_REF}\\?)`,
};

// redis: `redis-cli CONFIG SET requirepass …`, `127.0.0.1:6379> CONFIG SET masterauth …`.
// Redis takes its commands and parameters in any case: `config set requirepass`, `CONFIG SET
// REQUIREPASS` (review 9: one blank after `redis-cli`, lower case and host-named prompts with a
// database number, `localhost:6379>`, `127.0.0.1:6379[1]>`, were served clear). Review 11:
// `AUTH [user] pass`, `HELLO 3 AUTH user pass`, `ACL SETUSER name … >pass`; valkey-cli and
// keydb-cli as redis-cli, `REDIS-CLI`, the socket prompt `redis /var/run/redis.sock>`, and a
// command piped in (`echo "AUTH X" | redis-cli`).
/**
 * CONFIG SET takes several parameter-value pairs (Redis 7): `CONFIG SET maxmemory 100mb
 * requirepass X masterauth Y` (review 10: only a first `requirepass` was read). A value is
 * quoted or a run without blanks or quotes.
 */
const PAIR =
  /([^\s"']{1,64})[ \t]+(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"'\\]{1,1024}))[ \t]*/y;
const IS_PASS_PARAM = /^(?:requirepass|masterauth)$/i;
/** At most this many pairs before a password parameter. */
const PAIRS_BEFORE = 8;
/** A command that takes a password: its name (group 1) and its blanks. */
const REDIS_COMMAND = new RegExp(
  `(?<![^ \\t"'>])(${ci('config')}[ \\t]+${ci('set')}|${ci('auth')}|${ci('hello')}[ \\t]+\\d{1,2}[ \\t]+${ci('auth')}|${ci('acl')}[ \\t]+${ci('setuser')})[ \\t]+`,
  'g',
);
/** One argument: "quoted", 'quoted' or bare (groups 1-3). */
const REDIS_ARG = `(?:"([^"\\r\\n\\\\]{1,1024})"|'([^'\\r\\n\\\\]{1,1024})'|([^\\s"'\\\\;|&]{1,1024}))`;
/** AUTH's one or two arguments (the last is the password), then the command's end. */
const AUTH_ARGS = new RegExp(
  `${REDIS_ARG}(?:[ \\t]+${REDIS_ARG})?(?=[ \\t]*(?:$|[;|&"'\\r\\n\\\\]))`,
  'y',
);
/** HELLO's AUTH takes a user and a password. */
const HELLO_ARGS = new RegExp(`${REDIS_ARG}[ \\t]+${REDIS_ARG}`, 'y');
/** ACL SETUSER's rules: `>pass` adds a password. */
const ACL_PASS = /(?<=[ \t])>([^\s"'\\;|&]{1,1024})/g;
/** `cli` (or `cli.exe`) and maybe options (`-h host -p 6379 -n 1`): where a command may start. */
const REDIS_CLI_REACH = 300;
/** A prompt: host (a name, an IPv4 or `[::1]`), port, maybe `[db]`, maybe `(TX)` in MULTI, `>`. */
const PROMPT_AT = /[\w.\]-]:\d{1,5}(?:\[\d{1,5}\])?(?:\(TX\))?>/y;
/** `echo "…" |` or `printf '…' |` just before `redis-cli`: the command piped in. */
const PIPED =
  /(?:^|[\s;&("`])(?:echo|printf)(?:[ \t]+-[a-zA-Z]{1,3})*[ \t]+(["'])([^"'\r\n]{1,1024})\1[ \t]*\|[ \t]*$/;

/** The password of the command at `from` (a REDIS_COMMAND match) in `text`, up to `end`. */
function redisCommand(text: string, m: RegExpExecArray, from: number, end: number, out: Span[]) {
  const name = m[1].toLowerCase();
  const line = text.slice(0, end);
  if (name.startsWith('config')) {
    PAIR.lastIndex = from;
    for (let pairs = 0; pairs <= PAIRS_BEFORE * 2; pairs++) {
      const p = PAIR.exec(line);
      if (!p) break;
      if (!IS_PASS_PARAM.test(p[1])) continue;
      const value = p[2] ?? p[3] ?? p[4];
      const quoted = p[4] === undefined;
      const valueAt = p.index + p[0].indexOf(value, p[1].length);
      if (password(value, quoted))
        out.push({ start: valueAt, end: valueAt + value.length, kind: 'password' });
    }
    return;
  }
  if (name.startsWith('acl')) {
    ACL_PASS.lastIndex = from;
    for (let a = ACL_PASS.exec(line); a; a = ACL_PASS.exec(line)) {
      if (password(a[1], false))
        out.push({ start: a.index + 1, end: ACL_PASS.lastIndex, kind: 'password' });
    }
    return;
  }
  const args = name.startsWith('hello') ? HELLO_ARGS : AUTH_ARGS;
  args.lastIndex = from;
  const a = args.exec(line);
  if (!a) {
    if (args === AUTH_ARGS) authInProse(line, from, out);
    return;
  }
  const second = a[4] ?? a[5] ?? a[6];
  // `AUTH X so` ending a sentence: a made-up first argument, a word after it.
  const first = a[1] ?? a[2] ?? a[3];
  if (
    args === AUTH_ARGS &&
    second !== undefined &&
    !GENERATED.test(second) &&
    GENERATED.test(first)
  ) {
    authInProse(line, from, out);
    return;
  }
  const value = second ?? first;
  const quoted = second !== undefined ? a[6] === undefined : a[3] === undefined;
  const stop = args.lastIndex - (quoted ? 1 : 0);
  if (password(value, quoted))
    out.push({ start: stop - value.length, end: stop, kind: 'password' });
}

/** Two arguments, quoted or bare, where the command goes on (a sentence, not a command line). */
const AUTH_WORDS = new RegExp(`${REDIS_ARG}(?:[ \\t]+${REDIS_ARG})?`, 'y');
/** Made up rather than said: 6+ characters with a letter and a digit. */
const GENERATED = /^(?=[^\s]*\d)(?=[^\s]*[A-Za-z])[^\s]{6,}$/;

/**
 * `redis-cli AUTH X so I should use it`: AUTH in a sentence, its arguments not ending the
 * line (review 11, H2: served clear, or the next word masked instead). The one that looks
 * generated is the password: the second (`AUTH default X`), else the first.
 */
function authInProse(line: string, from: number, out: Span[]): void {
  AUTH_WORDS.lastIndex = from;
  const a = AUTH_WORDS.exec(line);
  if (!a) return;
  const words: [string, number, boolean][] = [];
  const first = a[1] ?? a[2] ?? a[3];
  words.push([first, a.index + (a[3] === undefined ? 1 : 0), a[3] === undefined]);
  const second = a[4] ?? a[5] ?? a[6];
  if (second !== undefined) {
    const at = AUTH_WORDS.lastIndex - second.length - (a[6] === undefined ? 1 : 0);
    words.unshift([second, at, a[6] === undefined]);
  }
  for (const [value, at, quoted] of words) {
    if (!GENERATED.test(value)) continue;
    if (password(value, quoted)) out.push({ start: at, end: at + value.length, kind: 'password' });
    return;
  }
}

/** Every command of text[from, end) (a line past its redis context) that takes a password. */
function redisCommands(text: string, from: number, end: number, out: Span[], first: boolean) {
  const line = text.slice(0, end);
  REDIS_COMMAND.lastIndex = from;
  for (let m = REDIS_COMMAND.exec(line); m; m = REDIS_COMMAND.exec(line)) {
    if (first && m.index !== from) return;
    redisCommand(text, m, REDIS_COMMAND.lastIndex, end, out);
    if (first) return;
  }
}

/** The word before `-cli` (any case; not inside a longer word). */
const REDIS_CLI_WORD = /(?:^|[^\w-])(?:redis|valkey|keydb)-$/i;

/** `redis-cli …`, `valkey-cli`, `keydb-cli` (`at`: the `c` of `cli`), or a socket prompt. */
function redisCliFind(text: string, at: number, out: Span[]): number {
  // Every `-` and `.` candidate comes here (the scan runs all of an anchor's detectors).
  const next = text.charCodeAt(at + 1);
  if (text.charCodeAt(at) === 0x2e) {
    if (next !== 0x73 || !text.startsWith('sock>', at + 1)) return -1;
    // `redis /var/run/redis.sock>`: `redis` and a path on the line before.
    const start = lineStart(text, at, 200);
    if (!/(?:^|[^\w-])redis[ \t]+\/[^\s>]{0,200}$/.test(text.slice(start, at))) return -1;
    let from = at + 6;
    while (text.charCodeAt(from) === 0x20 || text.charCodeAt(from) === 0x09) from++;
    redisCommands(text, from, lineEnd(text, at), out, true);
    return from;
  }
  if ((next | 0x20) !== 0x63) return -1;
  if (!REDIS_CLI_WORD.test(text.slice(Math.max(0, at - 7), at + 1))) return -1;
  if (!/^cli$/i.test(text.slice(at + 1, at + 4))) return -1;
  const end = lineEnd(text, at);
  let from = at + 4;
  if (text.startsWith('.exe', from) || text.startsWith('.EXE', from)) from += 4;
  const c = text.charCodeAt(from);
  if (!(
    from >= end ||
    c === 0x20 ||
    c === 0x09 ||
    c === 0x22 ||
    c === 0x27 ||
    c === 0x5c ||
    c === 0x3b
  ))
    return -1;
  redisCommands(text, from, Math.min(end, from + REDIS_CLI_REACH + 1100), out, false);
  // A command piped in from echo or printf on the same line.
  const start = lineStart(text, at, 1200);
  const dash = text.lastIndexOf('-', at);
  const head = text.slice(start, dash);
  const word = /[A-Za-z]+$/.exec(head);
  if (word) {
    const piped = PIPED.exec(head.slice(0, head.length - word[0].length));
    if (piped) {
      const inner = start + piped.index + piped[0].indexOf(piped[1]) + 1;
      let from2 = inner;
      while (text.charCodeAt(from2) === 0x20) from2++;
      redisCommands(text, from2, inner + piped[2].length, out, true);
    }
  }
  return end;
}

export const redisCli: Detector = {
  kind: 'password',
  anchors: '-.',
  trigger:
    '[-.](?:(?<=(?:redis|valkey|keydb)-)(?=cli(?![\\w-]))|(?<=(?:REDIS|VALKEY|KEYDB)-)(?=CLI(?![\\w-]))' +
    '|(?<=\\.)(?=sock>))',
  find: (text, at, _state, out) => redisCliFind(text, at, out),
};
export const redisPromptCommand: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: `:(?<=[\\w.\\]-]:)(?=\\d{1,5}(?:\\[\\d{1,5}\\])?(?:\\(TX\\))?>[ \\t]*[A-Za-z])`,
  find(text, at, _state, out) {
    // Every `:` candidate comes here (the scan runs all of an anchor's detectors): cheap first.
    const d = text.charCodeAt(at + 1);
    if (!(d >= 0x30 && d <= 0x39)) return -1;
    PROMPT_AT.lastIndex = at - 1;
    if (!PROMPT_AT.test(text)) return -1;
    const end = lineEnd(text, at);
    let from = PROMPT_AT.lastIndex;
    while (text.charCodeAt(from) === 0x20 || text.charCodeAt(from) === 0x09) from++;
    redisCommands(text, from, end, out, true);
    return end;
  },
};

// Dockerfile's legacy `ENV NAME value` (no `=`): the rest of the line is the value (review r19
// M4: `ENV DB_PASSWORD S3cret` was served clear where `ENV DB_PASSWORD=S3cret` is masked).

const DOCKER_ENV = new RegExp(
  `ENV[ \\t]+([A-Za-z_][\\w.-]{0,80})[ \\t]+(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'` +
    `|([^\\s"'\\\\=][^"\\r\\n\\\\]{0,${VALUE_MAX}}))`,
  'y',
);
const TRAILING_BLANKS = /[ \t]+$/;
export const dockerEnv: Detector = {
  kind: 'password',
  // The `V` of a line's `ENV `, found by that word (./patterns NEEDLES).
  anchors: 'V',
  trigger:
    'V(?<=(?:^|[\\r\\n]|\\\\[nr])[ \\t]{0,8}ENV)(?=[ \\t]+[A-Za-z_][\\w.-]{0,80}[ \\t]+[^\\s=])',
  find(text, at, _state, out) {
    DOCKER_ENV.lastIndex = at - 2;
    const m = DOCKER_ENV.exec(text);
    const rule = m && secretKey(m[1]);
    if (!m || !rule) return -1;
    const quoted = m[4] === undefined;
    const value = (m[2] ?? m[3] ?? m[4]).replace(TRAILING_BLANKS, '');
    const end = quoted
      ? DOCKER_ENV.lastIndex - 1
      : DOCKER_ENV.lastIndex - (m[4].length - value.length);
    if (!standIn(value) && acceptAssignment(rule.keyword, value, quoted, '', true)) {
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return DOCKER_ENV.lastIndex;
  },
};

// A password file given as a process substitution: `ansible-playbook site.yml
// --vault-password-file <(echo S3cret)`, `--password-file <(printf '%s' S3cret)` (review r19
// M4: the echoed password was served clear).

const ECHOED = new RegExp(
  `\\([ \\t]*(?:echo(?:[ \\t]+-[neE]{1,3})?|printf[ \\t]+\\\\*(["'])%s(?:\\\\n)?\\\\*\\1)[ \\t]+` +
    `(?:\\\\*"([^"\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*"|\\\\*'([^'\\\\\\r\\n]{1,${VALUE_MAX}})\\\\*'|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))[ \\t]*\\)`,
  'y',
);
export const echoedPasswordFile: Detector = {
  kind: 'password',
  anchors: '(',
  trigger:
    '\\((?=[ \\t]*(?:echo|printf)[ \\t])' +
    '(?<=-(?:[\\w-]{0,20}[-_])?(?:pass(?:word)?|passphrase|secret|token)[-_]file(?:[ \\t]+|=)<\\()',
  find(text, at, _state, out) {
    ECHOED.lastIndex = at;
    const m = ECHOED.exec(text);
    if (!m) return -1;
    const value = m[2] ?? m[3] ?? m[4];
    const end = text.lastIndexOf(value, ECHOED.lastIndex) + value.length;
    if (!standIn(value) && acceptAssignment('password', value, true, '')) {
      out.push({ start: end - value.length, end, kind: 'password' });
    }
    return ECHOED.lastIndex;
  },
};

export const LINE_DETECTORS: readonly Detector[] = [
  expectSend,
  slashOptions,
  schtasksPassword,
  nginxAuthorization,
  scramVerifier,
  wpaPsk,
  typedConstant,
  pgpassLine,
  envDefault,
  envDefaultNullish,
  dockerEnv,
  echoedPasswordFile,
  redisCli,
  redisPromptCommand,
];
