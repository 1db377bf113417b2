import type { Redactor } from './redactor';
import { continuationEnd } from './spanning';
import { echoSpans, learnValues, MAX_VALUES } from './echoes';
import { mergeSpans } from './spans';
import { valueSpans } from './value-spans';
import type { Span } from './patterns';

/** Text kept on each side of the part being emitted, so secrets across windows are seen. */
export const STREAM_CONTEXT = 16 * 1024;
/** Most text a download's stream emits per step; with the context a step reads at most 80 KiB. */
export const STREAM_STEP = 48 * 1024;

/**
 * How far past its cut a step's findings are kept for the next step, which reads that text
 * from a later start. Two readings of a chain meet at the cut only: past it the next step's
 * reading holds on its own, so a short stretch closes the gap without masking a long stretch
 * twice. Each kept finding had at least 15 KiB of lookahead after it.
 */
const SEAM = 1024;

/**
 * Where to end the part emitted this step: after the last newline before `limit` that is not
 * inside a secret (secrets then reach the client whole, with one marker each); failing that
 * `limit` itself, or the start of the secret that crosses it. A secret longer than a step is
 * cut: both parts are masked.
 */
function chooseCut(
  text: string,
  from: number,
  limit: number,
  spans: readonly { start: number; end: number }[],
): number {
  const inside = (c: number) => spans.find((s) => s.start < c && c < s.end);
  let nl = text.lastIndexOf('\n', limit - 1);
  while (nl >= from) {
    const s = inside(nl + 1);
    if (!s) return nl + 1;
    nl = text.lastIndexOf('\n', s.start - 1);
  }
  const s = inside(limit);
  let cut = s && s.start > from ? s.start : limit;
  // Never split a surrogate pair.
  const c = text.charCodeAt(cut - 1);
  if (cut > from + 1 && c >= 0xd800 && c <= 0xdbff) cut--;
  return cut;
}

/**
 * A text masked window by window: each step masks up to `step` characters, ending at a newline
 * when it can, read with STREAM_CONTEXT characters of lookahead and the last STREAM_CONTEXT
 * characters already emitted as lookbehind. So a secret across a cut is still seen whole, and
 * the detectors' working memory (spans, match arrays, parts: 20 to 30 times the text for
 * keyword-dense text) is one window's, whatever the text's size. A secret cut by a step whose
 * start then drops out of the lookbehind (longer than STREAM_CONTEXT) is carried over: the next
 * step masks its continuation (./spanning), so a long secret never shows in pieces; a secret
 * cut by a step shows one marker, in the part where it starts.
 */
export class MaskWindows {
  private behind = ''; // raw text already emitted (context)
  private pending = ''; // raw text not yet emitted
  private carried: string | null = null; // kind of the secret the last cut fell inside
  private seen: Span[] = []; // spans the last step found just past its cut (next step's offsets)
  /**
   * The secrets' values found so far (value → kind; at most MAX_VALUES, ./echoes): masked
   * again wherever a later window shows them (review r18 H2: in a file streamed past 8 MiB, a
   * password echoed 60 KB after `mysql -p…` was clear, masked on every other route).
   */
  private readonly values = new Map<string, string>();
  /** Whether any step masked something. */
  masked = false;

  /** The values learned so far (./file-values). */
  get learned(): ReadonlyMap<string, string> {
    return this.values;
  }

  /** Whether as many values are learned as are kept (later ones are never echoed). */
  get full(): boolean {
    return this.values.size >= MAX_VALUES;
  }
  /** How much of the text written so far has been emitted (its raw length). */
  private emitted = 0;

  constructor(
    private readonly redactor: Redactor,
    private readonly step = STREAM_STEP,
    /** Values found elsewhere (a session's: ./tier-values), masked wherever they show. */
    private readonly known: ReadonlyMap<string, string> = new Map(),
  ) {}

  /**
   * Adds `text`; emits the masked parts it completes (the rest too when `final`), each with
   * whether it differs from the raw text it stands for and where that raw text ends.
   */
  write(
    text: string,
    final: boolean,
    emit: (part: string, changed: boolean, rawEnd: number) => void,
  ): void {
    this.pending += text;
    const size = this.step + STREAM_CONTEXT;
    while (this.pending.length >= size || (final && this.pending.length > 0)) {
      const ahead = this.pending.slice(0, size);
      const text = this.behind + ahead;
      const from = this.behind.length;
      const last = final && this.pending.length <= size;
      const limit = last ? text.length : from + this.step;
      let spans = this.redactor.findSpans(text);
      // The secret the last cut fell inside was shown as its marker: its rest shows nothing
      // and is not counted again (review r12: `pwd=ab` repeated over 1 MB, one value, was 22
      // markers here and 1 in the decoded record).
      const continued = this.carried !== null;
      if (this.carried !== null && !spans.some((s) => s.start < from && s.end > from)) {
        const end = continuationEnd(text, from, this.carried);
        if (end > from) spans = mergeSpans([...spans, { start: from, end, kind: this.carried }]);
      }
      // What the last step found just past its cut, it read with more text before: a chain
      // whose reading depends on where it starts (`password: \\t` repeated, each value the next
      // key) reads shifted from this step's start, which left one value clear at the seam
      // (review r13 M3). Both readings are masked there.
      if (this.seen.length > 0) spans = mergeSpans([...spans, ...this.seen]);
      if (this.values.size > 0) {
        const echoes = echoSpans(text, this.values, spans);
        if (echoes.length > 0) spans = mergeSpans([...spans, ...echoes]);
      }
      learnValues(text, spans, this.values);
      // After learning: a known value is masked wherever it shows, as in memory.
      if (this.known.size > 0) {
        const shown = valueSpans(text, this.known);
        if (shown.length > 0) spans = mergeSpans([...spans, ...shown]);
      }
      const cut = last ? limit : chooseCut(text, from, limit, spans);
      this.carried = spans.find((s) => s.start < cut && s.end > cut)?.kind ?? null;
      const next = Math.min(cut, STREAM_CONTEXT);
      this.seen = [];
      for (const s of spans) {
        if (s.start >= cut && s.start < cut + SEAM && s.end <= text.length - SEAM)
          this.seen.push({ start: s.start - cut + next, end: s.end - cut + next, kind: s.kind });
      }
      const changed = spans.some((s) => s.end > from && s.start < cut);
      if (changed) this.masked = true;
      this.emitted += cut - from;
      emit(this.redactor.mask(text, spans, from, cut, continued), changed, this.emitted);
      this.behind = text.slice(Math.max(0, cut - STREAM_CONTEXT), cut);
      this.pending = this.pending.slice(cut - from);
    }
  }
}

/**
 * Texts longer than this are masked in windows of WINDOW_STEP (Redactor.redactText): one 32 MB
 * step of `password: x1` lines took a redaction worker to 1.1 GB of RSS masked whole, and a
 * 32 MB step of five common secret shapes added 400 MiB to the server's peak for one answer
 * (135 MiB for the same size of plain text).
 */
export const WINDOWED_FROM = 2 * 1024 * 1024;
/** A window's step: the context read twice per step costs about 3 % more scanning. */
export const WINDOW_STEP = 1024 * 1024;

/** `text` masked window by window (see MaskWindows); `text` itself when nothing was masked. */
export function maskInWindows(redactor: Redactor, text: string): string {
  const windows = new MaskWindows(redactor, WINDOW_STEP);
  const parts: string[] = [];
  windows.write(text, true, (part) => parts.push(part));
  return windows.masked ? parts.join('') : text;
}
