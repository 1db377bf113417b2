import type { Span } from './detector';

/**
 * Secrets a JSON string value shows at its start, found as the API finds them in the decoded
 * value. A value's text begins a line when decoded (`ENV DB_PASSWORD V`, `12: DB_PASSWORD=V`,
 * `password: V`): the detectors that want a line's start see one there, but in the raw line
 * (`"thinking":"ENV DB_PASSWORD V"`) a quote stands before it. A value with an escape is read
 * decoded already (./escaped); one without reads the same raw and decoded except at its edges,
 * so its head is read again as a text of its own and the spans mapped back (review 24 H1:
 * masked in `/steps/N`, clear in `/steps/N/raw`, `/lines`, downloads and `brainql raw`; a step's
 * `error` object, served as its JSON text, was clear everywhere).
 */

/**
 * A value's opening quote (after `:`, `,` or `[`), its text up to a quote, a backslash or a line
 * break: 8 characters at least, one of them a blank or `=` (a key's separator; a lone word or a
 * timestamp begins no line-anchored secret).
 */
const VALUE = /[:,[][ \t]*"(?=[^"\\\n]{0,64}[ \t=])([^"\\\n]{8,})"/g;
/** Characters of a value read again: a line-anchored secret starts near its line's start. */
export const HEAD = 1024;

/**
 * The spans (offsets in `text`) `scan` finds in the heads of `text`'s string values. The heads
 * are read as one text, a line each (what each is when decoded: a line's start), so a text of
 * many short values costs one scan, not one per value (a 1 MB run of `,"abcdefgh ij"` took 116
 * ms read value by value, 3 ms without this reading).
 */
export function stringHeadSpans(scan: (text: string) => Span[], text: string): Span[] {
  const starts: number[] = [];
  const heads: string[] = [];
  VALUE.lastIndex = 0;
  for (let m = VALUE.exec(text); m; m = VALUE.exec(text)) {
    const start = m.index + m[0].length - 1 - m[1].length;
    // The closing quote may open the next value (`"a b","c d"`): read on from it.
    VALUE.lastIndex = start + m[1].length;
    // A key (`"a b": …`) is no value.
    let k = start + m[1].length + 1;
    while (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09) k++;
    if (text.charCodeAt(k) === 0x3a) continue;
    starts.push(start);
    heads.push(m[1].length > HEAD ? m[1].slice(0, HEAD) : m[1]);
  }
  if (heads.length === 0) return [];
  const joined = heads.join('\n');
  // Where each head begins in `joined`.
  const at: number[] = [];
  let offset = 0;
  for (const h of heads) {
    at.push(offset);
    offset += h.length + 1;
  }
  const out: Span[] = [];
  for (const s of scan(joined)) {
    // The head the span starts in; a span reaching past it is cut at its end.
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (at[mid] <= s.start) lo = mid;
      else hi = mid - 1;
    }
    const end = Math.min(s.end, at[lo] + heads[lo].length);
    if (end <= s.start) continue;
    out.push({
      start: starts[lo] + s.start - at[lo],
      end: starts[lo] + end - at[lo],
      kind: s.kind,
    });
  }
  return out;
}
