/**
 * A tool's errors as a share of its calls, for its row: never `0%` when there is an error
 * ("229 (1 tool error, 0%)" read as none), nor `100%` when a call went right.
 */
export function errorShare(errors: number, calls: number): string {
  if (errors <= 0) return '0%';
  const pct = Math.round((100 * errors) / Math.max(calls, 1));
  if (pct < 1) return '<1%';
  if (pct >= 100 && errors < calls) return '>99%';
  return `${pct}%`;
}
