import { REDACTED, type Detector, type Span } from './detector';
import { GUTTER } from './gutter';
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
const SLASH_P = /:(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"']{1,1024}))/y;

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
    if (value !== '*' && password(value, quoted)) {
      const stop = quoted ? pos - 1 : pos;
      out.push({ start: stop - value.length, end: stop, kind: 'password' });
    }
    return;
  }
}

export const slashOptions: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=[ \\t"\']/(?:[uU](?:[sS][eE][rR])?|[pP]):)',
  find(text, at, _state, out) {
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
// `val password: String = "…"` (Kotlin, Scala, Swift), `var Password string = "…"` (Go).

const TYPED_NAME =
  /(?:^|[^\w$])([A-Za-z_$][\w$]*)(?:[ \t]*:[ \t]*(?:&(?:'static[ \t]+)?)?(?:str|string|String)|[ \t]+string)[ \t]*=$/;
const QUOTED = new RegExp(
  `=[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\`([^\`\\\\\\r\\n$]{1,${VALUE_MAX}})\`)`,
  'y',
);
export const typedConstant: Detector = {
  kind: 'password',
  anchors: '=',
  trigger: '=(?<=(?:str|[sS]tring)[ \\t]*=)(?=[ \\t]*["\'`])',
  find(text, at, _state, out) {
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

const PGPASS = /:([^:\s]{1,63}):([^:\s]{1,63}):((?:\\[\\:]|[^\s:"'\\]){1,1024})(?=$|[\s"'])/y;
const PGPASS_HEAD = new RegExp(
  `(?:^|[\\r\\n]|["'>][ \\t]*)${GUTTER}[ \\t]*[^:\\s#"']{1,253}:(?:\\d{1,5}|\\*)$`,
);
export const pgpassLine: Detector = {
  kind: 'password',
  anchors: ':',
  trigger: ':(?<=[^:\\s]:(?:\\d{1,5}|\\*):)(?=[^:\\s]{1,63}:[^:\\s]{1,63}:[^\\s:])',
  find(text, at, _state, out) {
    if (!PGPASS_HEAD.test(text.slice(Math.max(0, at - 300), at))) return -1;
    PGPASS.lastIndex = at;
    const m = PGPASS.exec(text);
    if (!m) return -1;
    const value = m[3];
    if (password(value, false) && value !== 'password') {
      out.push({ start: PGPASS.lastIndex - value.length, end: PGPASS.lastIndex, kind: 'password' });
    }
    return PGPASS.lastIndex;
  },
};

// A secret's default in code: `process.env.API_KEY || "…"`.

const ENV_NAME = /env\.([A-Za-z_$][\w$]{0,80})[ \t]*$/;
const DEFAULT = new RegExp(
  `\\|\\|[ \\t]*(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|\`([^\`\\\\\\r\\n$]{1,${VALUE_MAX}})\`)`,
  'y',
);
export const envDefault: Detector = {
  kind: 'password',
  anchors: '|',
  trigger: '\\|(?<=env\\.[A-Za-z_$][\\w$]{0,80}[ \\t]*\\|)(?=\\|[ \\t]*["\'`])',
  find(text, at, _state, out) {
    const name = ENV_NAME.exec(text.slice(Math.max(0, at - 100), at))?.[1];
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

export const LINE_DETECTORS: readonly Detector[] = [
  expectSend,
  slashOptions,
  nginxAuthorization,
  scramVerifier,
  wpaPsk,
  typedConstant,
  pgpassLine,
  envDefault,
];
