/**
 * The font size (SVG units) of a heatmap cell's count, written exact (`1201`, never `1.2k`: an
 * auditor compares it with the day bars and the sessions' counts): 11.5 up to three digits
 * (10.1 px where the grid is drawn at its narrowest, 560 px for 636 units: 10 units were 8.8 px
 * on a phone; #20, review 6), then as small as its digits need to fit the 25-unit cell (23
 * inside its margins; a digit is 0.64 em wide at most in the fonts the console uses).
 */
export function cellFont(n: number): number {
  const digits = String(n).length;
  return Math.min(11.5, Math.floor((10 * 23) / (digits * 0.64)) / 10);
}
