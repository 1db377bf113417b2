import type { Span } from './patterns';
import { placeholderPassword } from './keys';
import { mergeSpans } from './spans';

/** Shorter values are words elsewhere in a text (`root`, `admin`): only longer ones echo. */
const MIN_ECHO = 8;
/**
 * Longer values are runs a rule masked to their end (`password=password=…` over a megabyte),
 * not a secret someone repeats; looking for them again would cost their length at each place.
 */
const MAX_ECHO = 512;
/** Past this many secrets in one text it is a dump of them, not prose that repeats one. */
export const MAX_VALUES = 32;
/** A character a whole-word value may not touch on a side where it starts or ends with one. */
export const WORD = /[\p{L}\p{N}_]/u;

/**
 * `spans` plus every other place of `text` that shows a found secret's value again:
 * `mysql -pS3cretPw0rd` found by its option, then "logged in with S3cretPw0rd" in the same
 * output, where no key precedes it. Each echo is masked with its secret's kind, as a whole
 * word only (not inside a longer word that happens to contain it). Values of MIN_ECHO or
 * more characters on one line, at most MAX_VALUES of them; `spans` sorted and merged.
 * A text of more secrets is a dump of them as a whole, but its lines may each be a record (a
 * transcript downloaded whole: review 18 H5, a value an edit's TargetContent held and its
 * ReplacementContent repeated, masked in the step's line and clear in the file): then each
 * line of at most MAX_VALUES secrets is searched for the echoes of its own.
 */
export function withEchoes(text: string, spans: Span[]): Span[] {
  if (spans.length === 0) return spans;
  let echoes: Span[];
  if (spans.length <= MAX_VALUES) {
    const values = new Map<string, string>();
    learnValues(text, spans, values);
    echoes = echoSpans(text, withForms(values), spans);
  } else if (text.includes('\n')) {
    echoes = lineEchoes(text, spans);
  } else return spans;
  if (echoes.length === 0) return spans;
  return mergeSpans([...spans.map((s) => ({ ...s })), ...echoes]);
}

/** The echoes each line of `text` holds of its own secrets (`spans` sorted). */
function lineEchoes(text: string, spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  let k = 0;
  for (let start = 0; start < text.length && k < spans.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    if (spans[k].start >= end) {
      // No secret starts on this line: skip to the line of the next one.
      const next = text.lastIndexOf('\n', spans[k].start - 1);
      start = next < end ? end + 1 : next + 1;
      continue;
    }
    const first = k;
    while (k < spans.length && spans[k].start < end) k++;
    if (k - first <= MAX_VALUES) {
      const line = text.slice(start, end);
      // A span from the newline before (a secret over lines) is cut to the line.
      const own = spans.slice(first, k).map((s) => ({
        start: Math.max(s.start, start) - start,
        end: Math.max(Math.min(s.end, end), start) - start,
        kind: s.kind,
      }));
      const values = new Map<string, string>();
      learnValues(line, own, values);
      for (const e of echoSpans(line, withForms(values), own)) {
        out.push({ start: e.start + start, end: e.end + start, kind: e.kind });
      }
    }
    start = end + 1;
  }
  return out;
}

/**
 * Adds to `values` (value → kind) the values of `spans` that can echo, while it holds fewer than
 * `max`: of MIN_ECHO to MAX_ECHO characters, on one line, no placeholder.
 */
export function learnValues(
  text: string,
  spans: readonly Span[],
  values: Map<string, string>,
  max = MAX_VALUES,
): void {
  for (const s of spans) {
    if (values.size >= max) return;
    if (s.end - s.start < MIN_ECHO || s.end - s.start > MAX_ECHO) continue;
    const value = text.slice(s.start, s.end);
    // A placeholder masked by a looser rule is a word of the text, not a secret to chase.
    if (value.includes('\n') || values.has(value) || placeholderPassword(value)) continue;
    values.set(value, s.kind);
  }
}

/** `s` as written inside a JSON string (without its quotes). */
export const inString = (s: string): string => JSON.stringify(s).slice(1, -1);

/** `s` read as a JSON string's inside (its escapes decoded), or null when it is none. */
export function jsonDecoded(s: string): string | null {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return null;
  }
}

/**
 * A value written with an escape, a quote, a character that HTML, a URL or a shell's double
 * quotes would escape, or a line separator JSON may escape.
 */
const ENCODABLE = /[\\"&<>'%\s$`+\u2028\u2029/@:=?#;,]/;
const HTML: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * `values` plus the other forms a value found in one form shows in elsewhere in the same text
 * (review 22 F1: `{"db_password": "C0rp\\\\Adm1n…"}` then `connecting with C0rp\\Adm1n…`, or
 * `DB_PASSWORD="Zq8\\$m…"` then `echo Zq8$m…`, and the other way round): decoded from JSON or
 * shell escapes, escaped for JSON or a shell's double quotes, HTML-escaped, URL-encoded or
 * decoded. Only values holding such a character have
 * other forms (most have none: no other search).
 */
export function withForms(values: Map<string, string>): Map<string, string> {
  for (const [value, kind] of [...values]) {
    if (!ENCODABLE.test(value)) continue;
    const json = inString(value);
    const forms = [
      json,
      json.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`),
      // Inside a shell's double quotes: `echo "Dollar\$Rev6…"`.
      value.replace(/[$`"\\]/g, '\\$&'),
      value.replace(/[&<>"']/g, (c) => HTML[c]),
      value.replace(/&(amp|lt|gt|quot|#39);/g, (m) => HTML_DECODED[m]),
      encodeURIComponent(value),
    ];
    // Review 24: a query string's `+` for a blank (`?password=Jb+Xm2…` then `Jb Xm2…`), HTML's
    // numeric entities (`Jd&#38;Xm2…`, `&#x26;`), a backtick's escape (PowerShell's `` ` ``).
    if (value.includes('+')) forms.push(value.replace(/\+/g, ' '));
    if (value.includes(' ')) forms.push(value.replace(/ /g, '+'));
    if (value.includes('&#')) forms.push(value.replace(NUMERIC_ENTITY, numericDecoded));
    // Review 25: any of HTML's numeric ways (`&#38;`, `&#038;`, `&#x26;`, `&#X26;`, `&#x0026;`,
    // `&#60;`, `&#34;`), `&apos;`, and JSON's `\u0026` (Go and others escape `&`, `<`, `>`).
    if (/[&<>"']/.test(value)) {
      for (const f of CHARACTER_REFERENCES) forms.push(value.replace(/[&<>"']/g, f));
      if (value.includes("'")) forms.push(value.replace(/'/g, '&apos;'));
    }
    if (value.includes('`')) forms.push(value.replace(/`(.)/gs, '$1'));
    // PowerShell's backtick before `"` and `` ` `` in a double-quoted string (review 25).
    if (/["`]/.test(value)) forms.push(value.replace(/[`$"]/g, '`$&'));
    // A quote inside single quotes, the shell's way and YAML's (`it'\''s…`, `Xy''q…`), and back.
    if (value.includes("'")) {
      forms.push(value.replace(/'\\''/g, "'"), value.replace(/''/g, "'"));
      forms.push(value.replace(/'/g, "'\\''"), value.replace(/'/g, "''"));
    }
    if (value.includes('$')) forms.push(value.replace(/[`$"]/g, '`$&'));
    if (value.includes('\\')) {
      // Not a JSON string's inside: its shell-unescaped form alone.
      forms.push(value.replace(/\\(.)/gs, '$1'), jsonDecoded(value) ?? value);
    }
    if (value.includes('%')) {
      try {
        forms.push(decodeURIComponent(value));
      } catch {
        // a lone % is no URL encoding
      }
    }
    // URL-encoded with lower-case hex (`%2f`), and twice (`%2540`, a URL inside a query).
    const url = encodeURIComponent(value);
    if (url !== value) {
      forms.push(
        url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
        encodeURIComponent(url),
      );
    }
    for (const form of forms) {
      if (form.length >= MIN_ECHO && form !== value && !values.has(form)) values.set(form, kind);
    }
  }
  return values;
}

/** The character reference forms of `&`, `<`, `>`, `"`, `'` an echo may show (withForms). */
const CHARACTER_REFERENCES: ((c: string) => string)[] = [
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#0${c.charCodeAt(0)};`,
  (c) => `&#x${c.charCodeAt(0).toString(16)};`,
  (c) => `&#X${c.charCodeAt(0).toString(16)};`,
  (c) => `&#x00${c.charCodeAt(0).toString(16)};`,
  (c) => `\\u00${c.charCodeAt(0).toString(16)}`,
];
/** HTML's numeric character references: `&#38;`, `&#x26;`. */
const NUMERIC_ENTITY = /&#(?:(\d{1,7})|[xX]([0-9a-fA-F]{1,6}));/g;
function numericDecoded(m: string, dec?: string, hex?: string): string {
  const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex ?? '', 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
}

const HTML_DECODED: Record<string, string> = Object.fromEntries(
  Object.entries(HTML).map(([c, e]) => [e, c]),
);

/** Whether a `%XX` URL escape ends at `at`. */
const URL_ESCAPE_BEFORE = (text: string, at: number): boolean =>
  at >= 3 && text.charCodeAt(at - 3) === 0x25 && HEX2.test(text.slice(at - 2, at));
const HEX2 = /^[0-9A-Fa-f]{2}$/;

/**
 * Where `text` shows one of `values` again as a whole word, outside `spans` (sorted, not
 * overlapping: one walk over them per value, so text dense with a value stays linear).
 */
export function echoSpans(
  text: string,
  values: ReadonlyMap<string, string>,
  spans: readonly Span[],
): Span[] {
  const echoes: Span[] = [];
  for (const [value, kind] of values) {
    const edgeBefore = WORD.test(value[0]);
    const edgeAfter = WORD.test(value[value.length - 1]);
    let k = 0; // the first span that ends after the occurrence's start
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      const end = at + value.length;
      // A URL escape's hex before it is no word (`%3DEc19%2540…`: review 25).
      if (edgeBefore && at > 0 && WORD.test(text[at - 1]) && !URL_ESCAPE_BEFORE(text, at)) continue;
      if (edgeAfter && end < text.length && WORD.test(text[end])) continue;
      while (k < spans.length && spans[k].end <= at) k++;
      // Where a secret was found already (the value finds itself there).
      if (k < spans.length && spans[k].start < end) continue;
      echoes.push({ start: at, end, kind });
    }
  }
  return echoes;
}
