import { ci, REDACTED, regexDetector, type Detector } from './detector';
import { NOT_SECRETS } from './keys';
import { VALUE_MAX, valueEnd } from './values';

// --- secrets passed as command-line options ---------------------------------------------------

/**
 * `--password`, `--db-password`, `--passwd`, `--passphrase`, `--token`, `--api-key`,
 * `--client-secret`, `--secret-key`, `--aws-secret-access-key`, `--account-key` (Azure),
 * `--secret-string` (AWS Secrets Manager), `--pass` (redis-cli), `--requirepass` and
 * `--masterauth` (redis-server), `--auth` (netlify, httpie)...
 */
const SECRET_FLAG =
  `-(?:[A-Za-z0-9]+-){0,3}(?:${ci('password')}|${ci('passwd')}|${ci('passphrase')}|${ci('token')}` +
  `|${ci('secret')}(?:-(?:${ci('access')}-)?${ci('key')}|-${ci('string')})?|${ci('pass')}` +
  `|${ci('api')}-${ci('key')}|${ci('account')}-${ci('key')}|${ci('requirepass')}|${ci('masterauth')}` +
  // `netlify deploy --auth T`, httpie's `--auth user:P` (review 20).
  '|auth)' +
  // A second entry's number (review r15/r16 L: `--password2 V`, as `password2=` is a key).
  '\\d{0,2}';
/** Groups: 'value', "value", bare value; the value ends the match. */
const VALUE =
  `(?:'([^'\\r\\n\\\\]{1,${VALUE_MAX}})(?=')|"([^"\\r\\n\\\\]{1,${VALUE_MAX}})(?=")` +
  `|([^\\s"'\`\\\\;&|<>()]{1,${VALUE_MAX}}))`;
/** Words that follow an option's name in prose (`the --password flag`), not values. */
const PROSE = new Set([...NOT_SECRETS, ...'flag option argument and or is to the with'.split(' ')]);

const blankAt = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c === 0x20 || c === 0x09;
};

/** Whether an option's value is masked: not a reference, a marker, the next option, prose. */
function secretValue(value: string): boolean {
  const c = value[0];
  if (c === '$' || c === '-' || value.startsWith(REDACTED)) return false;
  return !PROSE.has(value.toLowerCase()) && /[A-Za-z0-9]/.test(value);
}

/**
 * `mytool --password S3cret`, `--token=abc`, `--client-secret 'x y'`: the value after a
 * secret-named long option (a blank or `=` between). `--password-stdin` names no value.
 */
const secretFlag = regexDetector({
  kind: 'password',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=${SECRET_FLAG}(?:[ \\t]+|=)[^\\s-])`,
  back: 0,
  quick: (text, at) => text.charCodeAt(at + 1) === 0x2d && blankAt(text, at - 1),
  source: `(?<=[ \\t])-${SECRET_FLAG}(?:[ \\t]+|=)${VALUE}`,
  extend: (m, end) => (m[3]?.length === VALUE_MAX ? valueEnd(m.input, end, -1) : end),
  pick: (m) => {
    const value = m[1] ?? m[2] ?? m[3];
    return secretValue(value) ? m.index + m[0].length - value.length : -1;
  },
  kindOf: (m) => (/account-key[ \t=]/i.test(m[0]) ? 'azure-storage-key' : 'password'),
});

/**
 * Java's, OpenSSL's and PowerShell's single-dash options: `keytool -storepass S3cret -keypass S3cret`,
 * `-srcstorepass`, `-deststorepass`, `openssl … -passout pass:S3cret` (`env:`, `file:`, `fd:`
 * and `stdin` name where the password is, not the password).
 */
const SINGLE_DASH =
  `(?:${ci('src')}|${ci('dest')})?(?:${ci('store')}|${ci('key')})${ci('pass')}|${ci('pass')}(?:${ci('in')}|${ci('out')})?` +
  // PowerShell's and Java tools' parameters (review r17 M4: `Invoke-Sqlcmd … -Password V`,
  // `New-LocalUser bob -Password V`, `Publish-Module -NuGetApiKey V`).
  `|${ci('password')}|${ci('passphrase')}|(?:${ci('nuget')})?${ci('apikey')}` +
  `|${ci('accesstoken')}|${ci('clientsecret')}`;
const PASS_SOURCE = /^(?:env|file|fd):|^stdin$/;
const singleDashSecret = regexDetector({
  kind: 'password',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=(?:${SINGLE_DASH})[ \\t]+[^\\s-])`,
  back: 0,
  source: `(?<=[ \\t])-(?:${SINGLE_DASH})[ \\t]+${VALUE}`,
  extend: (m, end) => (m[3]?.length === VALUE_MAX ? valueEnd(m.input, end, -1) : end),
  pick: (m, end) => {
    let value = m[1] ?? m[2] ?? m[3];
    if (PASS_SOURCE.test(value)) return -1;
    if (value.startsWith('pass:')) value = value.slice(5);
    const at = m.index + m[0].length - value.length;
    return value !== '' && secretValue(value) ? Math.min(at, end) : -1;
  },
});

/** `smbclient //srv/share -U alice%S3cret`, `--user=alice%S3cret`: Samba's user%password. */
const sambaUser = regexDetector({
  kind: 'password',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=(?:U|-user)(?:[ \\t]+|=)?["']?[^\\s%"'\\\\]{1,256}%[^\\s"'\\\\])`,
  back: 0,
  source:
    `(?<=[ \\t])-(?:U|-user)(?:[ \\t]+|=)?(?:(["'])[^\\r\\n%"'\\\\]{1,256}%([^\\r\\n"'\\\\]{1,${VALUE_MAX}})(?=\\1)` +
    `|[^\\s%"'\\\\]{1,256}%([^\\s"'\\\\]{1,${VALUE_MAX}}))`,
  pick: (m, end) => {
    const pass = m[2] ?? m[3];
    return secretValue(pass) ? end - pass.length : -1;
  },
});

/** `curl --cookie 'sid=…'`, `--cookie=sid=…`: cookies given inline (a file name has no `=`). */
const cookieFlag = regexDetector({
  kind: 'cookie',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=-${ci('cookie')}(?:[ \\t]+|=)[^\\s-])`,
  back: 0,
  source: `(?<=[ \\t])--${ci('cookie')}(?:[ \\t]+|=)${VALUE}`,
  extend: (m, end) => (m[3]?.length === VALUE_MAX ? valueEnd(m.input, end, -1) : end),
  pick: (m) => {
    const value = m[1] ?? m[2] ?? m[3];
    return value.includes('=') && secretValue(value) ? m.index + m[0].length - value.length : -1;
  },
});

/**
 * `curl -u admin:S3cret`, `-uadmin:S3cret`, `--user admin:S3cret`, `--proxy-user bob:S3cret`,
 * `-U bob:S3cret`, `java -jar jenkins-cli.jar -auth admin:S3cret`: the password after the
 * user's colon. Not `docker run -u 1000:1000` (a user and group id).
 */
const USER_OPTION =
  `(?:-(?:${ci('proxy')}-)?${ci('user')}(?:[ \\t]+|=)|[sSfLkviI]{0,4}u(?:[ \\t]+|=)?` +
  // curl's `-U`/`--proxy-user bob:…`, jenkins-cli's `-auth admin:…` (review 19).
  '|U(?:[ \\t]+|=)?|auth[ \\t]+)';
/** `-u`, `--user`, and curl's flags combined before `u` (`-su`, `-sSfu`), `-U`, `-auth `. */
const USER_START = /-(?:-[uUpP]|[sSfLkviI]{0,4}u|U|auth[ \t])/y;
const USER_PASSWORD = `${USER_OPTION}["']?[^\\s:"'\\\\]{1,256}:`;
const userPassword = regexDetector({
  kind: 'password',
  anchors: '-',
  trigger: `-(?<=[ \\t]-)(?=${USER_PASSWORD}[^\\s"'\\\\])`,
  back: 0,
  quick: (text, at) => {
    USER_START.lastIndex = at;
    return blankAt(text, at - 1) && USER_START.test(text);
  },
  // Quoted, the password runs to the closing quote (`-u 'admin:two words'`; in single quotes
  // a `"` is the password's: review r19 `-u 'bob:Xk9""Vq7'`); bare, to a blank.
  source:
    `(?<=[ \\t])-${USER_OPTION}(?:'[^\\r\\n:"'\\\\]{1,256}:([^\\r\\n'\\\\]{1,${VALUE_MAX}})(?=')` +
    `|"[^\\r\\n:"'\\\\]{1,256}:([^\\r\\n"'\\\\]{1,${VALUE_MAX}})(?=")` +
    `|[^\\s:"'\\\\]{1,256}:([^\\s"'\\\\]{1,${VALUE_MAX}}))`,
  pick: (m, end) => {
    const pass = m[1] ?? m[2] ?? m[3];
    if (/^\d+$/.test(pass) || !secretValue(pass)) return -1;
    return end - pass.length;
  },
});

/** `htpasswd -b[c...] [-C 10] file user`: the options and the arguments before the password. */
const HTPASSWD_OPTIONS =
  /(?<=htpasswd[ \t]{1,4})-[A-Za-z]{1,6}(?:[ \t]+-[A-Za-z]{1,6}(?:[ \t]+\d{1,2})?){0,4}/y;
const ARG = `(?:'[^'\\r\\n]{1,256}'|"[^"\\r\\n]{1,256}"|[^\\s'"\`;&|<>()\\\\]{1,256})`;
/** With `-n` (print, no file): user and password; else file, user and password. */
const HTPASSWD_ARGS = [1, 2].map((n) => new RegExp(`(?:[ \\t]+${ARG}){${n}}[ \\t]+${VALUE}`, 'y'));

/** `htpasswd -b .htpasswd bob S3cret`, `htpasswd -nb bob S3cret`: batch mode's password. */
const htpasswdPassword: Detector = {
  kind: 'password',
  anchors: '-',
  // The first option: `-b` may come after others (`-B -b`, `-c -b`).
  trigger: '-(?<=htpasswd[ \\t]{1,4}-)(?=[A-Za-z])',
  find(text, at, _state, out) {
    let i = at - 1;
    while (i > at - 5 && blankAt(text, i)) i--;
    if (i === at - 1 || !text.startsWith('htpasswd', i - 7)) return -1;
    HTPASSWD_OPTIONS.lastIndex = at;
    const options = HTPASSWD_OPTIONS.exec(text)?.[0];
    if (options === undefined || !/-[A-Za-z]*b/.test(options)) return -1;
    const args = HTPASSWD_ARGS[/-[A-Za-z]*n/.test(options) ? 0 : 1];
    args.lastIndex = HTPASSWD_OPTIONS.lastIndex;
    const m = args.exec(text);
    if (!m) return -1;
    const value = m[1] ?? m[2] ?? m[3];
    if (secretValue(value)) {
      out.push({ start: args.lastIndex - value.length, end: args.lastIndex, kind: 'password' });
    }
    return args.lastIndex;
  },
};

const BLANK = [secretFlag, cookieFlag, userPassword, sambaUser, singleDashSecret];
const BLANK_DASH = '-(?<=[ \\t]-)(?=';
for (const d of BLANK) if (!d.trigger.startsWith(BLANK_DASH)) throw new Error(d.trigger);
/** The detectors to try for an option starting `--`, `-u`... (the first match wins). */
const LONG = [secretFlag, cookieFlag, userPassword, sambaUser];
const SHORT = [userPassword, sambaUser, singleDashSecret, htpasswdPassword];

/** All as one detector: every `-` candidate costs one call, whatever the options. */
export const optionSecrets: Detector = {
  kind: 'password',
  anchors: '-',
  // One look-behind for those after a blank (a `-` in a UUID or a date fails once).
  trigger:
    `-(?:(?<=[ \\t]-)(?=${BLANK.map((d) => d.trigger.slice(BLANK_DASH.length, -1)).join('|')})` +
    `|${htpasswdPassword.trigger.slice(1)})`,
  find(text, at, state, out) {
    for (const d of text.charCodeAt(at + 1) === 0x2d ? LONG : SHORT) {
      const e = d.find(text, at, state, out);
      if (e >= 0) return e;
    }
    return -1;
  },
};
