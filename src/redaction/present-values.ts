/**
 * The values of a session (../steps/session-values) that show in a large text, found in one
 * pass: ./value-spans looks for each value on its own (String.indexOf per value), which for a
 * 32 MB step and the 2,048 values two tiers can hold took over a second of the event loop per
 * answer, and 20 such answers at once ran past QUERY_TIMEOUT_MS (large-values.spec). A text
 * already masked holds few of them, mostly none: only those are then looked for.
 */

/** Characters hashed per position: shorter than any value learned (8 or more, ./echoes). */
const K = 4;
const P = 31;
/** P^(K-1), to take the oldest character out of the rolling hash. */
const P_OUT = P * P * P;
/** Bits of the filter of first-K hashes (128 KiB): a position is looked at only on a hit. */
const BITS = 1 << 20;
/** Below this many characters each value is looked for on its own (cheaper than a pass). */
export const ONE_PASS_FROM = 64 * 1024;

interface Filter {
  size: number;
  bits: Uint8Array;
  byHash: Map<number, string[]>;
  /** Values shorter than K (a form decoded shorter than it was learned): looked for alone. */
  short: string[];
}

const filters = new WeakMap<ReadonlyMap<string, string>, Filter>();

function hashAt(s: string, at: number): number {
  let h = 0;
  for (let k = 0; k < K; k++) h = (Math.imul(h, P) + s.charCodeAt(at + k)) | 0;
  return h;
}

/** The filter of `values`, made again when values were added (a session learned further). */
function filterOf(values: ReadonlyMap<string, string>): Filter {
  const known = filters.get(values);
  if (known && known.size === values.size) return known;
  const f: Filter = {
    size: values.size,
    bits: new Uint8Array(BITS >> 3),
    byHash: new Map(),
    short: [],
  };
  for (const v of values.keys()) {
    if (v.length < K) {
      f.short.push(v);
      continue;
    }
    const h = hashAt(v, 0);
    const b = h & (BITS - 1);
    f.bits[b >> 3] |= 1 << (b & 7);
    const list = f.byHash.get(h);
    if (list) list.push(v);
    else f.byHash.set(h, [v]);
  }
  filters.set(values, f);
  return f;
}

/** The entries of `values` that show in `text` (all of them for a short text: see ONE_PASS_FROM). */
export function presentValues(
  text: string,
  values: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  if (values.size === 0 || text.length < ONE_PASS_FROM) return values;
  const f = filterOf(values);
  const found = new Map<string, string>();
  for (const v of f.short) if (text.includes(v)) found.set(v, values.get(v)!);
  const last = text.length - K;
  let h = hashAt(text, 0);
  for (let i = 0; ; i++) {
    const b = h & (BITS - 1);
    if (f.bits[b >> 3] & (1 << (b & 7))) {
      for (const v of f.byHash.get(h) ?? []) {
        if (!found.has(v) && text.startsWith(v, i)) found.set(v, values.get(v)!);
      }
    }
    if (i >= last) break;
    h = (Math.imul(h - Math.imul(text.charCodeAt(i), P_OUT), P) + text.charCodeAt(i + K)) | 0;
  }
  return found;
}
