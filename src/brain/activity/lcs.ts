/**
 * A longest common subsequence of two integer sequences in linear space (Hirschberg's
 * divide and conquer over the textbook table): the fallback when jsdiff's search would cost
 * more than its budget. Time O(n·m), memory O(n + m).
 */

/** row[k] = LCS(a[aLo..aHi), b[bLo..bLo+k)) for k = 0..bHi-bLo. */
function forward(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number) {
  const m = bHi - bLo;
  const row = new Int32Array(m + 1);
  for (let i = aLo; i < aHi; i++) {
    const x = a[i];
    let diag = 0;
    for (let j = 1; j <= m; j++) {
      const up = row[j];
      row[j] = x === b[bLo + j - 1] ? diag + 1 : up > row[j - 1] ? up : row[j - 1];
      diag = up;
    }
  }
  return row;
}

/** row[k] = LCS(a[aLo..aHi), b[bHi-k..bHi)) for k = 0..bHi-bLo. */
function backward(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
) {
  const m = bHi - bLo;
  const row = new Int32Array(m + 1);
  for (let i = aHi - 1; i >= aLo; i--) {
    const x = a[i];
    let diag = 0;
    for (let k = 1; k <= m; k++) {
      const up = row[k];
      row[k] = x === b[bHi - k] ? diag + 1 : up > row[k - 1] ? up : row[k - 1];
      diag = up;
    }
  }
  return row;
}

/** Index pairs (i, j) with a[i] === b[j] of one longest common subsequence, ascending. */
export function lcsPairs(a: Int32Array, b: Int32Array): [number, number][] {
  const out: [number, number][] = [];
  const solve = (aLo: number, aHi: number, bLo: number, bHi: number): void => {
    if (aLo >= aHi || bLo >= bHi) return;
    if (aHi - aLo === 1) {
      for (let j = bLo; j < bHi; j++) {
        if (b[j] === a[aLo]) {
          out.push([aLo, j]);
          return;
        }
      }
      return;
    }
    const mid = (aLo + aHi) >> 1;
    const f = forward(a, aLo, mid, b, bLo, bHi);
    const g = backward(a, mid, aHi, b, bLo, bHi);
    const m = bHi - bLo;
    let split = 0;
    let best = -1;
    for (let k = 0; k <= m; k++) {
      const v = f[k] + g[m - k];
      if (v > best) {
        best = v;
        split = k;
      }
    }
    solve(aLo, mid, bLo, bLo + split);
    solve(mid, aHi, bLo + split, bHi);
  };
  solve(0, a.length, 0, b.length);
  return out;
}
