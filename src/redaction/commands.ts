import { EDGE_ALNUM, REDACTED, type Detector, type LastMatch } from './detector';

// --- passwords inline in command lines -------------------------------------------------------

/** MySQL and MariaDB clients, whose `-p<password>` takes the password glued to the flag. */
const COMMAND = new RegExp(
  `${EDGE_ALNUM}(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|` +
    'mysqlsh|mariadb|mariadb-dump|mariadb-admin)(?=[ \\t])',
  'g',
);
/** What ends a command: a line break (real or escaped), `;`, `|`, `&`. */
const COMMAND_END = /[\r\n;|&]|\\[nr]/g;
/** Farthest `-p` from the command word, in characters. */
const REACH = 400;
/** Groups: 1 'value', 2 "value", 3 bare value; the value ends the match. */
const VALUE = /-p(?:'([^'\r\n\\]+)(?=')|"([^"\r\n\\]+)(?=")|([^\s"'`\\;&|<>()]+))/y;

/**
 * End of the last match of `re` that ends before `at` and after `at - REACH`, or -1 (or an
 * older one: callers compare with REACH). Candidates come in increasing order within a scan and
 * `memo` keeps how far the text was searched, so each character is searched once however dense
 * the candidates, and never far from one.
 */
function lastEndBefore(re: RegExp, text: string, at: number, memo: LastMatch): number {
  const from = Math.max(memo.searched, at - REACH);
  if (from < at) {
    const part = text.slice(from, at);
    re.lastIndex = 0;
    while (re.exec(part) !== null) memo.end = from + re.lastIndex;
  }
  memo.searched = at;
  return memo.end;
}

const fresh = (): LastMatch => ({ end: -1, searched: 0 });

/**
 * `mysql -uroot -pS3cret db`, `mysqldump -p'S3 cret' ...`: the value glued to `-p` when a
 * MySQL client starts the same command, at most REACH characters before (`-p` alone prompts,
 * and `ssh -p2222` or `mkdir -pv` are other programs). `--password=` and `PGPASSWORD=` are
 * assignments (./assignments).
 */
export const mysqlPassword: Detector = {
  kind: 'password',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=p[^\\s\\\\=-])`,
  find(text, at, state, out) {
    const command = lastEndBefore(COMMAND, text, at, (state.command ??= fresh()));
    if (command < 0 || at - command > REACH) return -1;
    if (lastEndBefore(COMMAND_END, text, at, (state.commandEnd ??= fresh())) > command) return -1;
    VALUE.lastIndex = at;
    const m = VALUE.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    const end = VALUE.lastIndex;
    if (!value.startsWith('$') && !value.startsWith(REDACTED)) {
      out.push({ start: end - value.length, end, kind: 'password' });
    }
    return end;
  },
};
