import type { Span } from './detector';

// --- a line whose start the compact tier's truncation cut off ----------------------------------

/**
 * The compact tier keeps a long `content` or `thinking` as its first and last 2,048 bytes with
 * `\n<truncated N bytes>\n` between them (FORMAT-NOTES). The last part starts wherever the byte
 * count falls: inside a key name it leaves a fragment no key rule reads (`sword: V`,
 * `ccess_key = V`, `earer V`, `ssword": "V"}`), and inside a command or URL one no command
 * rule reads (`oot -pV app` of `mysql -uroot -pV`, `min:V https://x` of `curl -u admin:V`,
 * `//app:V@db.internal/app`). Review 18 H1: 74 of 200 cut positions served the value clear on
 * every route of the compact tier while the full tier masked it.
 *
 * The first line after each marker is read again as the completion of the cut line: after the
 * part of a key word it lacks (its first characters match a suffix of 2+ characters of the
 * word), and after a command's or a URL's start (COMPLETIONS, which may also overlap nothing:
 * the user name cut whole). Kept are the spans that lie inside the line, mapped back.
 */

/**
 * Key words whose end may open a tail (as keys.ts's KEYWORDS spell them, lower case). A key
 * counts when it ends with one, so a longer name is not listed when its tail holds a shorter
 * one whole (`ccess_token`, `ret_access_key` are keys as they are).
 */
const KEY_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'api_key',
  'apikey',
  // `X-Api-Key: V` cut to `pi-Key: V`, `-Key: V` (review 20).
  'api-key',
  'access_key',
  'secret_key',
  'private_key',
  'bearer',
  'authorization',
  'credential',
  'credentials',
];
/**
 * A command's or URL's start, whose own completion may be empty (a whole user name cut), and
 * whether the line is worth reading so: `mysql -u` when a ` -p` follows soon (`oot -pV app`),
 * `curl -u ` when a `:` comes before the URL's (`min:V https://x`), `x://` when a `:` comes
 * before an `@` with no blank between (`app:V@db`).
 */
const COMPLETIONS: readonly (readonly [string, (line: string) => boolean, number?])[] = [
  ['mysql -u', (line) => line.lastIndexOf(' -p', 64) >= 0],
  // A header cut before its scheme's credential (review 20: `zation: Bearer V`, `ion: Bearer
  // V`, `: Bearer V`, `Bearer V`, `earer V`, `arer V` served a 14-character V clear: the
  // `bearer` rule outside a header takes 16 or more). At least `arer ` of it, and a credential
  // of 8 or more with a letter and a digit (`arer than`, `Bearer of news` are prose). As a
  // header, in lower case, and as a JSON or a dict entry (`zation": "Bearer V"`).
  ['Authorization: Bearer ', bearerCredential, 5],
  ['authorization: bearer ', bearerCredential, 5],
  ['Authorization": "Bearer ', bearerCredential, 5],
  ['authorization": "bearer ', bearerCredential, 5],
  ["Authorization': 'Bearer ", bearerCredential, 5],
  // The same for Basic (review 20: `ion: Basic V`, `ization: Basic V` of a Proxy-Authorization
  // header were clear): from `Basic ` whole on, a credential of 8 or more that is not a word.
  ['Authorization: Basic ', basicCredential, 6],
  ['authorization: basic ', basicCredential, 6],
  ['Authorization": "Basic ', basicCredential, 6],
  // A name/value object cut after its `{"` (review 20: `name": "API_TOKEN", "value": "V"}`
  // was clear where the whole object is masked), decoded and as a JSON string's text.
  ['{"', nameValueItem],
  ['{\\"', nameValueItem],
  [
    'curl -u ',
    (line) => {
      const url = line.indexOf('://');
      return url > 0 && line.indexOf(':') < url;
    },
  ],
  [
    'x://',
    (line) => {
      const at = line.indexOf('@');
      const colon = line.indexOf(':');
      return colon >= 0 && colon < at && line.lastIndexOf(' ', at) < 0;
    },
  ],
];
/** The credential after the first `rer ` in a line's first 24 characters (see COMPLETIONS). */
const BEARER_CREDENTIAL = /^[ \t]*([A-Za-z0-9._~+/-]{8,})/;
function bearerCredential(line: string): boolean {
  const at = line.indexOf('rer ');
  if (at < 0 || at > 20) return false;
  const cred = BEARER_CREDENTIAL.exec(line.slice(at + 4))?.[1];
  return cred !== undefined && /\d/.test(cred) && /[A-Za-z]/.test(cred);
}
/** The credential after the first `Basic ` (any case) in a line's first 24 characters. */
const BASIC_CREDENTIAL = /^[ \t]*([A-Za-z0-9+/=]{8,})/;
function basicCredential(line: string): boolean {
  const at = line.toLowerCase().indexOf('basic ');
  if (at < 0 || at > 18) return false;
  const cred = BASIC_CREDENTIAL.exec(line.slice(at + 6))?.[1];
  // Base64 of `user:password`: a digit, `+`, `/`, `=` or a capital past the first letter
  // (`Basic authentication` is prose).
  return cred !== undefined && (/[\d+/=]/.test(cred) || /[A-Z]/.test(cred.slice(1)));
}
/** A line that goes on as an object's name member and a value member (`name": "X", "value"`). */
const NAME_VALUE = /^(?:name|Name|key|Key|ParameterKey)\\*"[^\n]{0,160}?(?:value|Value)\\*"/;
function nameValueItem(line: string): boolean {
  return NAME_VALUE.test(line);
}

/**
 * The shortest suffix of a key word read as its end: 3 (`on: 2024-01-01` of `Created on:`
 * read as `authorization: …` masked a date; two or three letters, `rd: V`, are left to
 * ./cut-token's token-shaped tail). Longer for the words whose values need no digit and whose
 * ends are common words' (`ord: V` of `Record:`, `ase: V` of `Database:`), and for
 * `authorization`, whose ends are other words' up to `orization` (`categorization`; a
 * `Bearer V` after it is masked without it).
 */
const SUFFIX_MIN = 3;
const SUFFIX_MIN_OF: Readonly<Record<string, number>> = {
  password: 4,
  passphrase: 7,
  authorization: 10,
};
/** How much of the line after a marker is read (a key, its separator and a value). */
const LINE_MAX = 256;
/**
 * What the lines read again may cost, in characters: the text's length and BUDGET_EXTRA, each
 * scan counted as its length and CALL_COST (a scan's fixed cost). Real markers stand 2,048
 * bytes of tail and 2,048 of the next field's head apart (about 1,400 characters at least),
 * and cost up to 5 scans of 256: never near it. A text of nothing but markers (bait) would
 * cost 5 to 7 times the text's own scan, and is read up to the budget.
 */
const BUDGET_EXTRA = 4096;
const CALL_COST = 64;

/**
 * The marker and the line break after it: `\n`, or escaped in a JSON string (`\\n`, `\\\\n` in
 * JSON inside JSON). ./escaped decodes a whole JSON line, but a window of a long one (a
 * download step, a text past WINDOWED_FROM) is read raw.
 */
const MARKER = /<truncated \d{1,12} bytes>(\n|\\{1,8}n)/y;

/**
 * The prefixes a line may have lost: the missing start of a key word its first characters
 * end (one word per end: `key` read as `api_key` is read as `access_key` would be), and each
 * COMPLETIONS start it agrees with.
 */
function missing(line: string): string[] {
  const out: string[] = [];
  const ends = new Set<string>();
  const lower = line.slice(0, 32).toLowerCase();
  const upper = /^[A-Z_]{2}/.test(line);
  for (const word of KEY_WORDS) {
    for (let cut = 1; cut <= word.length - (SUFFIX_MIN_OF[word] ?? SUFFIX_MIN); cut++) {
      const end = word.slice(cut);
      if (!lower.startsWith(end) || ends.has(end)) continue;
      ends.add(end);
      const head = word.slice(0, cut);
      if (upper) out.push(head.toUpperCase());
      // `Bearer` is a scheme only capitalised (`bearer of news` is prose).
      else out.push(word === 'bearer' ? head[0].toUpperCase() + head.slice(1) : head);
    }
  }
  for (const [start, worth, least] of COMPLETIONS) {
    if (!worth(line)) continue;
    // Up to the whole start (the line goes on from right after it: `oot -pV` of `-uroot`).
    for (let cut = 1; cut <= start.length - (least ?? 0); cut++) {
      if (line.startsWith(start.slice(cut))) out.push(start.slice(0, cut));
    }
  }
  return [...new Set(out)];
}

/**
 * Spans in the lines right after the truncation markers of `text`, read as the completions
 * of cut lines (see above). `scan`: the redactor's scan of a text (no marker in what it gets).
 */
export function cutLineSpans(scan: (t: string) => Span[], text: string): Span[] {
  const out: Span[] = [];
  let budget = text.length + BUDGET_EXTRA;
  for (let at = text.indexOf('<truncated '); at >= 0; at = text.indexOf('<truncated ', at + 1)) {
    MARKER.lastIndex = at;
    const m = MARKER.exec(text);
    // The same line break before the marker as after it.
    const brk = m?.[1] ?? '';
    if (!m || !text.startsWith(brk, at - brk.length)) continue;
    const from = MARKER.lastIndex;
    let to = text.indexOf(brk, from);
    if (to < 0 || to - from > LINE_MAX) to = Math.min(text.length, from + LINE_MAX);
    const line = text.slice(from, to);
    if (line.length === 0) continue;
    for (const prefix of missing(line)) {
      budget -= prefix.length + line.length + CALL_COST;
      if (budget < 0) return out;
      for (const s of scan(prefix + line)) {
        if (s.start < prefix.length) continue;
        out.push({
          start: s.start - prefix.length + from,
          end: s.end - prefix.length + from,
          kind: s.kind,
        });
      }
    }
  }
  return out;
}
