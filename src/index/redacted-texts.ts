import { Redactor } from '../redaction/redactor';
import { learnFound, learnSpans, tierValues, type TierSource } from '../redaction/tier-values';
import { MaskWindows, WINDOW_STEP, WINDOWED_FROM } from '../redaction/windows';
import { cutEnd } from './session-files';
import { userRequestOf, type SummaryState } from '../brain/session-summary';
import type { ToolCall } from '../brain/types';

/**
 * How a download masks a file's bytes after its text (src/http/masked-body.ts), so the index
 * counts every mask it adds: `binary` bytes are read again as UTF-8 with stray bytes and as
 * UTF-16 (a PNG's UTF-16 text chunk), UTF-8 (`utf8`) and other text (`other`) as UTF-16
 * (`Get-Content .env` in a PowerShell log); a UTF-16 file is decoded whole (`decoded`).
 */
export type ByteReading = 'binary' | 'utf8' | 'other' | 'decoded';

/** Masked spans counted by kind. */
export type Findings = Map<string, number>;

export interface IndexedText {
  /** What is stored and searched: the redacted text with REDACT=on, else the text itself. */
  text: string;
  findings: Findings;
}

/**
 * Turns raw texts into what the index stores, and counts what the redactor masks in them.
 * Findings come from a redactor that is always on (with REDACT_PATTERNS), so the secrets
 * report is the same whatever REDACT says; only the stored text depends on it.
 */
/** Masked names remembered (tool names, types): a bound, cleared when reached. */
const MAX_NAMES = 10_000;

export class TextRedaction {
  private tally: Findings | null = null;
  private readonly finder: Redactor;
  private readonly names = new Map<string, string>();
  /**
   * The session being indexed: the values of the secrets found in its texts are added here
   * (./session-values), with REDACT=on only (REDACT=off stores every text clear).
   */
  private values: Map<string, string> | null = null;

  constructor(
    private readonly storeRedacted: boolean,
    extraPatterns: string[],
  ) {
    this.finder = new Redactor({ enabled: true, extraPatterns }, (kind) => {
      if (this.tally) this.tally.set(kind, (this.tally.get(kind) ?? 0) + 1);
    });
  }

  /** Whether stored texts are masked (REDACT=on): only then are a session's values learned. */
  get storesRedacted(): boolean {
    return this.storeRedacted;
  }

  /** Learns the secrets' values of the texts to come into `values` (null: learns none). */
  learnInto(values: Map<string, string> | null): void {
    this.values = this.storeRedacted ? values : null;
  }

  /** Adds to `values` the secrets' values of a transcript tier (learned once per process). */
  async learnTier(src: TierSource, values: Map<string, string>): Promise<void> {
    for (const [v, k] of await tierValues(this.finder, src)) if (!values.has(v)) values.set(v, k);
  }

  /** Adds to `values` the secrets' values of a file's text (a file not indexed again). */
  learnFile(raw: string, values: Map<string, string>): void {
    learnSpans(raw, this.finder.findSpans(raw), values);
  }

  /**
   * `marked`: the text comes from a pushed session (an ingested root), where a
   * `[REDACTED:kind]` marker already in the text is a finding of that kind: `brainql push
   * --redact` masked it on the client, and the secret never reached the server. A mounted
   * root's markers are not findings (its agent may have written the words themselves).
   */
  text(raw: string, marked = false): IndexedText {
    const findings: Findings = new Map();
    this.tally = findings;
    try {
      const masked = this.values ? this.learning(raw, this.values) : this.finder.redactText(raw);
      if (marked) addMarkers(findings, raw);
      return { text: this.storeRedacted ? masked : raw, findings };
    } finally {
      this.tally = null;
    }
  }

  /**
   * `raw` masked as redactText masks it, by its own steps, so the values of the secrets it finds
   * are added to `values` at no second scan.
   */
  private learning(raw: string, values: Map<string, string>): string {
    if (raw.length <= WINDOWED_FROM) {
      const spans = this.finder.findSpans(raw);
      learnSpans(raw, spans, values);
      return this.finder.mask(raw, spans);
    }
    const windows = new MaskWindows(this.finder, WINDOW_STEP);
    const parts: string[] = [];
    windows.write(raw, true, (part) => parts.push(part));
    learnFound(windows.learned, values);
    return windows.masked ? parts.join('') : raw;
  }

  /**
   * The USER_REQUEST text of a USER_INPUT's `content`, null when it has none: with REDACT=on
   * cut from the content masked whole (review 18, H6: a value the content's running commands
   * show after `-p` was masked there and stored clear in the request, which repeats it without a
   * key; a search for the value found it). Findings are the masks that fall in the request (the
   * content's own doc counts the rest: recordTexts' onlyOnce); `marked` as in `text`.
   */
  requestText(content: string, marked = false): IndexedText | null {
    const raw = userRequestOf(content);
    if (raw === null) return null;
    const masked = userRequestOf(this.finder.redactText(content)) ?? raw;
    const findings: Findings = new Map();
    const before = marked ? new Map<string, number>() : markerCounts(raw);
    for (const [kind, n] of markerCounts(masked)) {
      const added = n - (before.get(kind) ?? 0);
      if (added > 0) findings.set(kind, added);
    }
    return { text: this.storeRedacted ? masked : raw, findings };
  }

  /**
   * The summary's request of a USER_INPUT's `content` (SummaryState.userRequest): with
   * REDACT=on cut from the content masked whole, as `requestText` and the store do.
   */
  request(content: string): string | null {
    return userRequestOf(this.storeRedacted ? this.finder.redactText(content) : content);
  }

  /**
   * The text of a file (a step output, an artifact), masked as the download route masks it:
   * also through JSON string escapes (`\u0067hp_...`). Findings are the markers the masking
   * added. `cut`: the text holds context past the index's cap, cut off after masking.
   */
  fileText(
    raw: string,
    cut: boolean,
    marked = false,
    reading: ByteReading = 'decoded',
  ): IndexedText {
    // Cut in the raw text, masked as the download masks all of it (context past the cut seen).
    const spans = this.finder.findSpans(raw);
    // A file's secrets echo elsewhere in its session too (and in its own context past the cut).
    if (this.values) learnSpans(raw, spans, this.values);
    const end = cut ? cutEnd(raw, spans) : raw.length;
    const plain = raw.slice(0, end);
    const masked = this.finder.mask(raw, spans, 0, end);
    // Markers the file itself holds are not findings, only those the masking added; except in
    // a pushed session (`marked`, see `text`), where every marker is one.
    const findings: Findings = new Map();
    const before = marked ? new Map<string, number>() : markerCounts(plain);
    for (const [kind, n] of markerCounts(masked)) {
      const added = n - (before.get(kind) ?? 0);
      if (added > 0) findings.set(kind, added);
    }
    if (reading !== 'decoded') this.countByteMasks(findings, masked, reading);
    return { text: this.storeRedacted ? masked : plain, findings };
  }

  /**
   * Adds to `findings` what the download's byte passes mask in the masked text's bytes (their
   * same-length masks hold no whole marker to count): counted as they mask.
   */
  private countByteMasks(findings: Findings, masked: string, reading: ByteReading): void {
    const bytes = Buffer.from(masked, reading === 'binary' ? 'latin1' : 'utf8');
    this.tally = findings;
    try {
      if (reading === 'binary') this.finder.maskUtf8(bytes);
      this.finder.maskUtf16(bytes);
    } finally {
      this.tally = null;
    }
  }

  /**
   * A name as stored (an artifact's, a tool's, a step type or status): masked with REDACT=on,
   * since a name may hold a secret too. Names repeat on every record: each is masked once.
   */
  name(raw: string): string {
    if (!this.storeRedacted) return raw;
    let masked = this.names.get(raw);
    if (masked === undefined) {
      if (this.names.size >= MAX_NAMES) this.names.clear();
      masked = this.finder.redactText(raw);
      this.names.set(raw, masked);
    }
    return masked;
  }

  /**
   * What the index keeps of a summary: with REDACT=on its texts redacted, so the file holds no
   * secret (the API redacts them anyway, and redacting twice changes nothing).
   */
  summary(state: SummaryState): SummaryState {
    if (!this.storeRedacted) return state;
    return summaryTexts(state, (t) => this.finder.redactText(t));
  }

  /**
   * What a record's `error` and its other values (StepRecord.extra) hold: the API serves the
   * error masked, a raw line or download the rest, so each mask there is counted (review 9:
   * a URL password and a token in an ERROR_MESSAGE's `error` were served masked, never
   * counted). Nothing here is searched, only the findings are kept.
   */
  otherValues(
    error: string | null,
    extra: Record<string, unknown> | undefined,
    marked = false,
  ): Findings {
    const findings: Findings = new Map();
    this.tally = findings;
    try {
      if (error !== null) this.finder.redactText(error);
      if (extra !== undefined) this.finder.redactJson(extra);
      if (marked) {
        const raw: string[] = error === null ? [] : [error];
        if (extra !== undefined) collectStrings(extra, raw);
        for (const t of raw) addMarkers(findings, t);
      }
      return findings;
    } finally {
      this.tally = null;
    }
  }

  /**
   * The contract's TOOL_CALLS text: per call its name and every string inside its args
   * (recursively; keys, numbers and booleans left out), all joined by newlines. Args are
   * redacted as JSON, as the API serves them: a value under a secret-named key is masked whole.
   */
  toolCalls(calls: readonly ToolCall[], marked = false): IndexedText {
    const findings: Findings = new Map();
    this.tally = findings;
    try {
      const parts: string[] = [];
      for (const call of calls) {
        const name = this.finder.redactText(call.name);
        const found = this.values ? new Map<string, string>() : undefined;
        const args = this.finder.redactJson(call.args, found);
        if (found && this.values) learnFound(found, this.values);
        parts.push(this.storeRedacted ? name : call.name);
        collectStrings(this.storeRedacted ? args : call.args, parts);
        if (marked) {
          const raw: string[] = [call.name];
          collectStrings(call.args, raw);
          for (const t of raw) addMarkers(findings, t);
        }
      }
      return { text: parts.join('\n'), findings };
    } finally {
      this.tally = null;
    }
  }
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) collectStrings(v, out);
  }
}

const MARKER = /\[REDACTED:([a-z0-9-]+)\]/g;

function markerCounts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(MARKER)) out.set(m[1], (out.get(m[1]) ?? 0) + 1);
  return out;
}

/** Adds the `[REDACTED:kind]` markers of `text` to `findings`. */
function addMarkers(findings: Findings, text: string): void {
  for (const [kind, n] of markerCounts(text)) findings.set(kind, (findings.get(kind) ?? 0) + n);
}

/**
 * `state` with `f` applied to each of its texts (request, model, local time, workspace root,
 * mentioned files): what the index masks before it stores a summary. A mention masked in one
 * batch and met raw in a later one is still one mention.
 */
export function summaryTexts(state: SummaryState, f: (text: string) => string): SummaryState {
  const mask = (t: string | null) => (t === null ? null : f(t));
  return {
    ...state,
    userRequest: mask(state.userRequest),
    model: mask(state.model),
    localTime: mask(state.localTime),
    workspaceRoot: mask(state.workspaceRoot),
    mentionedFiles: [...new Set(state.mentionedFiles.map(f))],
  };
}
