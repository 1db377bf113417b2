import { bump } from '../index/session-stats';
import type { Count, ToolStats } from './stats.model';

/**
 * The keys as the caller may see them: each distinct key is masked once (not once per session),
 * and keys that mask to the same text are counted together.
 */
export function maskKeys(
  map: Map<string | null, number[]>,
  mask: (key: string) => string,
): Map<string | null, number[]> {
  const out = new Map<string | null, number[]>();
  for (const [key, values] of map) bump(out, key === null ? null : mask(key), values);
  return out;
}

/** Plain code-unit order, as the contract asks (not localeCompare). */
function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Count lists: by count descending, then key ascending, null last. */
export function countsOf(map: Map<string | null, number[]>): Count[] {
  return [...map]
    .map(([key, [count]]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || compareKeys(a.key, b.key));
}

/** byTool: by calls descending, then name ascending. */
export function toolsOf(map: Map<string | null, number[]>): ToolStats[] {
  return [...map]
    .map(([name, [calls, errors]]) => ({ name: name ?? '', calls, errors }))
    .sort((a, b) => b.calls - a.calls || compareKeys(a.name, b.name));
}
