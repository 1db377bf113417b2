import { ci, regexDetector, type Detector, type Span } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { VALUE_MAX } from './values';

// --- secrets passed to a call by name or by position ----------------------------------------------

/** A quoted argument (maybe JSON-escaped quotes): its quote, then its text. */
const quoted = (n: number) =>
  `\\\\*(["'\`])((?:(?!\\${n})[^\\\\\\r\\n]){1,${VALUE_MAX}})\\\\*\\${n}`;
/** `("name", "value"`: groups 2 the name, 4 the value. */
const NAME_VALUE = new RegExp(`\\([ \\t]*${quoted(1)}[ \\t]*,[ \\t]*${quoted(3)}`, 'y');
/** A user given as a literal or a name (`"app"`, `user`, `$user`, `EMAIL_USER`, `cfg.user`). */
const USER = `(?:${quoted(1)}|[\\w.$]{1,128})`;
/** `("user", "password"` or `(user, "password"`: groups 2 and 4 (as NAME_VALUE's). */
const USER_PASSWORD = new RegExp(`\\([ \\t]*${USER}[ \\t]*,[ \\t]*${quoted(3)}`, 'y');
/** `(url, user, "password"` (the first argument any expression without a comma). */
const URL_USER_PASSWORD = new RegExp(
  `\\([^,()\\r\\n]{1,300},[ \\t]*${USER}[ \\t]*,[ \\t]*${quoted(3)}`,
  'y',
);

/** Methods that store a value under a name (storage, environment, properties, maps, headers). */
const SETTERS =
  'setItem|setenv|Setenv|putenv|setdefault|setProperty|SetEnvironmentVariable|[sS]et|put|append' +
  // PHP's define('DB_PASSWORD', '…'); a default given to a lookup: os.getenv("API_KEY", "…").
  '|define|getenv|fetch|get' +
  // Rust's std::env::set_var("API_KEY", "…") (review 23).
  '|set_var';
/**
 * Calls that take a user and a password (`auth=(…)` is a tuple, as requests takes it;
 * `smtp.login("me@corp.com", "…")`; Arduino's `WiFi.begin("ssid", "…")`, review 21;
 * `client.setCredentials("bob", "…")`, `.withCredentials(…)`, Apache HttpClient's
 * `new UsernamePasswordCredentials("bob", "…")`, AWS's `new BasicAWSCredentials("AKIA…", "…")`,
 * review 22).
 */
const AUTH_PAIRS =
  'auth[ \\t]*=[ \\t]*|HTTPBasicAuth|HTTPDigestAuth|BasicAuth|[bB]asic[aA]uth|\\.login|WiFi\\.begin' +
  '|(?:[sS]et|[wW]ith|UsernamePassword|BasicAWS)Credentials';
/**
 * JDBC's `DriverManager.getConnection(url, user, password)`, PHP's `new PDO(dsn, user, password)`,
 * `new Sequelize(database, user, password)` (review r19 M4).
 */
const CONNECTIONS = 'getConnection|PDO|Sequelize';

/** browserPassword's methods (./browser), for the shared trigger. */
const BROWSER_METHODS =
  'fill|type|send_keys|sendKeys|setValue|fillField|pressSequentially|[.\\s]change';

const NAMED = new RegExp(`(?:${SETTERS})\\($`);
/**
 * A setter or builder named for the secret (`setPassword(`, `withPassword(`, `WithAuthToken(`,
 * `.password(`): group 1 or 2 the name.
 */
const METHOD = /(?:(?<![\w$])(?:[sS]et|[wW]ith)([A-Z]\w{0,30})|\.([a-z]\w{0,20}))\($/;
/** The secret names a setter's trigger looks back for (the end of the method's name). */
const METHOD_NAMES = '[pP]assword|[tT]oken|[sS]ecret|[kK]ey';
/** `("value")`, the one argument: group 2 its text. */
const ONE_VALUE = new RegExp(`\\([ \\t]*${quoted(1)}[ \\t]*\\)`, 'y');
const PAIR = new RegExp(`(?:${AUTH_PAIRS})\\($`);
const CONNECTION = new RegExp(`${CONNECTIONS}\\($`);
const SCHEME = /^(bearer|basic|token)[ \t]+(\S.*)$/i;

/** The value's span: the last occurrence of its text before `end` (escaped quotes may follow). */
function valueSpan(text: string, value: string, end: number, kind: string): Span {
  const start = text.lastIndexOf(value, end);
  return { start, end: start + value.length, kind };
}

/**
 * `localStorage.setItem("access_token", "…")`, `os.Setenv("API_TOKEN", "…")`,
 * `System.setProperty("db.password", "…")`, `headers.set("Authorization", "Bearer …")`: a
 * quoted value stored under a secret-named key (the names of ./keys); `auth=("admin", "…")`,
 * `HTTPBasicAuth("admin", "…")`: the password of a user and password pair;
 * `DriverManager.getConnection(url, "app", "…")`: the third argument. Variables stay.
 */
export const callSecret: Detector = {
  kind: 'password',
  anchors: '(',
  // Also browserPassword's and goDsnPassword's (./browser, ./sql): one look-behind for every
  // call the detectors read, not one per detector at every `(` of every text.
  trigger: `\\((?<=(?:${SETTERS}|${AUTH_PAIRS}|${CONNECTIONS}|${BROWSER_METHODS}|@tcp|@unix|${METHOD_NAMES})\\()`,
  find(text, at, _state, out) {
    // 32: `UsernamePasswordCredentials(` is 28.
    const before = text.slice(Math.max(0, at - 32), at + 1);
    if (NAMED.test(before)) {
      NAME_VALUE.lastIndex = at;
      const m = NAME_VALUE.exec(text);
      const rule = m && secretKey(m[2]);
      if (!m || !rule) return -1;
      const value = m[4];
      const scheme = rule.kind === 'bearer' ? SCHEME.exec(value) : null;
      if (scheme) {
        const kind = scheme[1].toLowerCase() === 'basic' ? 'basic-auth' : 'bearer';
        out.push(valueSpan(text, scheme[2], NAME_VALUE.lastIndex, kind));
      } else if (acceptAssignment(rule.keyword, value, true, '')) {
        out.push(valueSpan(text, value, NAME_VALUE.lastIndex, rule.kind));
      }
      return NAME_VALUE.lastIndex;
    }
    const method = METHOD.exec(before);
    const named = method && secretKey(method[1] ?? method[2]);
    if (named) {
      ONE_VALUE.lastIndex = at;
      const m = ONE_VALUE.exec(text);
      if (m) {
        if (acceptAssignment(named.keyword, m[2], true, '')) {
          out.push(valueSpan(text, m[2], ONE_VALUE.lastIndex, named.kind));
        }
        return ONE_VALUE.lastIndex;
      }
      // Not one argument: `setBasicAuth("bob", "…")`, `setCredentials(…)` take a pair (review
      // 22: the setter's name ended the search, and the pair went clear).
    }
    const re = PAIR.test(before)
      ? USER_PASSWORD
      : CONNECTION.test(before)
        ? URL_USER_PASSWORD
        : null;
    if (!re) return -1;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return -1;
    if (acceptAssignment('password', m[4], true, '')) {
      out.push(valueSpan(text, m[4], re.lastIndex, 'password'));
    }
    return re.lastIndex;
  },
};

/** ConvertTo-SecureString's switches before its string. */
const SECURE_OPTIONS = '(?:-(?:String|AsPlainText|Force)[ \\t]+){0,3}';
/**
 * `ConvertTo-SecureString "S3cret" -AsPlainText -Force` (PowerShell): the plain text, also
 * after `-String` or `-AsPlainText` (`ConvertTo-SecureString -AsPlainText "S3cret" -Force`,
 * review 19); unquoted too before `-AsPlainText` (review r19 M4: `ConvertTo-SecureString S3cret
 * -AsPlainText` was served clear).
 */
export const secureStringPassword = regexDetector({
  kind: 'password',
  anchors: '-',
  // Also the tools' arguments after a word and a dash (./positional TOOL_ARGUMENTS): one
  // look-behind for all at every `-`.
  trigger:
    `-(?<=(?:ConvertTo|add|pypi|http|github)-)(?=SecureString[ \\t]+${SECURE_OPTIONS}[^\\s$(-]` +
    `|authtoken[ \\t]+\\S|token\\.[\\w-]{1,40}[ \\t]+\\S|(?:basic|oauth)\\.[\\w.-]{1,80}[ \\t]+\\S)`,
  back: 0,
  source:
    `-SecureString[ \\t]+${SECURE_OPTIONS}(?:"([^"\\r\\n]{1,${VALUE_MAX}})(?=")|'([^'\\r\\n]{1,${VALUE_MAX}})(?=')` +
    `|([^\\s"'\`$(){}\\[\\];|&-][^\\s"'\`$(){}\\[\\];|&]{0,${VALUE_MAX}})(?=[ \\t]+-${ci('AsPlainText')}))`,
  pick: (m, end) => {
    const value = m[1] ?? m[2] ?? m[3];
    return acceptAssignment('password', value, true, '') ? end - value.length : -1;
  },
});
