import { EDGE, EDGE_ALNUM, REDACTED, regexDetector, type Detector } from './detector';
import { acceptAssignment, secretKey } from './keys';
import { LINE_GUTTER } from './gutter';
import { VALUE_MAX } from './values';
import { wordParts } from './cut-token';

// --- credentials of cloud services that have no prefix of their own -----------------------------

/**
 * The signature or session token of a pre-signed URL: Azure SAS `sig=`, S3
 * `X-Amz-Signature=` and `X-Amz-Security-Token=`, GCS `X-Goog-Signature=`, CloudFront
 * `Signature=`. Anyone holding the URL holds the access it grants, until it expires.
 * Also an API key as a URL's `key` parameter (`https://maps.x.com/api?key=V&q=1`, review 21:
 * served clear where `?api_key=V` is masked), when random (apiKeyParameter).
 */
const SIGNED = '(?:sig|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature|Signature|key)';
export const urlSignature = regexDetector({
  kind: 'url-signature',
  anchors: '=',
  // After a query's `?`, `&`, `;`, or a SigV4 Authorization header's `, ` (review 25:
  // `…, SignedHeaders=host, Signature=<hex64>`).
  trigger: `=(?<=(?:[?&;]|, )${SIGNED}=)(?=[\\w%+/-]{16})`,
  back: 0,
  source: `(?<=(?:[?&;]|, )${SIGNED})=([A-Za-z0-9%+/_-]{16,2048}=*)`,
  quick: (text, at) => {
    const c = text.charCodeAt(at - 1);
    return c === 0x67 || c === 0x65 || c === 0x6e || c === 0x79; // sig, Signature, Token, key
  },
  pick: (m) =>
    !m.input.startsWith('key', m.index - 3) || apiKeyParameter(m[1]) ? m.index + 1 : -1,
  kindOf: (m) => (m.input.startsWith('key', m.index - 3) ? 'password' : 'url-signature'),
});

/**
 * Whether a URL's `key` parameter holds an API key: 16 or more letters, digits, `-` and `_`,
 * with a letter and a digit, not words and numbers (`report_2024_final_v2`, a cache key;
 * `?key=value`, `?key=1`, `?key=name` are shorter).
 */
function apiKeyParameter(v: string): boolean {
  if (!/\d/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/^[A-Za-z0-9_-]{16,}$/.test(v)) return !wordParts(v);
  return encodedKey(v);
}

/**
 * A base64 key written into a URL (review 22: `?key=ab%2Bcd%2Fef12GH34` was served clear where
 * `?api_key=` masks it): `+`, `/`, `=` bare or as `%2B`, `%2F`, `%3D` (16 or more written, 12 decoded), both
 * cases, and a piece between them that is no word or number (a path, `uploads/2024/photo1`,
 * is pieces that are).
 */
function encodedKey(v: string): boolean {
  const b64 = v.replace(ENCODED_B64, (e) => B64_OF[e.slice(1).toUpperCase()] ?? e);
  if (!/^[A-Za-z0-9_+/-]{12,}=*$/.test(b64) || !/[a-z]/.test(b64) || !/[A-Z]/.test(b64)) {
    return false;
  }
  return !b64.split(/[+/=]/).every((piece) => wordParts(piece));
}
const ENCODED_B64 = /%(?:2[BbFf]|3[Dd])/g;
const B64_OF: Record<string, string> = { '2B': '+', '2F': '/', '3D': '=' };

/**
 * HashiCorp Vault tokens: service `hvs.`, batch `hvb.`, recovery `hvr.`, and the older service
 * tokens `s.` + 24 letters and digits (`vault login s.…`), taken when random (a digit and a
 * letter), not `s.` before a long identifier.
 */
export const vaultToken = regexDetector({
  kind: 'vault-token',
  anchors: '.',
  trigger: `\\.(?=[\\w-]{24})(?<=${EDGE}(?:hv[sbr]|s)\\.)`,
  back: 0,
  source: `(?<=${EDGE}(?:hv[sbr]|s))\\.[A-Za-z0-9_-]{24,1024}`,
  pick: (m) => {
    const at = m.index;
    if (m.input.startsWith('hv', at - 3)) return at - 3;
    const legacy = m[0].slice(1);
    const random = /^[A-Za-z0-9]{24}$/.test(legacy) && /\d/.test(legacy) && /[A-Za-z]/.test(legacy);
    return random ? at - 1 : -1;
  },
});

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** `=`, `:`, or blanks (the `Key  Value` table `vault write -f …/secret-id` prints). */
const SEPARATOR = '(?:[ \\t]*[=:][ \\t]*|[ \\t]{1,64})';
/**
 * A Vault AppRole's secret id (`vault write auth/approle/login role_id=… secret_id=<uuid>`,
 * `{"role_id": "…", "secret_id": "<uuid>"}`, the `secret_id  <uuid>` line of the table that
 * `vault write -f auth/approle/role/R/secret-id` prints): with the role id it logs in (review 20: served
 * clear, `_id` names no secret elsewhere). A UUID only: `secret_id = aws_secretsmanager_…` and
 * a secret's name are references.
 */
export const vaultSecretId = regexDetector({
  kind: 'vault-token',
  anchors: '_',
  trigger: `_(?<=secret_)(?=id\\\\*["']?${SEPARATOR}\\\\*["']?[0-9a-fA-F]{8}-)`,
  back: 6,
  literal: 'secret_id',
  source: `${EDGE_ALNUM}secret_id\\\\*["']?${SEPARATOR}\\\\*["']?${UUID}(?![\\w-])`,
  pick: (_m, end) => end - 36,
});

/** How far before `"value"` the `"keyName"` of the same key object is looked for. */
const KEY_OBJECT = 300;
const KEY_NAME = /"keyName"[ \t]*:[ \t]*"[^"\r\n]{1,40}"/;
const KEY_VALUE = /:[ \t]*"([A-Za-z0-9+/]{40,200}={0,2})"/y;

/**
 * `az storage account keys list` (and `az … keys list` of other services): objects of
 * `"keyName": "key1", …, "value": "<base64>"`, whose value is the account's key.
 */
export const azureKeyList: Detector = {
  kind: 'azure-storage-key',
  anchors: ':',
  trigger: ':(?<="value"[ \\t]*:)(?=[ \\t]*"[A-Za-z0-9+/]{40})',
  find(text, at, _state, out) {
    if (!text.startsWith('value"', at - 6) && !/"value"[ \t]+$/.test(text.slice(at - 12, at))) {
      return -1;
    }
    if (!KEY_NAME.test(text.slice(Math.max(0, at - KEY_OBJECT), at))) return -1;
    KEY_VALUE.lastIndex = at;
    const m = KEY_VALUE.exec(text);
    if (!m) return -1;
    const end = KEY_VALUE.lastIndex - 1;
    out.push({ start: end - m[1].length, end, kind: 'azure-storage-key' });
    return KEY_VALUE.lastIndex;
  },
};

/** A Netscape cookie line from the last dot of its domain: fields, then the value (group 1). */
/** A tab, or `^I` as `cat -A` shows one (its lines then end with `$`). */
const TAB = '(?:\\t|\\^I)';
const JAR_LINE = new RegExp(
  `\\.[A-Za-z0-9-]{1,63}${TAB}(?:TRUE|FALSE)${TAB}[^\\t\\r\\n]{1,1024}?${TAB}(?:TRUE|FALSE)${TAB}\\d{1,12}` +
    `${TAB}[^\\t\\r\\n]{1,256}?${TAB}([^\\t\\r\\n]{1,${VALUE_MAX}})`,
  'y',
);
const DOMAIN_CHAR = /[A-Za-z0-9._#-]/;

/**
 * `.example.com\tTRUE\t/\tTRUE\t1767225600\tsessionid\tabc123`: the value of a line of a
 * Netscape cookie file (what `curl -c` writes and `cat cookies.txt` prints), a session's key.
 * Anchored on the last dot of the domain (a host without a dot, `localhost`, is not read).
 */
export const cookieJarValue: Detector = {
  kind: 'cookie',
  anchors: '.',
  // `[\t^]I?`: looser than TAB, a character class where the scan of every `.` backtracks.
  trigger: '\\.(?=[A-Za-z0-9-]{1,63}[\\t^]I?(?:TRUE|FALSE)[\\t^])',
  find(text, at, _state, out) {
    // The domain (maybe `#HttpOnly_`) starts the line, after a gutter at most (`4: `, `+`):
    // at most 255 domain characters before, and the gutter's few.
    let i = at - 1;
    while (i >= 0 && at - i <= 256 && DOMAIN_CHAR.test(text[i])) i--;
    const from = Math.max(0, i - 15);
    const head = text.slice(from, i + 1);
    const nl = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('\r'));
    if ((nl < 0 && from > 0) || !LINE_GUTTER.test(head.slice(nl + 1))) return -1;
    JAR_LINE.lastIndex = at;
    const m = JAR_LINE.exec(text);
    if (!m || m[1].startsWith(REDACTED)) return -1;
    const end = JAR_LINE.lastIndex;
    // `cat -A` ends each line with `$`: not the value's.
    const shown = m[0].includes('^I') && m[1].endsWith('$') ? 1 : 0;
    out.push({ start: end - m[1].length, end: end - shown, kind: 'cookie' });
    return end;
  },
};

/** After `ParameterKey=`: the name (1), then its value quoted (2, 3) or bare (4). */
const PARAMETER_PAIR = new RegExp(
  `=([\\w.:-]{1,128}),ParameterValue=(?:"([^"\\\\\\r\\n]{1,${VALUE_MAX}})"` +
    `|'([^'\\\\\\r\\n]{1,${VALUE_MAX}})'|([^\\s,"'\\\\]{1,${VALUE_MAX}}))`,
  'y',
);

/**
 * The AWS CLI's shorthand parameters (`aws cloudformation create-stack --parameters
 * ParameterKey=DbPassword,ParameterValue=S3cret ParameterKey=…`): a value whose key names a
 * secret was served clear (review r19). Each pair is its own candidate (one `=` each).
 */
export const awsParameterValue: Detector = {
  kind: 'password',
  anchors: '=',
  trigger: '=(?<=ParameterKey=)',
  find(text, at, _state, out) {
    if (!text.startsWith('ParameterKey', at - 12)) return -1;
    PARAMETER_PAIR.lastIndex = at;
    const m = PARAMETER_PAIR.exec(text);
    if (!m) return -1;
    const rule = secretKey(m[1]);
    const value = m[2] ?? m[3] ?? m[4];
    if (rule && acceptAssignment(rule.keyword, value, m[4] === undefined, '')) {
      const end = PARAMETER_PAIR.lastIndex - (m[4] === undefined ? 1 : 0);
      out.push({ start: end - value.length, end, kind: rule.kind });
    }
    return PARAMETER_PAIR.lastIndex;
  },
};
