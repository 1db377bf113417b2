/**
 * A count as it fits a cell (25 units, 10 px digits: three digits at most): `3.6k`, `36k`,
 * `1.2M`. The exact count is the cell's tooltip and its link's name.
 */
export function cellCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 9950) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 999_500) return `${Math.round(n / 1000)}k`;
  return `${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M`;
}
