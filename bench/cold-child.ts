import { performance } from 'node:perf_hooks';
import { BrainStore } from '../src/brain/store';

/**
 * A fresh process's first page: scan the home, then summaries of the newest 20 sessions.
 * Times are milliseconds since this process started (performance.timeOrigin).
 */
async function main(): Promise<void> {
  const loaded = performance.now();
  const store = new BrainStore({ geminiHome: process.argv[2], brainRoots: [] });
  const catalog = await store.refresh();
  const scanned = performance.now();
  const newest = catalog.newestFirst.slice(0, 20);
  const summaries = await Promise.all(newest.map((s) => store.summary(s)));
  const done = performance.now();
  const withRequest = summaries.filter((s) => s.userRequest !== null).length;
  const sessions = catalog.newestFirst.length;
  process.stdout.write(JSON.stringify({ loaded, scanned, done, sessions, withRequest }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
