import { priorityOf, type Span } from './patterns';

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
