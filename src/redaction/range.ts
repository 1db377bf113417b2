import type { Redactor } from './redactor';
import { runEnd, runStart } from './spanning';
import { echoSpans } from './echoes';
import { mergeSpans } from './spans';
import { NO_VALUES } from './tier-values';
import type { Span } from './patterns';

/**
 * Bytes read on each side of a requested range so that secrets reaching into it are seen
 * whole, with the context that identifies them (`password=`, a PEM header).
 */
export const RANGE_MARGIN = 16 * 1024;
/**
 * How far before the window a range looks for the start of a secret-shaped run (one word, or
 * base64 lines) that crosses into it. A run longer than that is masked where it overlaps the
 * range, as `unchecked`: its start, and so whether it is a secret, is out of reach.
 */
export const RANGE_LOOKBACK = 1024 * 1024;
/** Characters before a run that must be in view for its key or header to be seen. */
const CONTEXT = 1024;

/** Reads bytes [start, end) of the file (short at end of file). */
export type ReadBytes = (start: number, end: number) => Promise<Buffer>;

/**
 * The redacted text of bytes [offset, offset + length) of a file of `fileSize` bytes.
 * Offsets are raw byte coordinates of the file, as for an unredacted read.
 *
 * The slice is decoded on its own, exactly like `buf.subarray(a, b).toString('utf8')`
 * (characters cut by its edges become U+FFFD), so with redaction off or no secret in reach
 * the result is identical to the unredacted read. Secrets are looked for in a window
 * RANGE_MARGIN bytes wider on each side (its margins decoded separately, then joined) and
 * every one overlapping the slice is masked; the part of a secret cut by an edge becomes
 * `[REDACTED:<kind>]`. Adjacent ranges therefore each show their own marker for a secret
 * that spans them. When the word or the base64 lines at the start of the slice reach back to
 * the window's start, the window grows backwards (doubling, up to RANGE_LOOKBACK) until
 * their start and its context are in view, so a long secret never shows in pieces.
 */
export async function redactRange(
  redactor: Redactor,
  read: ReadBytes,
  fileSize: number,
  offset: number,
  length: number,
  margin = RANGE_MARGIN,
  echoes: ReadonlyMap<string, string> = NO_VALUES,
): Promise<string> {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError('offset must be >= 0');
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError('length must be >= 0');
  const start = Math.min(offset, fileSize);
  const end = Math.min(fileSize, offset + length);
  if (end <= start) return '';
  if (!redactor.enabled) return (await read(start, end)).toString('utf8');
  const winEnd = Math.min(fileSize, end + margin);
  let winStart = Math.max(0, start - margin);
  for (;;) {
    const win = await read(winStart, winEnd);
    const a = Math.min(start - winStart, win.length);
    const b = Math.min(end - winStart, win.length);
    const before = win.subarray(0, a).toString('utf8');
    const slice = win.subarray(a, b).toString('utf8');
    const text = before + slice + win.subarray(b).toString('utf8');
    const from = before.length;
    const to = from + slice.length;
    let found = spansOf(redactor, win, a, b, text);
    // Values of secrets found elsewhere in the file (./file-values), shown again here.
    const again = echoes.size > 0 ? echoSpans(text, echoes, found) : [];
    if (again.length > 0) found = mergeSpans([...found, ...again]);
    const runAt = winStart === 0 ? CONTEXT : runStart(text, from, 0);
    if (runAt >= CONTEXT) return redactor.mask(text, found, from, to);
    if (start - winStart >= margin + RANGE_LOOKBACK) {
      const spans = [...found, { start: 0, end: runEnd(text, from), kind: 'unchecked' }];
      return redactor.mask(text, mergeSpans(spans), from, to);
    }
    winStart = Math.max(0, start - margin - Math.min(RANGE_LOOKBACK, 2 * (start - winStart)));
  }
}

/** A UTF-8 continuation byte: an edge there cuts a character in two. */
const cutsCharacter = (win: Buffer, at: number) => at < win.length && (win[at] & 0xc0) === 0x80;

/**
 * The secrets of the window, in the coordinates of `text` (its three parts decoded apart). An
 * edge of the slice inside a multi-byte character decodes it as U+FFFD on both sides, which
 * breaks a key written in such characters (`пароль: …` cut inside `о`: review 11, H3): the
 * window is then also read decoded whole, and its secrets are moved to `text` by the
 * characters each cut adds or removes (the two decodings agree everywhere else).
 */
function spansOf(redactor: Redactor, win: Buffer, a: number, b: number, text: string): Span[] {
  const spans = redactor.findSpans(text);
  const edges = [a, b].filter((e) => cutsCharacter(win, e));
  if (edges.length === 0) return spans;
  const whole = win.toString('utf8');
  const cuts = charactersCut(win, edges);
  const position = (char: number) => {
    let p = char;
    for (const c of cuts) if (char > c.at) p += c.delta;
    return p;
  };
  const mapped = redactor
    .findSpans(whole)
    .map((s) => ({ start: position(s.start), end: position(s.end), kind: s.kind }));
  return mapped.length === 0 ? spans : mergeSpans([...spans, ...mapped]);
}

/**
 * Each character the edges cut: its index in the window decoded whole, and how many more
 * characters the window decoded in parts shows for it (its pieces each become U+FFFD).
 */
function charactersCut(win: Buffer, edges: number[]): { at: number; delta: number }[] {
  const cuts: { at: number; delta: number }[] = [];
  for (let i = 0; i < edges.length; i++) {
    let lead = edges[i];
    while (lead > 0 && cutsCharacter(win, lead)) lead--;
    let end = edges[i];
    while (cutsCharacter(win, end)) end++;
    // Both edges inside one character (a slice of its middle bytes): one cut, three pieces.
    const inside = edges.filter((e) => e > lead && e < end);
    i += inside.length - 1;
    const bounds = [lead, ...inside, end];
    let shown = 0;
    for (let k = 1; k < bounds.length; k++) {
      shown += win.subarray(bounds[k - 1], bounds[k]).toString('utf8').length;
    }
    const at = win.subarray(0, lead).toString('utf8').length;
    cuts.push({ at, delta: shown - win.subarray(lead, end).toString('utf8').length });
  }
  return cuts;
}
