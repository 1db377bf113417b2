import { composed, COMPOSES, SOFT_HYPHEN } from './composed';
import { bytesText, overwriteSpan, utf8Lossy, type Utf16 } from './bytes';
import { utf16Views } from './bytes-utf16';
import { withEchoes } from './echoes';
import { cutLineSpans } from './cut-tails';
import { endUrlPassword } from './cut-token';
import { escapedSpans } from './escaped';
import { stringHeadSpans } from './string-heads';
import { unicodeKeySpans } from './escaped-keys';
import { encodedKeySpans } from './encoded-keys';
import { diffSideSpans } from './diff';
import { joinedSpans } from './joins';
import { markdownSpans } from './markdown';
import { redactJsonWithEchoes } from './json';
import { scanBuiltins, type Span } from './patterns';
import { mergeSpans } from './spans';
import { maskInWindows, WINDOWED_FROM } from './windows';
import {
  INNER,
  INNER_CLOSE,
  INNER_START,
  LEAD_RUN,
  literalBackslashes,
  VALUE_MAX,
  valueAfterBackslash,
} from './values';

export type { Span } from './patterns';
export { mergeSpans } from './spans';

export interface RedactorOptions {
  /** REDACT=on|off. Off: every method is the identity and costs nothing. */
  enabled: boolean;
  /** REDACT_PATTERNS: extra regular expressions; their matches are masked as `custom`. */
  extraPatterns: string[];
}

/** Called once per masked span (after merging) with its kind: the redaction metric. */
export type OnRedact = (kind: string) => void;

/** What a masked span becomes. */
export function marker(kind: string): string {
  let m = MARKERS.get(kind);
  if (m === undefined) MARKERS.set(kind, (m = `[REDACTED:${kind}]`));
  return m;
}
const MARKERS = new Map<string, string>();
/** Blanks other than the space and tab that may stand between a key and its value. */
const WIDE_BLANK = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;
const WIDE_BLANKS = new RegExp(WIDE_BLANK.source, 'g');
const WIDE = '\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000';
/**
 * A separator with such a blank after it (past blanks), or before it (past blanks, quotes); an
 * option with one after it (review r16 L: `mysql --password\u00a0V`, `-p\u00a0V`, `curl -u\u00a0bob:V`).
 */
const WIDE_GAP = new RegExp(
  `[:=>\\uff1a\\uff1d][ \\t${WIDE}]*[${WIDE}]|(?<=[ \\t]-{1,2}[A-Za-z][\\w-]{0,40})[${WIDE}]+|(?<![ \\t${WIDE}])[ \\t]*[${WIDE}][ \\t${WIDE}]*["'\\\\\\]]*[:=\\uff1a\\uff1d]`,
  'g',
);
/**
 * What composed() changes (COMPOSES: a combining mark, a zero-width or half-width character, a
 * dotted capital I) or a non-ASCII blank but U+00A0: one class, all above U+00FF, which V8
 * rules out at once in a one-byte string (U+00A0 is looked for apart, with includes: in the
 * class it made figure 7's redactText 15% slower).
 */
const MARK_OR_BLANK = new RegExp(`[${COMPOSES.source.slice(1, -1)}${WIDE.slice(6)}]`);
/**
 * Whether the control characters [a, b) stand where a value may follow: after a separator
 * (`:`, `=`, `>`, full-width `：`), or an option (`-p`, `--password`), maybe past blanks, and
 * before something not blank.
 */
function valueGap(text: string, a: number, b: number): boolean {
  const next = text.charCodeAt(b);
  if (!(next > 0x20) || next === 0x7f) return false;
  let i = a;
  while (i > 0 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  const c = text[i - 1];
  if (c === ':' || c === '=' || c === '>' || c === '\uff1a' || c === '\uff1d') return true;
  const before = text.slice(Math.max(0, i - 42), i);
  return OPTION_BEFORE.test(before) || SCHEME_BEFORE.test(before);
}
const OPTION_BEFORE = /(?:^|[\s"'])-{1,2}[A-Za-z][\w-]{0,40}$/;
/** An authorization scheme before the gap (review r19: `Authorization: Bearer\vV`). */
const SCHEME_BEFORE = /(?:^|[\s"':])(?:bearer|basic|token)$/i;
/** How far before such a gap its window starts: the key name (./keys) and what precedes it. */
const KEY_REACH = 256;
/**
 * Control characters that may stand between a key and its value (review r17 H1: `password:\v`,
 * `mysql -p\f`, `curl -u bob:\r`, `\x1f`, `\x00`): the C0 controls but the tab, the line feed
 * and ESC (an ANSI sequence's, read by the detectors as it is), and a carriage return not
 * before a line feed. A raw JSON line spells them `\u000b`, which the raw scan reads glued to
 * the value and masks; the decoded text reads them as a line break, as a terminal shows them.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f]|\r(?!\n)/;
const CONTROLS = new RegExp(`(?:${CONTROL.source})+`, 'g');
/**
 * Whether `text` holds a CONTROL character, as CONTROL.test says, at less cost: that regex
 * reads every character in the engine's loop (39 ms per pass over figure 7's 64 MiB of
 * strings, 15% of what redaction added). The text is copied as Latin-1 (each UTF-16 unit's
 * low byte: one of a control character is below 0x20) and read four bytes at a time, 16 per
 * step; only a step holding a byte below 0x20 (a line break, a tab) has its characters read
 * one by one, on the text itself (24 ms). Short and very long texts: the regex.
 */
export function hasControl(text: string): boolean {
  const n = text.length;
  if (n < CONTROL_SWAR_MIN || n > CONTROL_SWAR_MAX) return CONTROL.test(text);
  // Whole steps of 16 bytes, the tail padded with blanks.
  const end = (n + 15) & ~15;
  if (end > controlBytes.length) {
    controlBytes = Buffer.allocUnsafeSlow(Math.max(end, 2 * controlBytes.length));
    controlWords = new Uint32Array(controlBytes.buffer, 0, controlBytes.length >> 2);
  }
  const bytes = controlBytes;
  const words = controlWords;
  bytes.write(text, 0, 'latin1');
  bytes.fill(0x20, n, end);
  for (let i = 0; i < end >> 2; i += 4) {
    // Per byte, its top three bits plus 7 reach bit 3 unless all are 0 (a byte below 0x20):
    // no carry leaves a byte, and every value stays a small integer.
    const u =
      (((words[i] >>> 5) & 0x07070707) + 0x07070707) &
      (((words[i + 1] >>> 5) & 0x07070707) + 0x07070707) &
      (((words[i + 2] >>> 5) & 0x07070707) + 0x07070707) &
      (((words[i + 3] >>> 5) & 0x07070707) + 0x07070707);
    if ((u & 0x08080808) === 0x08080808) continue;
    const stop = Math.min(n, (i + 4) << 2);
    for (let k = i << 2; k < stop; k++) {
      const c = text.charCodeAt(k);
      if (c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x1b) continue;
      if (c !== 0x0d || text.charCodeAt(k + 1) !== 0x0a) return true;
    }
  }
  return false;
}
/** Texts hasControl reads four bytes at a time (the copy is kept for the next text). */
const CONTROL_SWAR_MIN = 256;
const CONTROL_SWAR_MAX = 1 << 20;
let controlBytes = Buffer.allocUnsafeSlow(1 << 16);
let controlWords = new Uint32Array(controlBytes.buffer, 0, controlBytes.length >> 2);
/** CONTROLS for replace (which resets lastIndex: the walk over the gaps keeps its own). */
const CONTROL_RUNS = new RegExp(CONTROLS.source, 'g');
/** Most JSON keys remembered as holding no secret (see redactKey), and short values (redactShort). */
const CLEAN_KEYS = 4096;

interface CustomPattern {
  re: RegExp;
  /** The pattern has a `(?<secret>...)` group: mask that group only. */
  secretGroup: boolean;
}

function compile(pattern: string): CustomPattern {
  const secretGroup = pattern.includes('(?<secret>');
  return { re: new RegExp(pattern, secretGroup ? 'gd' : 'g'), secretGroup };
}

/**
 * Masks secrets in text: the built-in detectors of ./patterns plus REDACT_PATTERNS. Pure
 * apart from `onRedact`; safe to share.
 */
export class Redactor {
  readonly enabled: boolean;
  private readonly custom: CustomPattern[];
  private readonly cleanKeys = new Set<string>();
  private readonly cleanValues = new Set<string>();

  constructor(
    opts: RedactorOptions,
    private readonly onRedact?: OnRedact,
  ) {
    this.enabled = opts.enabled;
    const errors = Redactor.validatePatterns(opts.extraPatterns);
    if (errors.length > 0) throw new Error(`REDACT_PATTERNS: ${errors.join('; ')}`);
    this.custom = opts.enabled ? opts.extraPatterns.map(compile) : [];
  }

  /**
   * One message per unusable extra pattern (empty, not a regular expression, or matching
   * the empty string, which would mask nothing or everything); [] when all are fine.
   */
  static validatePatterns(list: string[]): string[] {
    const errors: string[] = [];
    for (const p of list) {
      if (p === '') {
        errors.push('an empty pattern');
        continue;
      }
      let re: RegExp;
      try {
        re = compile(p).re;
      } catch (err) {
        errors.push(`${JSON.stringify(p)} is not a regular expression (${(err as Error).message})`);
        continue;
      }
      if (re.test('')) errors.push(`${JSON.stringify(p)} matches the empty string`);
    }
    return errors;
  }

  /**
   * The spans to mask in `text`, sorted and merged; [] when disabled. What the detectors find
   * in the text as it is, and in its JSON string literals decoded (./escaped): a secret behind
   * escapes is masked on the characters that spell it.
   */
  findSpans(text: string): Span[] {
    if (!this.enabled || text.length === 0) return [];
    const raw = this.scanText(text);
    if (text.includes('"'))
      for (const s of stringHeadSpans((t) => this.scanText(t), text)) raw.push(s);
    if (text.includes('\\')) {
      for (const s of escapedSpans(this, text)) raw.push(s);
      for (const s of backslashSpans(text)) raw.push(s);
      if (text.includes('\\u')) for (const s of unicodeKeySpans(text)) raw.push(s);
    }
    return withEchoes(text, mergeSpans(raw));
  }

  /**
   * What the built-in detectors and REDACT_PATTERNS find in `text` as it is, unmerged; in a
   * text holding combining marks, also what they find in it composed (NFC), mapped back onto
   * the decomposed characters (review r13 M1: `jelszó` written `jelszo` + U+0301).
   */
  scanText(text: string): Span[] {
    const raw = this.scanLines(text);
    // Values a line break or tab keeps from their key (./joins), read with the gap closed up.
    if (text.includes('\n') || text.includes('\t')) {
      for (const s of joinedSpans((t) => this.scanLines(t), text, raw)) raw.push(s);
    }
    if (hasControl(text)) for (const s of this.scanControls(text)) raw.push(s);
    // The line after a truncation marker, read as the rest of a cut line (review 18 H1).
    if (text.includes('<truncated ')) {
      for (const s of cutLineSpans((t) => this.scanText(t), text)) raw.push(s);
    }
    // A URL password the text ends with, its `@host` cut off (a cut value's diff: review 20).
    const end = endUrlPassword(text);
    if (end) raw.push(end);
    return raw;
  }

  /**
   * What scanText finds in windows around the control characters of `text` (CONTROL), each
   * run read as a line break (then blanks) and as blanks (`"password":\f"V"`): one UTF-16 unit
   * for one, the window's spans are the text's. Kept are the spans that reach past a run and start at most 8 characters after it
   * (the value after the gap, or a span over it: `Bearer\vV`); the rest the text's own scan
   * finds. Windows only, merged: terminal output holds `\r` everywhere.
   */
  private scanControls(text: string): Span[] {
    const out: Span[] = [];
    let gaps: number[] = [];
    let from = 0;
    let to = -1;
    let quoted = false;
    const flush = () => {
      const slice = text.slice(from, to);
      const found = this.scanText(
        slice.replace(CONTROL_RUNS, (run) => '\n'.padEnd(run.length, ' ')),
      );
      if (quoted) {
        for (const s of this.scanText(
          slice.replace(CONTROL_RUNS, (run) => ' '.repeat(run.length)),
        )) {
          found.push(s);
        }
      }
      found.sort((x, y) => x.start - y.start);
      let g = 0;
      for (const s of found) {
        const start = s.start + from;
        const end = s.end + from;
        while (g < gaps.length && gaps[g + 1] + 8 < start) g += 2;
        if (g < gaps.length && end > gaps[g + 1]) out.push({ start, end, kind: s.kind });
      }
      gaps = [];
      quoted = false;
    };
    CONTROLS.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = CONTROLS.exec(text)) !== null) {
      const a = m.index;
      const b = a + m[0].length;
      // Only a gap after a separator or an option (`password:`, `X=`, `-p`, `bob:`): the
      // progress lines of a terminal (`45% [===>  ]\r`) open no window.
      if (!valueGap(text, a, b)) continue;
      if (to >= 0 && a - KEY_REACH > to) flush();
      if (text.charCodeAt(b) === 0x22 || text.charCodeAt(b) === 0x27) quoted = true;
      if (gaps.length === 0) from = Math.max(0, a - KEY_REACH);
      to = Math.min(text.length, b + 2 * VALUE_MAX);
      gaps.push(a, b);
    }
    if (gaps.length > 0) flush();
    return out;
  }

  /** scanText without ./joins: the text's lines as they are. */
  private scanLines(text: string): Span[] {
    const raw = this.scanComposed(text);
    // Keys spelled with HTML entities or URL escapes (review r16 M4).
    for (const s of encodedKeySpans(text)) raw.push(s);
    // Credentials written as markdown or prose (review 23: `**Password:** \`V\``, tables).
    for (const s of markdownSpans(text)) raw.push(s);
    return raw;
  }

  private scanComposed(text: string): Span[] {
    // One pass over the text for both rare cases (each test is a scan of every character).
    const soft = text.includes(SOFT_HYPHEN);
    if (!soft && !text.includes('\u00a0') && !MARK_OR_BLANK.test(text)) return this.scanPlain(text);
    const raw = this.scanBlanks(text);
    if (!soft && !COMPOSES.test(text)) return raw;
    const nfc = composed(text);
    if (nfc) for (const s of nfc.toRaw(this.scanBlanks(nfc.text))) raw.push(s);
    return raw;
  }

  /**
   * scanPlain, and where a non-ASCII blank (U+00A0, U+202F, U+3000...) stands beside a
   * separator (WIDE_GAP), also scanPlain of a window there with each such blank an ASCII space
   * (review r14 M3: `Mot de passe\u00a0:`, `パスワード：\u3000…`, `password:\u00a0…` hid the value
   * from every key rule, which take `[ \t]`). One UTF-16 unit for one: the window's spans are
   * the text's; kept are those that start at the gap (the value after it). Only windows: French
   * prose holds U+00A0 everywhere, and a second scan of each whole text cost figure 7 17%.
   */
  private scanBlanks(text: string): Span[] {
    const raw = this.scanPlain(text);
    if (!text.includes('\u00a0') && !WIDE_BLANK.test(text)) return raw;
    WIDE_GAP.lastIndex = 0;
    let m: RegExpExecArray | null;
    let gaps: number[] = [];
    let from = 0;
    let to = -1;
    const flush = () => {
      const window = text.slice(from, to).replace(WIDE_BLANKS, ' ');
      // Spans by start, gaps in order: one walk over both (a window may hold many of each).
      const found = this.scanPlain(window).sort((x, y) => x.start - y.start);
      let g = 0;
      for (const s of found) {
        const start = s.start + from;
        while (g < gaps.length && gaps[g + 1] + 8 < start) g += 2;
        if (g < gaps.length && start >= gaps[g]) raw.push({ ...s, start, end: s.end + from });
      }
      gaps = [];
    };
    while ((m = WIDE_GAP.exec(text)) !== null) {
      const a = m.index;
      const b = a + m[0].length;
      if (to >= 0 && a - KEY_REACH > to) flush();
      if (gaps.length === 0) from = Math.max(0, a - KEY_REACH);
      to = Math.min(text.length, b + 2 * VALUE_MAX);
      gaps.push(a, b);
    }
    if (gaps.length > 0) flush();
    return raw;
  }

  private scanPlain(text: string): Span[] {
    const raw = scanBuiltins(text);
    for (const s of raw) {
      const c = text.charCodeAt(s.end);
      if (c === 0x5c && s.kind === 'password') past(text, s);
      else if (c === 0x22 && (s.kind === 'password' || s.kind === 'bearer')) pastQuote(text, s);
    }
    for (const { re, secretGroup } of this.custom) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        let [start, end] = [m.index, m.index + m[0].length];
        if (secretGroup) {
          const g = m.indices?.groups?.secret;
          [start, end] = g ?? [0, 0];
        }
        if (m[0].length === 0) re.lastIndex++; // a zero-length match: step over it
        if (end > start) raw.push({ start, end, kind: 'custom' });
      }
    }
    return raw;
  }

  /**
   * `text` with every secret replaced by `[REDACTED:<kind>]`; the same string if none. A text
   * past WINDOWED_FROM is masked in windows (./windows), so its working memory is a window's.
   */
  redactText(text: string): string {
    if (!this.enabled) return text;
    if (text.length > WINDOWED_FROM) return maskInWindows(this, text);
    return this.mask(text, this.findSpans(text));
  }

  /**
   * A unified diff (FileChange.diff) with every secret masked: what the text shows as it is,
   * and what each side shows read as its file (./diff: a secret over several lines may be
   * contiguous on one side only).
   */
  redactDiff(diff: string): string {
    if (!this.enabled || diff.length === 0) return diff;
    return this.mask(diff, mergeSpans([...this.findSpans(diff), ...diffSideSpans(this, diff)]));
  }

  /**
   * `text.slice(start, end)` with every secret found in the whole of `text` that overlaps
   * the slice masked; a secret cut by a slice edge masks the part inside. The rest of
   * `text` is context only (see ./range and ./stream).
   */
  redactSlice(text: string, start: number, end: number): string {
    if (!this.enabled) return text.slice(start, end);
    return this.mask(text, this.findSpans(text), start, end);
  }

  /**
   * `text.slice(start, end)` with the given spans masked; counts each masked span. `continued`:
   * a span over `start` continues a secret an earlier part already showed masked and counted
   * (./stream, a secret longer than a step): it shows nothing and is not counted again.
   */
  mask(
    text: string,
    spans: readonly Span[],
    start = 0,
    end = text.length,
    continued = false,
  ): string {
    if (end <= start) return '';
    const parts: string[] = [];
    let pos = start;
    for (const s of spans) {
      if (s.end <= start) continue;
      if (s.start >= end) break;
      if (continued && s.start <= start) {
        parts.push('');
        pos = Math.min(s.end, end);
        continue;
      }
      parts.push(text.slice(pos, Math.max(s.start, start)), marker(s.kind));
      pos = Math.min(s.end, end);
      this.onRedact?.(s.kind);
    }
    if (parts.length === 0)
      return start === 0 && end === text.length ? text : text.slice(start, end);
    parts.push(text.slice(pos, end));
    return parts.join('');
  }

  /**
   * Masks `buf` in place at the same length: every secret of its text (Latin-1, or UTF-16 for
   * such files) overlapping bytes [from, to) becomes its marker cut or padded with `*`. Bytes
   * read as Latin-1 are also searched as UTF-8 with stray bytes (maskUtf8) and as UTF-16
   * (maskUtf16).
   */
  maskBytes(buf: Buffer, enc: 'latin1' | Utf16 = 'latin1', from = 0, to = buf.length): void {
    if (!this.enabled) return;
    this.maskView(buf, enc, from, to);
    if (enc !== 'latin1') return;
    this.maskUtf8(buf, from, to);
    this.maskUtf16(buf, from, to);
  }

  /**
   * Masks, at the same length, secrets of `buf` read as UTF-8 with its invalid bytes as U+FFFD
   * (see utf8Lossy): non-ASCII secret words (`пароль`, `密码`) in bytes that are not wholly
   * UTF-8, which the Latin-1 view cannot match. A masked span covers whole characters' bytes.
   */
  maskUtf8(buf: Buffer, from = 0, to = buf.length): void {
    if (!this.enabled) return;
    const { text, at } = utf8Lossy(buf);
    for (const s of this.findSpans(text)) {
      const span = { ...s, start: at[s.start], end: at[s.end] };
      if (span.end <= from) continue;
      if (span.start >= to) break;
      overwriteSpan(buf, 'latin1', span, marker(s.kind));
      this.onRedact?.(s.kind);
    }
  }

  /**
   * Masks, at the same length, secrets written as UTF-16 anywhere in `buf` (either byte order,
   * either byte alignment), as maskBytes does: UTF-16 text in a binary file or after ASCII.
   */
  maskUtf16(buf: Buffer, from = 0, to = buf.length): void {
    if (!this.enabled) return;
    // In turn and in place: a secret masked in one view is not found (nor counted) again.
    for (const { enc, offset } of utf16Views(buf))
      this.maskView(buf.subarray(offset), enc, from - offset, to - offset);
  }

  private maskView(buf: Buffer, enc: 'latin1' | Utf16, from: number, to: number): void {
    const width = enc === 'latin1' ? 1 : 2;
    for (const s of this.findSpans(bytesText(buf, enc))) {
      if (s.end * width <= from) continue;
      if (s.start * width >= to) break;
      overwriteSpan(buf, enc, s, marker(s.kind));
      this.onRedact?.(s.kind);
    }
  }

  /**
   * `redactText` for JSON object keys: a few names repeat in every record, so the clean ones
   * are remembered (a bounded set, emptied when full).
   */
  redactKey(key: string): string {
    return this.redactRemembered(key, this.cleanKeys);
  }

  /**
   * `redactText` for a short string value in JSON (./json's SHORT_VALUE): a step's type,
   * status, tool name or working directory repeat in every record, and each scan costs a
   * call into the regex engine whatever the length. Remembered as keys are, in their own set.
   */
  redactShort(text: string): string {
    return this.redactRemembered(text, this.cleanValues);
  }

  private redactRemembered(text: string, clean: Set<string>): string {
    if (clean.has(text)) return text;
    const out = this.redactText(text);
    if (out === text) {
      if (clean.size >= CLEAN_KEYS) clean.clear();
      clean.add(text);
    }
    return out;
  }

  /**
   * Deep: every string inside arrays and plain objects redacted, values under secret-named
   * keys masked whole, keys that hold a secret masked (see ./json); other values as they are.
   * A secret found in one string is masked where another string of the value repeats it, as
   * in one text (./echoes). Copy on write: an unchanged value comes back as the same object.
   * `found` gets the values of the secrets found (value → kind).
   */
  redactJson(value: unknown, found?: Map<string, string>): unknown {
    if (!this.enabled) return value;
    return redactJsonWithEchoes(this, value, found);
  }
}

/**
 * How far either side of a literal backslash run backslashSpans reads the text again: a value
 * after it is at most VALUE_MAX (./values) long, and what names it (`password = "`, `-p`, a
 * URL's scheme and user) stands just before it. Windows that touch are merged.
 */
const AROUND_RUN = VALUE_MAX;
const X_CODE = 0x78;

/** Quotes a value may open with (their codes). */
const QUOTES = new Set([0x22, 0x27, 0x60]);

/** Extends a value's span that a detector ended at a backslash inside it (./values). */
function past(text: string, s: Span): void {
  const q = text.charCodeAt(s.start - 1);
  s.end = valueAfterBackslash(text, s.end, QUOTES.has(q) ? q : -1);
}

/** How far pastQuote looks back for the quote that opens a single-quoted token. */
const SINGLE_REACH = 128;

/**
 * Extends a value's span that a detector ended at a `"` inside a single-quoted token (review
 * r19: `curl -u 'bob:Xk9""Vq7'`, `-H 'Authorization: Bearer Xk9""Vq7…'` masked `Xk9` decoded;
 * in a JSON line, `\"` is read as the value's, see ./values quotedInside): the token's opening
 * `'` is the nearest quote before the value on the line, and its closing `'` follows with no
 * blank between the value and it.
 */
function pastQuote(text: string, s: Span): void {
  const lo = Math.max(0, s.start - SINGLE_REACH);
  let a = s.start - 1;
  for (; a >= lo; a--) {
    const c = text.charCodeAt(a);
    if (c === 0x27 || c === 0x22 || c === 0x0a || c === 0x0d) break;
  }
  if (a < lo || text.charCodeAt(a) !== 0x27) return;
  const before = text.charCodeAt(a - 1);
  if (!(a === 0 || before === 0x20 || before === 0x09 || before === 0x3d || before === 0x3a)) {
    // glued to a short option: `-u'bob:…'`
    if (!(text.charCodeAt(a - 2) === 0x2d && /[A-Za-z]/.test(text[a - 1]))) return;
  }
  const stop = Math.min(text.length, s.end + VALUE_MAX);
  for (let k = s.end; k < stop; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x27) {
      s.end = k;
      return;
    }
    if (c <= 0x20 || c === 0x5c) return;
  }
}

/**
 * What the detectors find when the backslashes that belong to a value are read as value
 * characters (review 11): their classes stop at a backslash, so a value that starts with one
 * (`-p\\lHEA…`, `DB_PASSWORD=\\…`) or a quoted one holding one (`-p 'X\\Y…'`) was not read
 * at all. The text with each such run (./values literalBackslashes) replaced by as many `x`
 * is scanned; what it finds over a replaced run is masked on the same offsets.
 */
function backslashSpans(text: string): Span[] {
  const { runs, leads } = literalBackslashes(text);
  const out: Span[] = [];
  // Only a window around each run (merged when they touch): a long text with a few runs is
  // not scanned twice whole. Each window is copied as UTF-16 code units, its runs overwritten
  // with `x` in place: a text dense with runs (`=\n` repeated: 1 MB, 350,000 runs) cost more in
  // building its string (a replace callback per run: 30 ms) than in scanning it.
  for (let k = 0; k < runs.length;) {
    const from = Math.max(0, runs[k] - AROUND_RUN);
    let to = Math.min(text.length, runs[k + 1] + AROUND_RUN);
    let last = k + 2;
    for (; last < runs.length && runs[last] - AROUND_RUN <= to; last += 2)
      to = Math.min(text.length, runs[last + 1] + AROUND_RUN);
    const buf = Buffer.from(text.slice(from, to), 'utf16le');
    let blanks = false;
    for (let r = k; r < last; r += 2) {
      for (let i = runs[r] - from; i < runs[r + 1] - from; i++) buf.writeUInt16LE(X_CODE, 2 * i);
      if (text.charCodeAt(runs[r + 1] - 1) === 0x20) blanks = true;
    }
    keepOverRuns(scanBuiltins(buf.toString('utf16le')), runs, leads, k, last, from, out);
    // A shell-escaped blank read as `xx` glues the words either side (review 12:
    // `x\ mysql -p'Pw\g…'` read `xxxmysql`, no command): such a window is read again with
    // those blanks kept, what stands after one starting a word.
    if (blanks) {
      for (let r = k; r < last; r += 2)
        if (text.charCodeAt(runs[r + 1] - 1) === 0x20)
          buf.writeUInt16LE(0x20, 2 * (runs[r + 1] - 1 - from));
      const found = scanBuiltins(buf.toString('utf16le'));
      keepOverRuns(found, runs, leads, k, last, from, out);
      // A value cut at one of those blanks is the value's own (review r13:
      // `x\ mysql -pPw\ Vq7…` masked `Pw\`): read once more with that blank, and those glued
      // after it in the same word, as `x` again, the command's blank kept.
      if (valueBlanks(text, found, runs, k, last, from, buf))
        keepOverRuns(scanBuiltins(buf.toString('utf16le')), runs, leads, k, last, from, out);
    }
    k = last;
  }
  return out;
}

/**
 * Of runs [k, last) with a blank, kept as one in `buf` (the window at `from`), the ones a span
 * of `found` ends at, and any glued after one in the same word (`Pw\ a\ Vq7…`): written back
 * as `x`. Whether any was.
 */
function valueBlanks(
  text: string,
  found: Span[],
  runs: Int32Array,
  k: number,
  last: number,
  from: number,
  buf: Buffer,
): boolean {
  if (found.length === 0) return false;
  const ends = new Set<number>();
  for (const s of found) ends.add(s.end + from);
  let any = false;
  let glued = -1;
  for (let r = k; r < last; r += 2) {
    const blank = runs[r + 1] - 1;
    if (text.charCodeAt(blank) !== 0x20) continue;
    if (ends.has(blank) || (glued >= 0 && wordBetween(text, glued, runs[r]))) {
      buf.writeUInt16LE(X_CODE, 2 * (blank - from));
      any = true;
      glued = runs[r + 1];
    } else glued = -1;
  }
  return any;
}

/** Whether [a, b) holds no blank: what follows a value's escaped blank up to the next run. */
function wordBetween(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return false;
  }
  return true;
}

/**
 * Whether [start, end) is nothing but runs from `r` each followed by one letter (`\t`,
 * `\t\n`): escapes, no value (review r12: `input("Password: \t")` was masked).
 */
function onlyEscapes(
  runs: Int32Array,
  r: number,
  last: number,
  start: number,
  end: number,
): boolean {
  let at = start;
  for (; r < last && at < end; r += 2) {
    if (runs[r] !== at) return false;
    at = runs[r + 1] + 1;
  }
  return at === end;
}

/**
 * Of `found` in a window at `from`, what covers one of runs [k, last): on `text`'s offsets.
 * A run that only may start a value (`leads`, ./values valueStart) is kept where a span starts
 * at it: a value the detectors read there (`password \/Vq7…`), not a word a span runs over;
 * an escaped quote inside a quoted value (`leads` INNER) where the span goes on either side.
 */
function keepOverRuns(
  found: Span[],
  runs: Int32Array,
  leads: Uint8Array,
  k: number,
  last: number,
  from: number,
  out: Span[],
): void {
  let r = k;
  for (const s of found) {
    const start = s.start + from;
    const end = s.end + from;
    while (r < last && runs[r + 1] <= start) r += 2;
    if (r < last && runs[r] < end && holds(runs, leads, r, last, start, end))
      out.push({ ...s, start, end });
  }
}

/**
 * Whether the span [start, end) reads the first of runs [r, last) it overlaps as its value's:
 * a plain run anywhere in it, a LEAD_RUN where it starts; not only escapes (onlyEscapes). Over
 * an INNER run (an escaped quote in a quoted token) the span starts and ends inside the token
 * or at its quotes: it starts at such a run only where a value may (INNER_START), ends at one
 * only before the closing quote (INNER_CLOSE).
 */
function holds(
  runs: Int32Array,
  leads: Uint8Array,
  r: number,
  last: number,
  start: number,
  end: number,
): boolean {
  if (onlyEscapes(runs, r, last, start, end)) return false;
  const first = leads[r >> 1];
  if ((first & INNER) === 0) return first !== LEAD_RUN || runs[r] === start;
  if (runs[r] === start && (first & INNER_START) === 0) return false;
  // Nothing but escaped quotes (`password='\"'`): no value.
  let at = start;
  let q = r;
  for (; q < last && runs[q] === at && at < end; q += 2) at = runs[q + 1];
  if (at >= end) return false;
  q = r;
  while (q + 2 < last && runs[q + 2] < end) q += 2;
  const lead = leads[q >> 1];
  return !((lead & INNER) !== 0 && runs[q + 1] === end && (lead & INNER_CLOSE) === 0);
}
