import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** Small measuring helpers of the index bench. */

v8.setFlagsFromString('--expose-gc');
export const gc = vm.runInNewContext('gc') as () => void;

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** 10^6 bytes per second. */
export const mbps = (bytes: number, ms: number): string =>
  `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

/** Peak RSS above the level at start, sampled every 2 ms while `fn` runs. */
export async function rssGrowth<T>(fn: () => Promise<T>): Promise<{ value: T; growth: number }> {
  gc();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growth: peak - base };
  } finally {
    clearInterval(timer);
  }
}
