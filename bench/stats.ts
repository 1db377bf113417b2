import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

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

/**
 * Peak RSS above the level at start, sampled every 2 ms while `fn` runs, by a worker thread
 * (RSS is the process's): on the main thread each sample was a callback between the measured
 * work's own (~30 ms of CPU a second either way).
 */
export async function rssGrowth<T>(fn: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const sampler = new Worker(SAMPLER, { eval: true });
  await once(sampler, 'online');
  gc();
  const base = process.memoryUsage.rss();
  sampler.postMessage('start');
  try {
    const value = await fn();
    sampler.postMessage('stop');
    const [sampled] = (await once(sampler, 'message')) as [number];
    const peak = Math.max(sampled, process.memoryUsage.rss());
    return { value, growth: peak - base };
  } finally {
    await sampler.terminate();
  }
}

const SAMPLER = `
const { parentPort } = require('node:worker_threads');
let peak = 0;
let timer = null;
parentPort.on('message', (m) => {
  if (m === 'start') timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  else { clearInterval(timer); parentPort.postMessage(peak); }
});
`;
