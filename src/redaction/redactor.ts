import { priorityOf, scanBuiltins, type Span } from './patterns';

export type { Span } from './patterns';

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
 * Sorted by start; overlapping spans become one whose kind is that of the member with the
 * highest priorityOf (a JWT inside `password=...` is a `jwt`), the earliest on a tie.
 * Touching spans stay apart. Reuses (and changes) the given span objects.
 */
export function mergeSpans(raw: Span[]): Span[] {
  if (raw.length <= 1) return raw;
  for (let i = 1; i < raw.length; i++) {
    if (raw[i].start < raw[i - 1].start) {
      raw.sort((a, b) => a.start - b.start || b.end - a.end);
      break;
    }
  }
  const out: Span[] = [];
  let cur = raw[0];
  let priority = priorityOf(cur.kind);
  for (let i = 1; i < raw.length; i++) {
    const s = raw[i];
    if (s.start < cur.end) {
      if (s.end > cur.end) cur.end = s.end;
      const p = priorityOf(s.kind);
      if (p > priority) {
        cur.kind = s.kind;
        priority = p;
      }
    } else {
      out.push(cur);
      cur = s;
      priority = priorityOf(s.kind);
    }
  }
  out.push(cur);
  return out;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Masks secrets in text: the built-in detectors of ./patterns plus REDACT_PATTERNS. Pure
 * apart from `onRedact`; safe to share.
 */
export class Redactor {
  readonly enabled: boolean;
  private readonly custom: CustomPattern[];

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

  /** The spans to mask in `text`, sorted and merged; [] when disabled. */
  findSpans(text: string): Span[] {
    if (!this.enabled || text.length === 0) return [];
    const raw = scanBuiltins(text);
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
    return mergeSpans(raw);
  }

  /** `text` with every secret replaced by `[REDACTED:<kind>]`; the same string if none. */
  redactText(text: string): string {
    if (!this.enabled) return text;
    return this.mask(text, this.findSpans(text));
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

  /** `text.slice(start, end)` with the given spans masked; counts each masked span. */
  mask(text: string, spans: readonly Span[], start = 0, end = text.length): string {
    if (end <= start) return '';
    const parts: string[] = [];
    let pos = start;
    for (const s of spans) {
      if (s.end <= start) continue;
      if (s.start >= end) break;
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
   * Deep: every string inside arrays and plain objects redacted, keys untouched, other
   * values as they are. Copy on write: an unchanged value comes back as the same object.
   */
  redactJson(value: unknown): unknown {
    if (!this.enabled) return value;
    return this.deep(value);
  }

  private deep(v: unknown): unknown {
    if (typeof v === 'string') return this.redactText(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const r = this.deep(v[i]);
        if (r !== v[i]) (out ??= v.slice())[i] = r;
      }
      return out ?? v;
    }
    if (!isPlainObject(v)) return v;
    let out: Record<string, unknown> | null = null;
    for (const key of Object.keys(v)) {
      const r = this.deep(v[key]);
      if (r !== v[key]) (out ??= { ...v })[key] = r;
    }
    return out ?? v;
  }
}
