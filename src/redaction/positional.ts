import { REDACTED, type Detector, type Span } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- secrets given as a command's positional arguments ------------------------------------------

/** Options between the command words and the arguments: `--location=user`, `-H`, `/M`. */
const OPTIONS = `(?:[ \\t]+(?:-{1,2}[\\w-]+(?:=[^\\s"'\`]*)?|/[A-Za-z]))*`;
/** A quoted or bare argument, groups: 'x', "x", bare. */
const arg = `(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})'|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})"|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`;
/** An argument that is not captured. */
const ANY = `(?:'[^'\\r\\n]{0,1024}'|"[^"\\r\\n]{0,1024}"|[^\\s"'\`;&|<>()]{1,1024})`;

interface Found {
  text: string;
  quoted: boolean;
  end: number;
}
/** The argument in groups `g`, `g+1`, `g+2` of `m`, ending the match at `end`. */
function argAt(m: RegExpExecArray, g: number, end: number): Found {
  const quoted = m[g + 2] === undefined;
  const text = m[g] ?? m[g + 1] ?? m[g + 2];
  return { text, quoted, end: quoted ? end - 1 : end };
}
const reference = (v: string) => v.startsWith('$') || v.startsWith('%') || v.startsWith(REDACTED);

/**
 * A value set under a secret-named key (the names of ./keys): pushes its span if it is one.
 * `loose`: a bare value needs no digit (the command sets configuration, as `API_KEY=` does).
 */
function keyedValue(key: string, value: Found, next: string, out: Span[]) {
  const rule = secretKey(key);
  if (!rule || reference(value.text)) return;
  if (!acceptAssignment(rule.keyword, value.text, value.quoted, next, true)) return;
  const aws = /secret_access_key$/i.test(key) && /^[A-Za-z0-9/+=]{40}$/.test(value.text);
  const kind = aws ? 'aws-secret-key' : rule.kind;
  out.push({ start: value.end - value.text.length, end: value.end, kind });
}

/** `config set KEY VALUE`, `configure set …` (npm, yarn, pnpm, aws, gcloud). */
const CONFIG_SET = new RegExp(`set${OPTIONS}[ \\t]+${arg}[ \\t]+${arg}`, 'y');
/** `setx KEY VALUE` (Windows), `set -x KEY VALUE`, `set -gx …` (fish). */
const SET_EXPORT = new RegExp(
  `set(?:x|[ \\t]{1,4}-[A-Za-z]{0,3}x[A-Za-z]{0,3})${OPTIONS}[ \\t]+${arg}[ \\t]+${arg}`,
  'y',
);
/**
 * Setters of `NAME VALUE` (review 25): Dockerfile's `env` and `ARG` (`ENV` is ./lines
 * dockerEnv's), csh's `setenv`, Apache's `SetEnv`, nginx's `fastcgi_param`.
 */
const SPACE_SETTER = '(?:[sS]et)?[eE]nv|ARG|fastcgi_param';
const SPACE_SET = new RegExp(`(?:${SPACE_SETTER})[ \\t]+${arg}[ \\t]+${arg}`, 'y');
/** `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (MinIO client; `mc config host add` before). */
const MC_ALIAS = new RegExp(
  `mc[ \\t]+(?:alias[ \\t]+set|config[ \\t]+host[ \\t]+add)${OPTIONS}(?:[ \\t]+${ANY}){3}[ \\t]+${arg}`,
  'y',
);
const NOT_IN_WORD = '(?<![\\w.]|[\\w.]-)';
/**
 * The start of an upper-case setting's name up to its first `_` (`DB_PASSWORD` of `wp config
 * set DB_PASSWORD S3cret`): any tool's `config set NAME VALUE`, masked when NAME is a secret's.
 */
// Upper case only: the look-behind runs at every `_`, and code's `snake_case` names would each
// cost a scan back over their letters (figure 7); settings named so are constants anyway.
const CONFIG_KEY_HEAD = '[A-Z][A-Z0-9]{0,39}_';
/**
 * After that `_`, the rest of a name that ends as a secret's does (`PASSWORD`, `AUTH_KEY`; one more
 * word at most, so that base64 and hex runs with a `_` fail at their first letters): tested
 * first (it fails at once after nearly every `_`, where the look-behind would read back), and by
 * setFind too (a detector is never looser than its trigger).
 */
const CONFIG_KEY_REST =
  '(?=(?:[A-Z0-9]{1,20}_)?(?:PASSWORD|PASSWD|PASS|PWD|SECRET|KEY|TOKEN|SALT|CREDENTIALS?)["\'\\s])';
const CONFIG_KEY_REST_RE = new RegExp(CONFIG_KEY_REST, 'y');
/** The commands, up to where a trigger fires: the `_` of a key, `-` of fish's option, `:` of a URL. */
const COMMAND_HEAD = new RegExp(
  // The same names as KEY_TRIGGER's (a detector is never looser than its trigger).
  `${NOT_IN_WORD}(config(?:ure)?[ \\t]+set)(?:[ \\t]+-{1,2}[\\w=.-]{1,40})*` +
    `[ \\t]+["']?(?:aws_|[\\w./:@-]{0,64}/:_|${CONFIG_KEY_HEAD})$` +
    `|${NOT_IN_WORD}(setx)(?:[ \\t]+/[A-Za-z])*[ \\t]+["']?[A-Z0-9]{1,40}_$` +
    `|${NOT_IN_WORD}(set)[ \\t]{1,4}-$` +
    `|${NOT_IN_WORD}(mc)[ \\t]+(?:alias[ \\t]+set|config[ \\t]+host[ \\t]+add)[ \\t]+\\S{1,64}[ \\t]+https?:$` +
    `|${NOT_IN_WORD}(${SPACE_SETTER})[ \\t]+["']?[A-Z0-9]{1,40}_$`,
);
/** How far before the anchor a command's head is looked for. */
const HEAD_MAX = 400;

/** `set` and one to four blanks right before the `-` at `at`. */
function setBefore(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= at - 4 && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j--;
  return j < at - 1 && text.startsWith('set', j - 2);
}

/** Where the command before the anchor at `at` starts, and which regex reads it. */
const setFind: Detector['find'] = (text, at, _state, out) => {
  // What COMMAND_HEAD's alternatives end with at a `:` and a `-` (`https?:`, `[ \t]-`), tested
  // before slicing: the shared trigger brings every `password:` here too.
  const c = text.charCodeAt(at);
  if (c === 0x3a && !text.startsWith('http:', at - 4) && !text.startsWith('https:', at - 5)) {
    return -1;
  }
  // At a `-`, only fish's `set -x` ends there: its `set` and 1-4 blanks, read back before the
  // regex tries its 400 starts (every ` -` of other commands came here: 1 MB of `-p a ` cost
  // 220 ms).
  if (c === 0x2d && !setBefore(text, at)) return -1;
  const from = Math.max(0, at - HEAD_MAX);
  const head = COMMAND_HEAD.exec(text.slice(from, at + 1));
  if (!head) return -1;
  if (head[1] !== undefined && !/(?:aws_|\/:_)$/.test(head[0])) {
    CONFIG_KEY_REST_RE.lastIndex = at + 1;
    if (!CONFIG_KEY_REST_RE.test(text)) return -1;
  }
  const start =
    head[5] !== undefined
      ? from + head.index
      : from + head.index + head[0].search(/config|setx|set|mc/);
  const re =
    head[5] !== undefined
      ? SPACE_SET
      : head[4] !== undefined
        ? MC_ALIAS
        : head[1] !== undefined
          ? CONFIG_SET
          : SET_EXPORT;
  re.lastIndex =
    re === MC_ALIAS ? start : head[1] !== undefined ? start + head[1].length - 3 : start;
  const m = re.exec(text);
  if (!m) return -1;
  if (re === MC_ALIAS) {
    const value = argAt(m, 1, re.lastIndex);
    if (!reference(value.text) && acceptAssignment('secret', value.text, true, '')) {
      out.push({ start: value.end - value.text.length, end: value.end, kind: 'password' });
    }
  } else {
    const key = m[1] ?? m[2] ?? m[3];
    const value = argAt(m, 4, re.lastIndex);
    // fish's `set -x NAME Ab(cd…`: a bare value runs on past brackets (review 25).
    const whole = re === SET_EXPORT && !value.quoted ? gluedArgument(text, value) : value;
    keyedValue(key, whole, text[whole.end] ?? '', out);
    return Math.max(re.lastIndex, whole.end);
  }
  return re.lastIndex;
};

/** What a bare argument may hold past the bare class's stop, glued: brackets. */
const ARG_GLUE = new Set([...'()[]{}<>'].map((c) => c.charCodeAt(0)));
/**
 * The bare argument `value` run on past brackets glued to it up to a blank, a quote, a
 * backslash or a shell operator (`set -x API_TOKEN Rq06(Xm2vL9pT4wZ8` was masked nowhere: the
 * argument ended at `(`), when the run is 12 characters or more with a letter and a digit.
 */
function gluedArgument(text: string, value: Found): Found {
  if (!ARG_GLUE.has(text.charCodeAt(value.end))) return value;
  const stop = Math.min(text.length, value.end + VALUE_MAX);
  let i = value.end;
  for (; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x22 || c === 0x27 || c === 0x60 || c === 0x5c || c === 0x7f) break;
    if (c === 0x3b || c === 0x26 || c === 0x7c) break;
  }
  const run = text.slice(value.end - value.text.length, i);
  if (run.length < 12 || !/\d/.test(run) || !/[A-Za-z]/.test(run)) return value;
  return { text: run, quoted: false, end: i };
}

/**
 * The `_` of the setting's name, in native code with look-behinds that fail at once on the
 * `_` of ordinary names: aws's `aws_secret_access_key` and `aws_session_token`, npm's
 * `//registry/:_authToken` and `:_password`, and an upper-case name after `setx`.
 */
const KEY_TRIGGER =
  '_(?:(?<=[ \\t"\']aws_)(?=(?:secret_access_key|session_token)[ \\t"\'])' +
  `|${CONFIG_KEY_REST}(?<=${NOT_IN_WORD}config(?:ure)?[ \\t]+set(?:[ \\t]+-{1,2}[\\w=.-]{1,40})*[ \\t]+["']?${CONFIG_KEY_HEAD})` +
  '|(?<=/:_)(?=(?:auth(?:Token)?|password)[ \\t"\'])' +
  `|(?<=${NOT_IN_WORD}(?:setx(?:[ \\t]+/[A-Za-z])*|${SPACE_SETTER})[ \\t]+["']?[A-Z0-9]{1,40}_))`;
const FISH_TRIGGER = `-(?=[A-Za-z]{0,3}x[A-Za-z]{0,3}[ \\t])(?<=${NOT_IN_WORD}set[ \\t]{1,4}-)`;
const MINIO_TRIGGER = `:(?<=${NOT_IN_WORD}mc[ \\t]+(?:alias[ \\t]+set|config[ \\t]+host[ \\t]+add)[ \\t]+\\S{1,64}[ \\t]+https?:)`;

/**
 * Values set by commands that take a name and a value, not `NAME=value`: `aws configure set
 * aws_secret_access_key …`, `wp config set DB_PASSWORD …` (any tool's `config set` of a name
 * with a `_`), `npm config set "//registry.example/:_authToken" "…"`, `setx
 * API_KEY …`, `set -gx GITHUB_TOKEN …` (fish): the value of a secret-named setting; `mc alias
 * set NAME URL ACCESS SECRET`: the secret key. No letter may anchor them (a letter as the
 * prefilter's first character costs every text a third of its speed, see DETECTORS): the `_`
 * of the setting's name (a name without one, `yarn config set npmAuthToken …`, is not read),
 * fish's `-x`, and the `:` of MinIO's URL.
 */
export const SET_COMMANDS: readonly Detector[] = [
  { kind: 'password', anchors: '_', trigger: KEY_TRIGGER, find: setFind },
  { kind: 'password', anchors: '-', trigger: FISH_TRIGGER, find: setFind },
  { kind: 'password', anchors: ':', trigger: MINIO_TRIGGER, find: setFind },
];

/** A tool's secret argument: after `head` (sticky from the anchor), `skip` arguments, then it. */
function toolArgument(o: {
  anchors: string;
  trigger: string;
  /** Characters before the anchor where `head` starts. */
  back: number;
  head: string;
  skip: number;
  /** A named value: the argument before it is its name, masked only when it names a secret. */
  keyed?: boolean;
  /** Text `head` starts with, compared before the regex runs. */
  literal?: string;
}): Detector {
  const re = new RegExp(
    `${o.head}${OPTIONS}(?:[ \\t]+${ANY}){${o.skip}}[ \\t]+${o.keyed ? arg + '[ \\t]+' : ''}${arg}`,
    'y',
  );
  return {
    kind: 'password',
    anchors: o.anchors,
    trigger: o.trigger,
    find(text, at, _state, out) {
      if (o.literal !== undefined && !text.startsWith(o.literal, at - o.back)) return -1;
      re.lastIndex = at - o.back;
      const m = re.exec(text);
      if (!m) return -1;
      if (o.keyed) {
        keyedValue(m[1] ?? m[2] ?? m[3], argAt(m, 4, re.lastIndex), text[re.lastIndex] ?? '', out);
      } else {
        const value = argAt(m, 1, re.lastIndex);
        if (!reference(value.text) && acceptAssignment('secret', value.text, true, '')) {
          out.push({ start: value.end - value.text.length, end: value.end, kind: 'password' });
        }
      }
      return re.lastIndex;
    },
  };
}

/**
 * Tools that take a token or password as a plain argument: `ngrok config add-authtoken T`,
 * `poetry config pypi-token.pypi T`, `poetry config http-basic.corp user P` (and composer's
 * `config http-basic.repo.example.com user P`, `config github-oauth.github.com T`), `rabbitmqctl
 * add_user user P` and `change_password user P`, `netlify env:set API_TOKEN T` (a name that is
 * a secret's).
 */
export const TOOL_ARGUMENTS: readonly Detector[] = [
  toolArgument({
    anchors: '-',
    trigger: '', // secureStringPassword's (./calls)
    back: 3,
    head: 'add-authtoken',
    literal: 'add-authtoken',
    skip: 0,
  }),
  // ngrok v2's `ngrok authtoken T` (review r19 M4): the `h` of `authtoken`, found by its
  // whole word (./patterns NEEDLES), no letter scanned alone.
  toolArgument({
    anchors: 'h',
    trigger: 'h(?<=ngrok(?:\\.exe)?[ \\t]{1,4}auth)(?=token[ \\t]+\\S)',
    back: 3,
    // ngrok's alone, as the trigger says (the detector is also tried where no trigger ran).
    head: '(?<=ngrok(?:\\.exe)?[ \\t]{1,4})authtoken',
    literal: 'authtoken',
    skip: 0,
  }),
  toolArgument({
    anchors: '-',
    trigger: '', // secureStringPassword's (./calls)
    back: 4,
    head: 'pypi-token\\.[\\w-]{1,40}',
    literal: 'pypi-token.',
    skip: 0,
  }),
  toolArgument({
    anchors: '-',
    trigger: '', // secureStringPassword's (./calls)
    back: 4,
    head: 'http-basic\\.[\\w.-]{1,80}',
    literal: 'http-basic.',
    skip: 1,
  }),
  toolArgument({
    anchors: '-',
    trigger: '', // secureStringPassword's (./calls)
    back: 6,
    head: 'github-oauth\\.[\\w.-]{1,80}',
    literal: 'github-oauth.',
    skip: 0,
  }),
  toolArgument({
    anchors: '_',
    trigger: '_(?<=(?:add|change)_)(?=(?:user|password)[ \\t]+\\S)',
    back: 0,
    head: '(?:(?<=add)_user|(?<=change)_password)',
    skip: 1,
  }),
  // `dotnet user-secrets set "Db:Password" "…"` (review 20): a name that is a secret's.
  toolArgument({
    anchors: '-',
    trigger: '-(?<=user-)(?=secrets[ \\t]+set[ \\t]+\\S)',
    back: 4,
    head: 'user-secrets[ \\t]+set',
    literal: 'user-secrets',
    skip: 0,
    keyed: true,
  }),
  // MongoDB Atlas' `atlas config set private_api_key <key>` and any tool's `config set api_key
  // <key>` (review 20; upper-case names are CONFIG_SET's): the `_` before `key`.
  toolArgument({
    anchors: '_',
    trigger: '_(?<=config[ \\t]{1,4}set[ \\t]{1,4}(?:private_)?api_)(?=key[ \\t]+\\S)',
    back: 3,
    head: '(?<=config[ \\t]{1,4}set[ \\t]{1,4}(?:private_)?)api_key',
    literal: 'api_key',
    skip: 0,
  }),
  toolArgument({
    anchors: ':',
    trigger: ':(?<=env:)(?=set[ \\t]+\\S)',
    back: 0,
    head: ':set',
    literal: ':set',
    skip: 0,
    keyed: true,
  }),
];
