import type { Span } from './detector';
import { escapedAt } from './backslashes';

// eslint-disable-next-line no-control-regex -- the characters JSON wants escaped
const CONTROL = /[\x00-\x1f]/g;
const escapeControl = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A JSON string literal decoded, with the way back from its decoded characters to the raw
 * text: masks found in the decoded value land on the raw bytes that spell it (whole escape
 * sequences), so a file keeps its form (and stays valid JSON) while losing the secret.
 */
export class Literal {
  /** After each escape: the decoded offset and the raw offset where plain text resumes. */
  private dec: number[] | null = null;
  private raw: number[] | null = null;

  private constructor(
    private readonly text: string,
    /** Raw offset of the first character inside the quotes. */
    private readonly from: number,
    private readonly to: number,
    readonly value: string,
  ) {}

  /** The literal text[start, end) (quotes included) decoded; null when it is not valid JSON. */
  static decode(text: string, start: number, end: number, escaped: boolean): Literal | null {
    if (!escaped) return new Literal(text, start + 1, end - 1, text.slice(start + 1, end - 1));
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end));
    } catch {
      // A raw tab or other control character (a script, not JSON) decodes as itself.
      try {
        value = JSON.parse(text.slice(start, end).replace(CONTROL, escapeControl));
      } catch {
        return null;
      }
    }
    return typeof value === 'string' ? new Literal(text, start + 1, end - 1, value) : null;
  }

  /** Pushes `spans` (offsets in `value`) to `out` as offsets in the raw text. */
  toRaw(spans: readonly Span[], out: Span[]): void {
    for (const s of spans) {
      const start = this.map(s.start);
      const end = this.map(s.end);
      if (end > start) out.push({ start, end, kind: s.kind });
    }
  }

  private map(p: number): number {
    if (this.value.length === this.to - this.from) return this.from + p;
    this.breakpoints();
    const dec = this.dec as number[];
    const raw = this.raw as number[];
    let lo = 0;
    let hi = dec.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (dec[mid] <= p) lo = mid;
      else hi = mid - 1;
    }
    return raw[lo] + (p - dec[lo]);
  }

  private breakpoints(): void {
    if (this.dec) return;
    const dec = [0];
    const raw = [this.from];
    const body = this.text.slice(this.from, this.to);
    let d = 0;
    let i = 0;
    for (let j = body.indexOf('\\'); j >= 0; j = body.indexOf('\\', i)) {
      // Each escape is one UTF-16 unit: `\uXXXX` six characters, the others two.
      d += j - i + 1;
      i = j + (body.charCodeAt(j + 1) === 0x75 ? 6 : 2);
      dec.push(d);
      raw.push(this.from + i);
    }
    this.dec = dec;
    this.raw = raw;
  }
}

/**
 * The end (after the closing quote) of the literal whose opening quote is at `start`, found
 * before `limit`, or -1.
 */
export function literalEnd(text: string, start: number, limit: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0 || q >= limit) return -1;
    i = q + 1;
    if (!escapedAt(text, q)) return i;
  }
}
