import { LRUCache } from 'lru-cache';
import { inString, jsonDecoded, learnValues } from './echoes';
import type { Span } from './patterns';
import type { ReadBytes } from './range';
import type { Redactor } from './redactor';
import { valueSpans } from './value-spans';
import { MaskWindows, WINDOW_STEP, WINDOWED_FROM } from './windows';

/**
 * The values of the secrets a session's full transcript holds, for masking its compact tier.
 * The compact tier cuts a long value to a head and a tail (`<truncated N bytes>` between them):
 * a secret found by its key in the cut-out middle (`export DB_PASSWORD=V`) and echoed in the
 * kept tail (`echo: V`) showed clear on every compact route while the full value masked it
 * (review 20 H1), and a tail that keeps a value whose name was cut away (`"value":"V"}` after a
 * cut `"name":"API_TOKEN",`) had nothing left to find it by (H2). So every compact value of a
 * compact record that was cut masks, wherever it shows them, the values the redactor finds
 * in the session's full tier (a record not cut shows what the full tier shows, masked alike).
 */

/** A full tier to learn from: its bytes, their count, and what names this version of them. */
export interface TierSource {
  /** The session's full tier (its folder and view): one cache entry per key. */
  key: string;
  /** The files' identities (device and inode): another identity is another file, learned afresh. */
  identity: string;
  size: number;
  read: ReadBytes;
}

/**
 * Values kept per session or twin, each form of a value counted (./addForms): a session's
 * secrets, not a dump's (those are masked where found).
 */
export const MAX_TIER_VALUES = 1024;
/** Sessions kept (LRU); each entry holds its values and at most CONTEXT + SEAM characters. */
const KEPT = 256;
/** Bytes read per step, yielding to other requests between steps (the detectors' working memory
 * on keyword-dense text is 20 to 30 times a step: 1 MiB steps added 150 MiB to large-values' peak). */
const CHUNK = 256 * 1024;
/** Text read again before each step, so a secret across a step's edge is seen whole. */
const CONTEXT = 16 * 1024;
/** A secret ending this close to a step's end may go on past it: it is learned next step. */
const SEAM = 1024;

interface Learned {
  identity: string;
  /** Bytes of the tier read so far. */
  offset: number;
  /** The last CONTEXT characters learned from, and what follows them not yet learned from. */
  carry: string;
  values: Map<string, string>;
  /** The learning in progress: one at a time per session. */
  busy: Promise<void>;
  /** The last bytes learned from: read again before going on, to see a file rewritten in place. */
  seen: Buffer;
}

/** Bytes before `offset` compared before learning what was appended. */
const SEEN_BYTES = 64;

/** Forgets what `state` learned: its file was rewritten in place (same inode, other bytes). */
function restart(state: Learned): void {
  state.offset = 0;
  state.carry = '';
  state.values.clear();
  state.seen = Buffer.alloc(0);
}

const kept = new LRUCache<string, Learned>({ max: KEPT });

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Adds to `values` what the redactor finds in `text` (a full twin's value): whole, or window by
 * window past WINDOWED_FROM (the detectors' working memory is 20 to 30 times what they read).
 */
export function learnText(redactor: Redactor, text: string, values: Map<string, string>): void {
  const before = values.size;
  if (text.length <= WINDOWED_FROM) {
    learnValues(text, redactor.findSpans(text), values, MAX_TIER_VALUES);
  } else {
    const windows = new MaskWindows(redactor, WINDOW_STEP);
    windows.write(text, true, () => undefined);
    for (const [value, kind] of windows.learned) {
      if (values.size >= MAX_TIER_VALUES) break;
      if (!values.has(value)) values.set(value, kind);
    }
  }
  if (values.size > before) addForms(values, before);
}

/**
 * Adds to `values` the values of `spans` the redactor found in `text`, with their other forms
 * (as learnText, for a caller that has the spans already: the home index masks with them).
 */
export function learnSpans(
  text: string,
  spans: readonly Span[],
  values: Map<string, string>,
): void {
  const before = values.size;
  learnValues(text, spans, values, MAX_TIER_VALUES);
  if (values.size > before) addForms(values, before);
}

/** Adds to `values` the values in `found` (value → kind) with their other forms (bounded). */
export function learnFound(
  found: Iterable<readonly [string, string]>,
  values: Map<string, string>,
): void {
  const before = values.size;
  for (const [value, kind] of found) {
    if (values.size >= MAX_TIER_VALUES) break;
    if (!values.has(value)) values.set(value, kind);
  }
  if (values.size > before) addForms(values, before);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Go's JSON encoder (Antigravity's) writes these as `\u00XX` inside a string. */
const GO_ESCAPED = /[&<>\u2028\u2029]/g;
const goEscape = (s: string) =>
  s.replace(GO_ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/**
 * Encoders that write ASCII only (Python's `json.dumps`, Jackson's ESCAPE_NON_ASCII) write every
 * other UTF-16 unit as `\u00e4` (Python lower-case, Jackson upper-case hex).
 */
const NON_ASCII = /[\u0080-\uffff]/g;
const asciiEscape = (s: string, upper: boolean) =>
  s.replace(NON_ASCII, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });

/**
 * The forms a value shows in besides the one it was learned in: a value learned from a JSON
 * line with an escape in it (`p\\"w`) is shown decoded by the GraphQL and REST fields (`p\"w`),
 * and a compact argument is JSON inside JSON written by Go's encoder, so `V&<>` shows as
 * `V\u0026\u003c\u003e` in the argument and `V\\u0026…` in its line (review 21 H1: such an echo
 * was clear on every compact route); a value with other than ASCII shows escaped by an encoder
 * that writes ASCII only (a tool's own JSON inside an argument); URL-encoded and HTML-escaped.
 * Each form is kept with the value's kind.
 */
function addForms(values: Map<string, string>, from: number): void {
  const added = [...values].slice(from);
  for (const [value, kind] of added) {
    // An escape cut by the value's edge decodes to nothing: the raw form alone.
    const text = value.includes('\\') ? (jsonDecoded(value) ?? value) : value;
    const once = inString(text);
    const go = goEscape(once);
    // Its URL and HTML forms, as another record may show it (review 25 M2: `Ec0%26d%3C…` in a
    // request log after `DB_PASSWORD='Ec0&d<…'`, `Ec2&amp;d&lt;…` in a page).
    const url = encodeURIComponent(text);
    const strict = url.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const html = text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
    // Review 26 M2/M3: a form's `+` for a blank, HTML's decimal references (`&#34;`, `&#60;`),
    // and an HTML form inside a JSON line (its backslashes escaped).
    const plus = url.replace(/%20/g, '+');
    const decimal = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const forms = [text, once, go, inString(once), inString(go), url, strict, plus, html];
    forms.push(inString(html), decimal, inString(decimal));
    if (/[\u0080-\uffff]/.test(text)) {
      const lower = asciiEscape(once, false);
      const upper = asciiEscape(once, true);
      forms.push(lower, inString(lower), upper, inString(upper));
    }
    for (const form of forms) {
      if (values.size >= MAX_TIER_VALUES) return;
      if (form.length > 0 && !values.has(form)) values.set(form, kind);
    }
  }
}

/** What one step of a tier teaches: the values found in it, and the text the next step starts with. */
export interface StepLearned {
  /** value → kind, in the order found (at most MAX_TIER_VALUES; no other forms yet). */
  found: [string, string][];
  carry: string;
}

/**
 * learnStep in-thread, or in a worker (../offload: a step of keyword-dense text held the event
 * loop for seconds, and learning a 32 MB step here left the main thread's heap 60-100 MiB
 * larger, which stayed in the process's RSS under the large answers that came next).
 */
export type LearnStep = (
  bytes: Buffer,
  carry: string,
  last: boolean,
) => StepLearned | Promise<StepLearned>;

/**
 * The values the redactor finds in one step of a tier: `bytes` (whole UTF-8 characters) after
 * `carry` (the text the last step passed on). A secret ending within SEAM of the end of a step
 * that is not the `last` may go on past it: it is learned from the next step, which starts with
 * the last CONTEXT characters before that point.
 */
export function learnStep(
  redactor: Redactor,
  bytes: Buffer,
  carry: string,
  last: boolean,
): StepLearned {
  const text = carry + bytes.toString('utf8');
  const upTo = last ? text.length : Math.max(0, text.length - SEAM);
  const spans = redactor.findSpans(text).filter((s) => s.end <= upTo);
  const found = new Map<string, string>();
  learnValues(text, spans, found, MAX_TIER_VALUES);
  // A copy, not a slice: a slice keeps the whole step's text alive while the session is kept.
  const next = JSON.parse(JSON.stringify(text.slice(Math.max(0, upTo - CONTEXT)))) as string;
  return { found: [...found], carry: next };
}

/** The length of `bytes` without a UTF-8 character cut at its end (read whole next step). */
function wholeChars(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    const need = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need <= bytes.length ? bytes.length : i;
  }
  return bytes.length; // not UTF-8 there: decoded as it is (U+FFFD), as a decoder would
}

async function catchUp(
  redactor: Redactor,
  state: Learned,
  src: TierSource,
  learn: LearnStep = (bytes, carry, last) => learnStep(redactor, bytes, carry, last),
): Promise<void> {
  if (state.seen.length > 0 && state.offset <= src.size) {
    const again = await src.read(state.offset - state.seen.length, state.offset);
    if (!again.equals(state.seen)) restart(state);
  }
  while (state.offset < src.size) {
    let bytes = await src.read(state.offset, Math.min(src.size, state.offset + CHUNK));
    if (bytes.length === 0) break;
    const last = state.offset + bytes.length >= src.size;
    // The last line may be unfinished (being written), its value cut short: it is read again
    // from its start once more is written. A newline never falls inside a UTF-8 character.
    bytes = bytes.subarray(0, last ? bytes.lastIndexOf(0x0a) + 1 : wholeChars(bytes));
    if (bytes.length === 0 && !last) break; // a short read inside a character: the next ask
    state.offset += bytes.length;
    if (bytes.length > 0)
      state.seen = Buffer.from(bytes.subarray(Math.max(0, bytes.length - SEEN_BYTES)));
    const step = await learn(bytes, state.carry, last);
    learnFound(step.found, state.values);
    state.carry = step.carry;
    if (last) break;
    await nextTurn();
  }
}

function fresh(identity: string): Learned {
  return {
    identity,
    offset: 0,
    carry: '',
    values: new Map(),
    busy: Promise.resolve(),
    seen: Buffer.alloc(0),
  };
}

/**
 * The values the redactor finds in one complete line of `src`, bytes [start, end) with its
 * newline: a twin over the line cap, learned in steps as a tier is (not kept here). Its own
 * values, not the session's: past the session's MAX_TIER_VALUES entries an echo in its cut
 * record was clear (review 22 F2).
 */
export async function lineValues(
  redactor: Redactor,
  src: TierSource,
  start: number,
  end: number,
): Promise<ReadonlyMap<string, string>> {
  const state = fresh(src.identity);
  const line: TierSource = {
    ...src,
    size: end - start,
    read: (from, to) => src.read(start + from, start + to),
  };
  await catchUp(redactor, state, line);
  return state.values;
}

/**
 * The values the redactor finds in the whole of `src`, a file that is no JSONL (a step's
 * output): its last line is learned too, newline or not. Not kept here (see
 * ../steps/output-values). `learn`: in a worker, as a tier's steps.
 */
export async function fileValues(
  redactor: Redactor,
  src: TierSource,
  learn?: LearnStep,
  /** Told the bytes of each step learned (a caller's progress, for its Retry-After). */
  learnedStep: (bytes: number) => void = () => undefined,
): Promise<ReadonlyMap<string, string>> {
  const state = fresh(src.identity);
  const step: LearnStep =
    learn ?? ((bytes, carry, last) => learnStep(redactor, bytes, carry, last));
  // Its length before a worker takes the buffer (posted, it reads 0 here).
  const counted: LearnStep = (bytes, carry, last) => {
    const n = bytes.length;
    return Promise.resolve(step(bytes, carry, last)).then((r) => (learnedStep(n), r));
  };
  const NEWLINE = Buffer.from('\n');
  // One newline past its end, so catchUp's last step keeps its last line.
  const whole: TierSource = {
    ...src,
    size: src.size + 1,
    read: async (from, to) => {
      const bytes =
        from < src.size ? await src.read(from, Math.min(to, src.size)) : Buffer.alloc(0);
      return to > src.size && bytes.length === Math.min(to, src.size) - Math.min(from, src.size)
        ? Buffer.concat([bytes, NEWLINE])
        : bytes;
    },
  };
  await catchUp(redactor, state, whole, counted);
  return state.values;
}

/**
 * The values (value → kind) the redactor finds in `src`, learned once per session and then
 * only from the bytes appended since (a transcript grows by appending; another identity or a
 * smaller size starts over). Memory: the values and one step's text.
 */
export async function tierValues(
  redactor: Redactor,
  src: TierSource,
  learn?: LearnStep,
): Promise<ReadonlyMap<string, string>> {
  let state = kept.get(src.key);
  if (state && (state.identity !== src.identity || state.offset > src.size)) state = undefined;
  state ??= fresh(src.identity);
  kept.set(src.key, state);
  const learning = state;
  if (learning.offset < src.size) {
    learning.busy = learning.busy.then(() => catchUp(redactor, learning, src, learn));
    // A failed read starts the session over at its next request.
    learning.busy.catch(() => kept.get(src.key) === learning && kept.delete(src.key));
  }
  await learning.busy;
  return learning.values;
}

/** Bytes of `src` learned so far (0 for a file not learned, or another one under its key). */
export function learnedBytes(src: TierSource): number {
  const state = kept.get(src.key);
  return state && state.identity === src.identity ? Math.min(state.offset, src.size) : 0;
}

/** `text` with every whole-word showing of `values` masked (the text itself when none shows). */
export function maskValues(
  redactor: Redactor,
  text: string,
  values: ReadonlyMap<string, string>,
): string {
  if (values.size === 0) return text;
  const spans = valueSpans(text, values);
  return spans.length === 0 ? text : redactor.mask(text, spans);
}

export const NO_VALUES: ReadonlyMap<string, string> = new Map();

/** The values of every map, in order (one map as it is). */
export function unionValues(
  maps: readonly ReadonlyMap<string, string>[],
): ReadonlyMap<string, string> {
  const some = maps.filter((m) => m.size > 0);
  if (some.length <= 1) return some[0] ?? NO_VALUES;
  return new Map(some.flatMap((m) => [...m]));
}

/** The full tier's values with redaction on and a full tier of its own; else none. */
export function fullTierValues(
  redactor: Redactor,
  src: TierSource | null,
): Promise<ReadonlyMap<string, string>> {
  return redactor.enabled && src ? tierValues(redactor, src) : Promise.resolve(NO_VALUES);
}

/** `value` with maskValues applied to every string inside it (copy on write). */
export function maskValuesDeep<T>(
  redactor: Redactor,
  value: T,
  values: ReadonlyMap<string, string>,
): T {
  if (typeof value === 'string') return maskValues(redactor, value, values) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v: unknown, i) => {
      const m = maskValuesDeep(redactor, v, values);
      if (m !== v) (out ??= value.slice())[i] = m;
    });
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    let out: Record<string, unknown> | null = null;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const m = maskValuesDeep(redactor, v, values);
      if (m !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = m;
    }
    return (out ?? value) as T;
  }
  return value;
}
