/**
 * A line index's lines by sniffed step_index, for finding a record's full twin: the lines of
 * each known step in one sorted array (binary search), the lines whose step is unknown in
 * another. Four bytes a line, built once per index version.
 */

/** Sniff results that are not a step_index: parse the line to know. */
export const SNIFF_UNKNOWN = -2147483648;
/** An empty line: never a record. */
export const SNIFF_EMPTY = -2147483647;

export class StepOrder {
  private constructor(
    private readonly sniffed: Int32Array,
    /** Lines with a known step, ordered by (step, line). */
    private readonly known: Uint32Array,
    /** Lines whose step is unknown, in file order. */
    private readonly unknown: Uint32Array,
  ) {}

  /** `sniffed[0, count)`: the step of each line, or SNIFF_UNKNOWN / SNIFF_EMPTY. */
  static of(sniffed: Int32Array, count: number): StepOrder {
    let unknownCount = 0;
    let knownCount = 0;
    let sorted = true;
    let last = -1;
    for (let i = 0; i < count; i++) {
      const s = sniffed[i];
      if (s === SNIFF_UNKNOWN) unknownCount++;
      else if (s !== SNIFF_EMPTY) {
        knownCount++;
        if (s < last) sorted = false;
        last = s;
      }
    }
    const known = new Uint32Array(knownCount);
    const unknown = new Uint32Array(unknownCount);
    for (let i = 0, k = 0, u = 0; i < count; i++) {
      const s = sniffed[i];
      if (s === SNIFF_UNKNOWN) unknown[u++] = i;
      else if (s !== SNIFF_EMPTY) known[k++] = i;
    }
    // Writers number steps upwards, so file order is usually step order; otherwise a native
    // sort of (step << 32 | line) keys (no comparator calls).
    if (!sorted) {
      const keys = new BigUint64Array(knownCount);
      for (let k = 0; k < knownCount; k++) {
        keys[k] = (BigInt(sniffed[known[k]]) << 32n) | BigInt(known[k]);
      }
      keys.sort();
      for (let k = 0; k < knownCount; k++) known[k] = Number(keys[k] & 0xffffffffn);
    }
    return new StepOrder(sniffed, known, unknown);
  }

  /** Lines whose step is `step` or unknown, in file order. */
  candidates(step: number): number[] {
    const { known, unknown } = this;
    const [from, to] = this.run(step);
    const out: number[] = [];
    let i = from;
    let j = 0;
    while (i < to || j < unknown.length) {
      if (j >= unknown.length || (i < to && known[i] < unknown[j])) out.push(known[i++]);
      else out.push(unknown[j++]);
    }
    return out;
  }

  /** [from, to) of the lines of `step` in `known` (binary search). */
  private run(step: number): [number, number] {
    const { known, sniffed } = this;
    const bound = (strict: boolean): number => {
      let lo = 0;
      let hi = known.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const v = sniffed[known[mid]];
        if (v < step || (strict && v === step)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [bound(false), bound(true)];
  }
}
