import { commandOption } from './command-line';
import type { Detector } from './detector';

// --- passwords inline in command lines: options whose meaning depends on the command ----------

const VALUE_NEXT = '[^\\s\\\\]';
/** `-<letter>` and its value after a blank. */
const spaced = (letters: string) => ({
  option: `${letters}[ \\t]+`,
  trigger: `${letters}[ \\t]+${VALUE_NEXT}`,
});
/** `-<letter><value>`, glued (`-pS3cret`; `-p` alone prompts). */
const glued = (letter: string) => ({
  option: letter,
  trigger: `${letter}${VALUE_NEXT}`,
  dashValue: true,
});

/**
 * `mysql -uroot -pS3cret db`, `mysqldump -p'S3 cret' ...`: the value glued to `-p` when a
 * MySQL client starts the same command, at most REACH characters before (`-p` alone prompts,
 * and `ssh -p2222` or `mkdir -pv` are other programs). `--password=` and `PGPASSWORD=` are
 * assignments (./assignments).
 */
const mysql = commandOption({
  command: /(?:mysql(?:dump|admin|import|show|check|pump|sh)?|mariadb(?:-dump|-admin)?)(?=[ \t])/y,
  stems: ['mysql', 'mariadb'],
  slot: 'mysql',
  ...glued('p'),
});

/**
 * Registry, cloud and package logins and sshpass, whose `-p` takes the password glued or
 * after a blank: `docker login -u bob -p S3cret`, `oc login -u admin -p S3cret`, `cf login -p
 * S3cret`, `helm registry login -p S3cret`, `sshpass -p 'S3cret' ssh host`, `twine upload -p
 * S3cret dist/*`, `mongosh -u admin -p S3cret`.
 */
const login = commandOption({
  command:
    /(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|az|oc|cf|helm[ \t]+registry|crane[ \t]+auth)[ \t]+login|sshpass|twine[ \t]+upload|mongo(?:sh|dump|restore|export|import)?)(?=[ \t])/y,
  stems: [
    ...['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'oras', 'az', 'oc', 'cf'],
    ...['helm', 'crane', 'sshpass', 'twine', 'mongo'],
  ],
  slot: 'login',
  // `-p="S3cret"` too (Go's flag packages take `=`).
  option: 'p(?:=|[ \\t]*)',
  trigger: `p(?:=|[ \\t]*)${VALUE_NEXT}`,
});
/** `redis-cli -a <password>` (`-p` is its port), and its forks valkey-cli and keydb-cli. */
const redis = commandOption({
  command: /(?:redis|valkey|keydb)-cli(?=[ \t])/y,
  stems: ['redis-cli', 'valkey-cli', 'keydb-cli'],
  slot: 'redis',
  ...spaced('a'),
});
/** OpenLDAP clients, `-w <password>` (`-W` prompts). */
const ldap = commandOption({
  command: /ldap(?:search|add|modify|delete|modrdn|compare|whoami|passwd|exop)(?=[ \t])/y,
  stems: ['ldap'],
  slot: 'ldap',
  ...spaced('w'),
});
/** `zip -P S3cret out.zip f`, `unzip -P S3cret in.zip` (`-P` is the password there). */
const zip = commandOption({
  command: /(?:zip|unzip|zipcloak)(?=[ \t])/y,
  stems: ['zip', 'unzip'],
  slot: 'zip',
  ...spaced('P'),
});
/** `mosquitto_pub -u bob -P S3cret -t topic` (`-P` is the password there; review r19 M4). */
const mosquitto = commandOption({
  command: /mosquitto_(?:pub|sub|rr)(?=[ \t])/y,
  stems: ['mosquitto_'],
  slot: 'mosquitto',
  ...spaced('P'),
});
/** `7z a -pS3cret out.7z dir` (glued; `-p` alone prompts). */
const sevenZip = commandOption({
  command: /7z[ar]?(?=[ \t])/y,
  stems: ['7z'],
  slot: '7z',
  ...glued('p'),
});
/** `openssl enc -aes-256-cbc -k S3cret` (`-kfile` names a file; `-pass` is an option, ./flags). */
const openssl = commandOption({
  command: /openssl(?=[ \t])/y,
  stems: ['openssl'],
  slot: 'openssl',
  ...spaced('k'),
});
/** `ssh-keygen -P old -N new`: the old and new passphrases (`-N ''` is none). */
const sshKeygen = commandOption({
  command: /ssh-keygen(?=[ \t])/y,
  stems: ['ssh-keygen'],
  slot: 'sshKeygen',
  ...spaced('[PN]'),
});
/** `sqlcmd -S db -U sa -P "S3cret"`, `bcp … -P S3cret` (SQL Server's tools). */
const sqlcmd = commandOption({
  command: /(?:sqlcmd|bcp|osql)(?=[ \t])/y,
  stems: ['sqlcmd', 'bcp', 'osql'],
  slot: 'sqlcmd',
  ...spaced('P'),
});
/** `aws ssm put-parameter --value S3cret`, `az keyvault secret set --value S3cret`. */
const storeValue = commandOption({
  command: /(?:aws[ \t]+ssm[ \t]+put-parameter|az[ \t]+keyvault[ \t]+secret[ \t]+set)(?=[ \t])/y,
  stems: ['aws', 'az'],
  slot: 'storeValue',
  option: '-value(?:[ \\t]+|=)',
  trigger: `-value(?:[ \\t]+|=)${VALUE_NEXT}`,
});
/** `gh secret set NAME --body S3cret` (or `-b S3cret`): the secret's value. */
const ghSecret = commandOption({
  command: /gh[ \t]+secret[ \t]+set(?=[ \t])/y,
  stems: ['gh'],
  slot: 'ghSecret',
  option: '(?:-body(?:[ \\t]+|=)|b[ \\t]*)',
  trigger: `(?:-body(?:[ \\t]+|=)|b[ \\t]*)${VALUE_NEXT}`,
});
/** `curl -b 'sid=…; csrf=…'`: cookies given inline (`-b cookies.txt` names a file: no `=`). */
const curlCookie = commandOption({
  command: /curl(?=[ \t])/y,
  stems: ['curl'],
  slot: 'curl',
  ...spaced('b'),
  kind: 'cookie',
  accept: (value) => value.includes('='),
});

/**
 * HTTPie's and xh's `-a user:S3cret`, `--auth user:S3cret`: the credential (`-a user` alone
 * prompts for the password; `--auth-type` is no credential).
 */
const httpie = commandOption({
  command: /(?:https?|xhs?)(?=[ \t])/y,
  stems: ['http', 'xh'],
  slot: 'httpie',
  option: '(?:a[ \\t]+|-auth(?:[ \\t]+|=))',
  trigger: `(?:a[ \\t]+|-auth(?:[ \\t]+|=))${VALUE_NEXT}`,
  accept: (value) => value.includes(':'),
});

/** `lftp -u deploy,S3cret sftp://host`: the password after the user's comma (`-u user` prompts). */
const lftp = commandOption({
  command: /lftp(?=[ \t])/y,
  stems: ['lftp'],
  slot: 'lftp',
  ...spaced('u'),
  accept: (value) => value.includes(','),
  secretFrom: (value) => value.indexOf(',') + 1,
});

/**
 * Database, broker and remote-shell clients whose `-p` takes the password after a blank:
 * `cqlsh -u cassandra -p S3cret`, `rabbitmqadmin -u admin -p S3cret`, `influx -u admin -p
 * S3cret` (and InfluxDB 1's `-password S3cret`), `psexec \\host -u bob -p S3cret`, `rdesktop
 * -u bob -p S3cret host` (`-p -` reads it from the terminal: an option-like value is none).
 */
const clientPassword = commandOption({
  command: /(?:cqlsh|rabbitmqadmin|influx|psexec(?:64)?(?:\.exe)?|rdesktop)(?=[ \t])/y,
  stems: ['cqlsh', 'rabbitmqadmin', 'influx', 'psexec', 'rdesktop'],
  slot: 'clientPassword',
  option: '(?:password|p)[ \\t]+',
  trigger: `(?:password|p)[ \\t]+${VALUE_NEXT}`,
});
/** `unrar x -pS3cret a.rar` (glued; `-p-` is no password, `-p` alone prompts). */
const unrar = commandOption({
  command: /(?:unrar|rar)(?=[ \t])/y,
  stems: ['unrar', 'rar'],
  slot: 'unrar',
  ...glued('p'),
  dashValue: false,
});
/** `codecov -t TOKEN` (the uploader's upload token), `doctl auth init -t TOKEN`. */
const uploadToken = commandOption({
  command: /(?:codecov(?:cli)?|doctl[ \t]+auth[ \t]+init)(?=[ \t])/y,
  stems: ['codecov', 'doctl'],
  slot: 'uploadToken',
  ...spaced('t'),
});
/** `dotnet nuget push a.nupkg -k KEY` (`--api-key KEY` is an option of ./flags). */
const nugetPush = commandOption({
  command: /dotnet[ \t]+nuget[ \t]+push(?=[ \t])/y,
  stems: ['dotnet'],
  slot: 'nugetPush',
  ...spaced('k'),
});
/** `curl --oauth2-bearer TOKEN`: the bearer token given inline. */
const curlBearer = commandOption({
  command: /curl(?=[ \t])/y,
  stems: ['curl'],
  slot: 'curlBearer',
  option: '-oauth2-bearer(?:[ \\t]+|=)',
  trigger: `-oauth2-bearer(?:[ \\t]+|=)${VALUE_NEXT}`,
});
/** `ibmcloud login --apikey KEY` (`--apikey @file` names a file). */
const ibmcloud = commandOption({
  command: /ibmcloud[ \t]+login(?=[ \t])/y,
  stems: ['ibmcloud'],
  slot: 'ibmcloud',
  option: '-apikey(?:[ \\t]+|=)',
  trigger: `-apikey(?:[ \\t]+|=)${VALUE_NEXT}`,
  accept: (value) => !value.startsWith('@'),
});
/** `skopeo copy --src-creds bob:S3cret --dest-creds=bob:S3cret`: the password after the colon. */
const skopeoCreds = commandOption({
  command: /skopeo(?=[ \t])/y,
  stems: ['skopeo'],
  slot: 'skopeoCreds',
  option: '-(?:src|dest)-creds(?:[ \\t]+|=)',
  trigger: `-(?:src|dest)-creds(?:[ \\t]+|=)${VALUE_NEXT}`,
  accept: (value) => value.includes(':'),
  secretFrom: (value) => value.indexOf(':') + 1,
});

/** By the character after the `-`: the detectors to try, in order (the first match wins). */
const BY_LETTER = new Map<number, Detector[]>();
for (const [letters, detectors] of [
  ['p', [mysql, login, sevenZip, clientPassword, unrar]],
  ['a', [redis, httpie]],
  ['w', [ldap]],
  ['P', [zip, sshKeygen, sqlcmd, mosquitto]],
  ['N', [sshKeygen]],
  ['k', [openssl, nugetPush]],
  ['u', [lftp]],
  ['b', [ghSecret, curlCookie]],
  ['t', [uploadToken]],
  ['-', [ghSecret, storeValue, httpie, curlBearer, ibmcloud, skopeoCreds]],
] as const) {
  BY_LETTER.set(letters.charCodeAt(0), [...detectors]);
}
/** Every detector of the table, once (the trigger is theirs: never stricter than one of them). */
const ALL = [...new Set([...BY_LETTER.values()].flat())];

const BLANK_DASH = '-(?<=[ \\t]-)(?=';
for (const d of ALL) if (!d.trigger.startsWith(BLANK_DASH)) throw new Error(d.trigger);

/** All as one detector (one call per candidate, to the detectors of the option's letter). */
export const commandPasswords: Detector = {
  kind: 'password',
  anchors: '-',
  // One look-behind for all (a `-` not after a blank, as in every UUID and date, fails once).
  trigger: `-(?<=[ \\t]-)(?=${ALL.map((d) => d.trigger.slice(BLANK_DASH.length, -1)).join('|')})`,
  find(text, at, state, out) {
    for (const d of BY_LETTER.get(text.charCodeAt(at + 1)) ?? []) {
      const e = d.find(text, at, state, out);
      if (e >= 0) return e;
    }
    return -1;
  },
};
