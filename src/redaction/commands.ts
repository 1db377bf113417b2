import { REDACTED, type Detector, type LastMatch } from './detector';
import { VALUE_MAX, valueEnd } from './values';

// --- passwords inline in command lines -------------------------------------------------------

/** MySQL and MariaDB clients, whose `-p<password>` takes the password glued to the flag. */
const COMMAND =
  /(?:mysql(?:dump|admin|import|show|check|pump|sh)?|mariadb(?:-dump|-admin)?)(?=[ \t])/y;
const STEMS = ['mysql', 'mariadb'];
/** Registry and Azure logins and sshpass, whose `-p` takes the password glued or after a blank. */
const LOGIN = /(?:(?:docker|podman|nerdctl|az)[ \t]+login|sshpass)(?=[ \t])/y;
const LOGIN_STEMS = ['docker', 'podman', 'nerdctl', 'az', 'sshpass'];
/** `redis-cli -a <password>` (`-p` is its port). */
const REDIS = /redis-cli(?=[ \t])/y;
/** OpenLDAP clients, `-w <password>` (`-W` prompts). */
const LDAP = /ldap(?:search|add|modify|delete|modrdn|compare|whoami|passwd|exop)(?=[ \t])/y;
/** No further occurrence (a constant: a global lookup per candidate is slow in a vm context). */
const NONE = Number.MAX_SAFE_INTEGER;
/** Farthest `-p` from the command word, in characters. */
const REACH = 400;
/** How far past a candidate a command word is looked for at once (later candidates reuse it). */
const AHEAD = 1 << 16;
/** Groups: 1 'value', 2 "value", 3 bare value (longer: valueEnd); the value ends the match. */
const valueAfter = (letter: string) =>
  new RegExp(
    `-${letter}[ \\t]*(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})(?=')|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})(?=")` +
      `|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`,
    'y',
  );
const isAlnum = (c: number) =>
  (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);

/** `\n` or `\r` (JSON-escaped line breaks) end at `i`: a command word may start there. */
const escapedBreak = (text: string, i: number) =>
  (text[i - 1] === 'n' || text[i - 1] === 'r') && text[i - 2] === '\\';

/** The first occurrence of `stem` starting in [from, to), or NONE. */
function stemIn(text: string, stem: string, from: number, to: number): number {
  if (from >= to) return NONE;
  const found = text.slice(from, to + stem.length - 1).indexOf(stem);
  return found < 0 ? NONE : from + found;
}

/**
 * End of the last command word that starts before `at` within REACH, or earlier, or -1.
 * Candidates come in increasing order within a scan: occurrences of the stems before
 * `memo.searched` were checked, `memo.next` holds each stem's next one, and `memo.scanned` how
 * far it was looked for: each character is read once per stem, and only from REACH before a
 * candidate to AHEAD after it (a long text with few candidates is not read to its end).
 */
function lastCommandEnd(
  text: string,
  at: number,
  memo: LastMatch,
  command: RegExp,
  stems: string[],
): number {
  const scanned = (memo.scanned ??= stems.map(() => 0));
  if (memo.searched < at - REACH - 16) memo.searched = at - REACH - 16;
  for (;;) {
    let i = NONE;
    for (let k = 0; k < stems.length; k++) {
      const stale = memo.next[k] < memo.searched;
      if (stale || (memo.next[k] === NONE && scanned[k] < at)) {
        const from = Math.max(memo.searched, scanned[k]);
        memo.next[k] = stemIn(text, stems[k], from, at + AHEAD);
        scanned[k] = memo.next[k] === NONE ? at + AHEAD : memo.next[k];
      }
      if (memo.next[k] < i) i = memo.next[k];
    }
    if (i >= at) return memo.end;
    command.lastIndex = i;
    if (
      (i === 0 || !isAlnum(text.charCodeAt(i - 1)) || escapedBreak(text, i)) &&
      command.test(text)
    ) {
      memo.end = command.lastIndex;
    }
    memo.searched = i + 1;
  }
}

/**
 * End of the last command end (a line break, real or escaped, `;`, `|`, `&`) in [from, at),
 * or earlier, or -1; each character is read once per scan (`memo.searched`).
 */
function lastCommandBreak(text: string, from: number, at: number, memo: LastMatch): number {
  for (let i = from > memo.searched ? from : memo.searched; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x3b || c === 0x7c || c === 0x26) memo.end = i + 1;
    else if (c === 0x5c && i + 1 < at && (text[i + 1] === 'n' || text[i + 1] === 'r')) {
      memo.end = i + 2;
    }
  }
  if (at > memo.searched) memo.searched = at;
  return memo.end;
}

/** A detector of the password after `-<letter>` when `command` starts the same command line. */
function commandPassword(
  command: RegExp,
  stems: string[],
  slot: string,
  letter: string,
  glued: boolean,
): Detector {
  const memoOf = (): LastMatch => ({ end: -1, searched: 0, next: stems.map(() => -1) });
  const endSlot = `${slot}End`;
  const code = letter.charCodeAt(0);
  const VALUE = valueAfter(letter);
  const next = glued ? '[^\\s\\\\]' : '[ \\t]+[^\\s\\\\]';
  return {
    kind: 'password',
    anchors: '-',
    trigger: `-(?<=[ \\t]-)(?=${letter}${next})`,
    find(text, at, state, out) {
      const before = text.charCodeAt(at - 1);
      if ((before !== 0x20 && before !== 0x09) || text.charCodeAt(at + 1) !== code) return -1;
      const after = text.charCodeAt(at + 2);
      if (glued && (after === 0x20 || after === 0x09)) return -1;
      const memos = (state.commands ??= {});
      const end0 = lastCommandEnd(text, at, (memos[slot] ??= memoOf()), command, stems);
      if (end0 < 0 || at - end0 > REACH) return -1;
      const breaks = (memos[endSlot] ??= memoOf());
      if (lastCommandBreak(text, end0, at, breaks) > end0) return -1;
      VALUE.lastIndex = at;
      const m = VALUE.exec(text);
      if (!m) return -1;
      const value = m[1] ?? m[2] ?? m[3];
      const start = VALUE.lastIndex - value.length;
      const end =
        m[3]?.length === VALUE_MAX ? valueEnd(text, VALUE.lastIndex, -1) : VALUE.lastIndex;
      const option = !glued && value.startsWith('-');
      if (!option && !value.startsWith('$') && !value.startsWith(REDACTED)) {
        out.push({ start, end, kind: 'password' });
      }
      return end;
    },
  };
}

/**
 * `mysql -uroot -pS3cret db`, `mysqldump -p'S3 cret' ...`: the value glued to `-p` when a
 * MySQL client starts the same command, at most REACH characters before (`-p` alone prompts,
 * and `ssh -p2222` or `mkdir -pv` are other programs). `--password=` and `PGPASSWORD=` are
 * assignments (./assignments).
 */
const mysqlPassword = commandPassword(COMMAND, STEMS, 'command', 'p', true);

/** `docker login -u bob -p S3cret`, `sshpass -p 'S3cret' ssh host`: glued or not. */
const loginPassword = commandPassword(LOGIN, LOGIN_STEMS, 'login', 'p', false);
const redisPassword = commandPassword(REDIS, ['redis-cli'], 'redis', 'a', false);
const ldapPassword = commandPassword(LDAP, ['ldap'], 'ldap', 'w', false);
const ALL = [mysqlPassword, loginPassword, redisPassword, ldapPassword];

/** All as one detector (one call per `-p`, `-a`, `-w` candidate). */
export const commandPasswords: Detector = {
  kind: 'password',
  anchors: '-',
  trigger: `-(?:${ALL.map((d) => d.trigger.slice(1)).join('|')})`,
  find(text, at, state, out) {
    const c = text.charCodeAt(at + 1);
    if (c === 0x61) return redisPassword.find(text, at, state, out);
    if (c === 0x77) return ldapPassword.find(text, at, state, out);
    const e = mysqlPassword.find(text, at, state, out);
    return e >= 0 ? e : loginPassword.find(text, at, state, out);
  },
};

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
 * `echo VALUE` or `printf '%s' VALUE` ending right before the `|` (or before one more stage:
 * `echo X | tee /dev/null | docker login …`); groups 1-3 the value. It may open a quoted
 * string or code span: `bash -c "echo …"`, a raw JSON line's `"CommandLine": "echo …"`,
 * `` `echo …` `` in prose.
 */
const ECHOED =
  /(?:^|[\s;&("'`]|\\[nr])(?:echo(?:[ \t]+-[neE]+)*|printf(?:[ \t]+(?:'%s'|"%s"|%s))?)[ \t]+(?:'([^'\r\n]{1,4096})'|"([^"\r\n\\]{1,4096})"|([^\s'"`\\;&|<>()]{1,4096}))[ \t]*(?:\|[^|\r\n;&`]{1,200})?$/d;
/** `cat <<EOF` (or `<<-'EOF'`) ending right before the `|`: group 2 the terminator. */
const HEREDOC = /(?:^|[\s;&("'`]|\\[nr])cat[ \t]+<<-?[ \t]*(["']?)(\w{1,40})\1[ \t]*$/;

/** The value a pipeline feeds into the login at `at` (its `|`), or null. */
function fedValue(text: string, at: number): { start: number; end: number } | null {
  const from = Math.max(0, at - 4500);
  const before = text.slice(from, at);
  const m = ECHOED.exec(before);
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
  trigger: `\\|(?=[^|\\r\\n;&]{0,200}?(?:${LOGIN_TOOLS})[ \\t/])`,
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
    const stageStart = Math.max(
      text.lastIndexOf('|', at),
      text.lastIndexOf(';', at),
      text.lastIndexOf('&', at),
      text.lastIndexOf('\n', at),
    );
    // Within reach of the here-string: a raw JSON line has no line break, and its stage can
    // start far before the command (the first STAGE_MAX bytes of the line hold no login).
    const login = stdinLoginEnd(text, Math.max(stageStart + 1, at - STAGE_MAX));
    if (login < 0 || login > at) return -1;
    const end = HERE_STRING.lastIndex - (m[3] === undefined ? 1 : 0);
    out.push({ start: end - value.length, end, kind: 'password' });
    return HERE_STRING.lastIndex;
  },
};
