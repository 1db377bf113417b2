/** Where a count above a column is drawn: its x and anchor (12 px text, 7.2 units a digit). */
export interface CountPlace {
  x: number;
  textAnchor: 'start' | 'middle' | 'end';
  /** Drawn over a neighbour's room (the chart's maximum): on a background of its own. */
  over?: boolean;
}

const DIGIT = 7.2;
const GAP = 2;

/** A count's place over column `i`: centred, or moved in from an edge of the chart. */
export function countAt(
  value: number,
  i: number,
  n: number,
  width: number,
): { place: CountPlace; from: number; size: number } {
  const w = width / Math.max(n, 1);
  const size = String(value).length * DIGIT;
  const mid = i * w + w / 2;
  if (mid - size / 2 < 0) return { place: { x: 0, textAnchor: 'start' }, from: 0, size };
  if (mid + size / 2 > width)
    return { place: { x: width, textAnchor: 'end' }, from: width - size, size };
  return { place: { x: mid, textAnchor: 'middle' }, from: mid - size / 2, size };
}

/**
 * The counts drawn over columns of `width` units in all: every count when each column has room
 * for it (16 columns or fewer), else each non-zero one whose digits fit between the count drawn
 * before it, the column before and the next non-zero column, an empty column lending its room. A 46-day axis drew
 * the 2 and the 5 and left the 16, 60 and 99 of the tall bars beside them unsaid: two digits
 * are wider than one column of 14 units, but the days around them were empty. At the chart's
 * edges a count is moved in rather than cut.
 *
 * The chart's maximum (its first column of the highest value) is always said: where it has no
 * room it is drawn over its neighbours' (`over`: on a background), and a count it would cover
 * is left out. Steps per day dropped its 302 and 99 beside non-zero days (#20, review 6).
 * Null: not drawn.
 */
export function countPlaces(values: readonly number[], width: number): (CountPlace | null)[] {
  const w = width / Math.max(values.length, 1);
  const all = values.length <= 16;
  let end = -Infinity;
  const out = values.map((value, i) => {
    if (!all && value <= 0) return null;
    const { place, from, size } = countAt(value, i, values.length, width);
    if (!all) {
      // Between the neighbouring non-zero columns: no count over another column's bar.
      let before = i - 1;
      while (before >= 0 && values[before] <= 0) before--;
      const next = values.findIndex((v, j) => j > i && v > 0);
      const lowest = Math.max(end + GAP, before < 0 ? 0 : (before + 1) * w);
      if (from < lowest || from + size > (next < 0 ? width : next * w)) return null;
    }
    end = from + size;
    return place;
  });
  const top = Math.max(0, ...values);
  const m = values.indexOf(top);
  if (top > 0 && out[m] === null) {
    const { place, from, size } = countAt(top, m, values.length, width);
    out[m] = { ...place, over: true };
    // The counts it would cover (their boxes, with a gap) are left out.
    out.forEach((p, j) => {
      if (!p || j === m) return;
      const o = countAt(values[j], j, values.length, width);
      if (o.from < from + size + GAP && o.from + o.size + GAP > from) out[j] = null;
    });
  }
  return out;
}
