/** Where a count above a column is drawn: its x and anchor (12 px text, 7.2 units a digit). */
export interface CountPlace {
  x: number;
  textAnchor: 'start' | 'middle' | 'end';
}

const DIGIT = 7.2;
const GAP = 2;

/**
 * The counts drawn over columns of `width` units in all: every count when each column has room
 * for it (16 columns or fewer), else each non-zero one whose digits fit between the count drawn
 * before it, the column before and the next non-zero column, an empty column lending its room. A 46-day axis drew
 * the 2 and the 5 and left the 16, 60 and 99 of the tall bars beside them unsaid: two digits
 * are wider than one column of 14 units, but the days around them were empty. At the chart's
 * edges a count is moved in rather than cut. Null: not drawn.
 */
export function countPlaces(values: readonly number[], width: number): (CountPlace | null)[] {
  const w = width / Math.max(values.length, 1);
  const all = values.length <= 16;
  let end = -Infinity;
  return values.map((value, i) => {
    if (!all && value <= 0) return null;
    const size = String(value).length * DIGIT;
    const mid = i * w + w / 2;
    let place: CountPlace = { x: mid, textAnchor: 'middle' };
    let from = mid - size / 2;
    if (from < 0) [place, from] = [{ x: 0, textAnchor: 'start' }, 0];
    else if (mid + size / 2 > width)
      [place, from] = [{ x: width, textAnchor: 'end' }, width - size];
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
}
