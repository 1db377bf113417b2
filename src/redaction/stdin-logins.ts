import { REDACTED, type Detector } from './detector';

// --- passwords fed to a login on its standard input ----------------------------------------------

/** Tools whose login reads a password (or token) from stdin. */
const LOGIN_TOOLS = 'docker|podman|nerdctl|buildah|skopeo|oras|helm|crane|gh';
/**
 * A login reading its secret from stdin, in one stage of a pipeline: the tool by name or path
 * (`/usr/bin/docker`), after any prefix (`sudo -E`, `DOCKER_CONFIG=… `, `timeout 30`, `env`),
 * its options (`--config /tmp/c`), `login` (`registry login`, `auth login`), then
 * `--password-stdin` (`--with-token` for gh).
 */
const LOGIN_TOOL = new RegExp(`(?<![\\w.-])(?:${LOGIN_TOOLS})(?![\\w.-])`);
const LOGIN_WORD = /[ \t](?:(?:auth|registry)[ \t]+)?login(?![\w-])/;
const STDIN_FLAG = /--(?:password-stdin|with-token)(?![\w-])/;
/**
 * Other commands whose standard input is a secret: `sudo -S` (the user's password), `chpasswd`
 * and `passwd --stdin`, and the secret stores' setters (`gh secret set K`, `gcloud secrets
 * create|versions add`, `wrangler secret put`, `docker secret create`, `vercel env add`), 1Password's `op signin`.
 */
const STDIN_SINK =
  /(?<![\w.-])(?:sudo(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*S(?![\w-])|chpasswd(?![\w-])|passwd[ \t]+--stdin|gh[ \t]+secret[ \t]+set|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)|wrangler[ \t]+(?:pages[ \t]+)?secret[ \t]+put|docker[ \t]+secret[ \t]+create|vercel[ \t]+env[ \t]+add|op[ \t]+signin(?![\w-]))/;
const SINK_TOOLS = 'sudo|chpasswd|passwd|gcloud|wrangler|vercel|op';
/** How far one pipeline stage is read for its login. */
const STAGE_MAX = 800;

/**
 * Where the stdin login of the pipeline stage starting at `from` ends (just past its flag), or
 * -1. Three linear searches in the stage (up to `|`, `;`, `&` or a line break), not one regex
 * with nested lazy runs: a line of many tool names and no login must not cost quadratic time.
 */
const STAGE_END = /[|;&\r\n]/g;
function stdinLoginEnd(text: string, from: number): number {
  STAGE_END.lastIndex = from;
  const stop = STAGE_END.exec(text)?.index ?? text.length;
  const part = text.slice(from, Math.min(stop, from + STAGE_MAX));
  const sink = STDIN_SINK.exec(part);
  if (sink) return from + sink.index + sink[0].length;
  const tool = LOGIN_TOOL.exec(part);
  if (!tool) return -1;
  const afterTool = tool.index + tool[0].length;
  const login = LOGIN_WORD.exec(part.slice(afterTool));
  if (!login) return -1;
  const afterLogin = afterTool + login.index + login[0].length;
  const flag = STDIN_FLAG.exec(part.slice(afterLogin));
  return flag ? from + afterLogin + flag.index + flag[0].length : -1;
}
/**
 * `echo VALUE` or `printf '%s' VALUE` (or `'%s\n'`) ending right before the `|` (or before one more stage:
 * `echo X | tee /dev/null | docker login …`); groups 1-3 the value. It may open a quoted
 * string or code span: `bash -c "echo …"`, a raw JSON line's `"CommandLine": "echo …"`,
 * `` `echo …` `` in prose.
 */
const ECHOED =
  /(?:echo(?:[ \t]+-[neE]+)*|printf(?:[ \t]+(?:'%s(?:\\n)?'|"%s(?:\\n)?"|%s))?)[ \t]+(?:'([^'\r\n]{1,4096})'|"([^"\r\n\\]{1,4096})"|([^\s'"`\\;&|<>()]{1,4096}))[ \t]*(?:\|[^|\r\n;&`]{1,200})?$/dy;
/** What may stand before `echo`: a command's start, maybe a diff's `+` or `-`. */
const BEFORE_ECHO = /(?:^|[\s;&("'`]|\\[nr])[+-]?$/;
/** How many `echo`/`printf` words back from the `|` are tried. */
const ECHO_TRIES = 4;

/**
 * The echo that feeds the `|` ending `before`: the LAST one that reaches it (a line may hold
 * `"a": "echo A | sudo -S ls", "b": "echo B | sudo -S ls"`), found by searching back for the
 * words, so a text of many pipes and no echo costs one search per pipe, not a scan.
 */
function lastEcho(before: string): RegExpExecArray | null {
  let e = before.lastIndexOf('echo');
  let p = before.lastIndexOf('printf');
  for (let tries = 0; tries < ECHO_TRIES && (e >= 0 || p >= 0); tries++) {
    const at = Math.max(e, p);
    if (BEFORE_ECHO.test(before.slice(Math.max(0, at - 3), at))) {
      ECHOED.lastIndex = at;
      const m = ECHOED.exec(before);
      if (m) return m;
    }
    if (at === e) e = e > 0 ? before.lastIndexOf('echo', e - 1) : -1;
    else p = p > 0 ? before.lastIndexOf('printf', p - 1) : -1;
  }
  return null;
}

/** `cat <<EOF` (or `<<-'EOF'`) ending right before the `|`: group 2 the terminator. */
const HEREDOC = /(?:^|[\s;&("'`]|\\[nr])[+-]?cat[ \t]+<<-?[ \t]*(["']?)(\w{1,40})\1[ \t]*$/;

/**
 * Where the text that may feed the `|` at `at` starts: the start of its stage or of the stage
 * before (`echo X | tee … | login`), at most 4,500 characters back, and 3 more for what may
 * stand before the echo: read back character by character to the first break, so a text of
 * many pipes costs the length of each stage, not 4,500 characters per pipe.
 */
function feedStart(text: string, at: number): number {
  const limit = Math.max(0, at - 4500);
  let pipes = 0;
  for (let i = at - 1; i >= limit; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x3b || c === 0x26 || (c === 0x7c && ++pipes === 2)) {
      return Math.max(limit, i - 2);
    }
  }
  return limit;
}

/** The value a pipeline feeds into the login at `at` (its `|`), or null. */
function fedValue(text: string, at: number): { start: number; end: number } | null {
  const from = feedStart(text, at);
  const before = text.slice(from, at);
  const m = lastEcho(before);
  if (m) {
    const group = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : 3;
    const value = m[group];
    if (value.startsWith('$') || value.startsWith(REDACTED)) return null;
    const [start, end] = (m.indices as RegExpIndicesArray)[group];
    return { start: from + start, end: from + end };
  }
  const h = HEREDOC.exec(before);
  if (!h) return null;
  // The here-document starts on the next line and ends at its terminator: its first line is
  // the secret (a login reads one line).
  const lineEnd = text.indexOf('\n', at);
  if (lineEnd < 0) return null;
  const next = text.indexOf('\n', lineEnd + 1);
  const stop = next < 0 ? text.length : next;
  const line = text.slice(lineEnd + 1, stop).replace(/\r$/, '');
  if (line === '' || line === h[2] || line.startsWith('$') || line.startsWith(REDACTED))
    return null;
  return { start: lineEnd + 1, end: lineEnd + 1 + line.length };
}

/**
 * `echo S3cret | docker login -u bob --password-stdin`, `cat <<EOF | podman login
 * --password-stdin r` and its here-document: the value fed to the login is the password (a
 * variable, `$PW` or `${PW}`, is not).
 */
export const stdinPassword: Detector = {
  kind: 'password',
  anchors: '|',
  trigger: `\\|(?=[^|\\r\\n;&]{0,200}?(?:(?:${LOGIN_TOOLS})[ \\t/]|(?:${SINK_TOOLS})(?![\\w-])))`,
  find(text, at, _state, out) {
    if (text.charCodeAt(at + 1) === 0x7c || stdinLoginEnd(text, at + 1) < 0) return -1;
    const fed = fedValue(text, at);
    if (!fed) return -1;
    out.push({ ...fed, kind: 'password' });
    return at + 1;
  },
};

/** `docker login --password-stdin r <<< S3cret` (or `<<<"S3cret"`): a here-string. */
const HERE_STRING =
  /<<<[ \t]*(?:'([^'\r\n]{1,4096})'|"([^"\r\n\\]{1,4096})"|([^\s'"`\\;&|<>()]{1,4096}))/y;

export const hereStringPassword: Detector = {
  kind: 'password',
  anchors: '<',
  trigger: '<(?=<<)',
  find(text, at, _state, out) {
    HERE_STRING.lastIndex = at;
    const m = HERE_STRING.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    if (value.startsWith('$') || value.startsWith(REDACTED)) return -1;
    // The login is the command this here-string feeds: the stage around it.
    // Looked for within STAGE_MAX before (never back through a whole text).
    const from = Math.max(0, at - STAGE_MAX);
    const before = text.slice(from, at);
    const stageStart =
      from +
      Math.max(
        before.lastIndexOf('|'),
        before.lastIndexOf(';'),
        before.lastIndexOf('&'),
        before.lastIndexOf('\n'),
      );
    // Within reach of the here-string: a raw JSON line has no line break, and its stage can
    // start far before the command (the first STAGE_MAX bytes of the line hold no login).
    const login = stdinLoginEnd(text, Math.max(stageStart + 1, from));
    if (login < 0 || login > at) return -1;
    const end = HERE_STRING.lastIndex - (m[3] === undefined ? 1 : 0);
    out.push({ start: end - value.length, end, kind: 'password' });
    return HERE_STRING.lastIndex;
  },
};
