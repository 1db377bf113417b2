import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';

/**
 * Runs in a child process (`node --expose-gc -r ts-node/register/transpile-only`), so the
 * test runner's own heap does not blur what is measured; see memory-budget.spec.ts. Prints
 * one JSON object.
 *
 *   trim HOME_ROOT ID        problems and records of a session of 4 million bad lines
 *   budget ROOT BIG_ROOT N   N full-only views under a small budget, then one of 100 MB
 */

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc!;
const rss = (): number => process.memoryUsage().rss;
const heap = (): number => process.memoryUsage().heapUsed;

/** Collects garbage until the heap stops shrinking (freed pages go back to the system). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function trim(root: string, id: string) {
  const store = new BrainStore({ geminiHome: null, brainRoots: [root], rescanMs: 3_600_000 });
  await settle();
  const start = rss();
  const entry = (await store.refresh()).byKey.get(id)!.entry;
  const problems = await store.problems(entry);
  const records = await store.records(entry);
  await settle();
  const kept = rss();
  const cacheBytes = store.cache.usedBytes;
  store.cache.clear();
  await settle();
  return {
    problems: problems.length,
    last: problems[problems.length - 1],
    records: records.length,
    cacheBytes,
    keptMiB: (kept - start) / MiB,
    trimmedMiB: (rss() - start) / MiB,
  };
}

async function budget(root: string, bigRoot: string, count: number) {
  const store = new BrainStore({
    geminiHome: null,
    brainRoots: [root],
    rescanMs: 3_600_000,
    cacheBytes: 4 * MiB,
  });
  const listed = (await store.refresh()).newestFirst;
  await settle();
  const start = rss();
  let maxUsed = 0;
  let maxRss = 0;
  let steps = 0;
  for (const [i, l] of listed.slice(0, count).entries()) {
    steps += (await store.records(l.entry)).length;
    await store.summary(l);
    maxUsed = Math.max(maxUsed, store.cache.usedBytes);
    if (i % 50 === 0) maxRss = Math.max(maxRss, rss());
  }
  // The estimate against the heap the cache really held: what clearing it gives back.
  await settle();
  const heapFull = heap();
  const used = store.cache.usedBytes;
  store.cache.clear();
  await settle();
  const freed = heapFull - heap();
  // One view of 100 MB: its records are kept without their values.
  const big = new BrainStore({ geminiHome: null, brainRoots: [bigRoot], rescanMs: 3_600_000 });
  const bigEntry = (await big.refresh()).newestFirst[0].entry;
  await settle();
  const bigStart = rss();
  const bigRecords = await big.records(bigEntry);
  await settle();
  return {
    views: Math.min(count, listed.length),
    steps,
    maxUsed,
    maxBytes: store.cache.maxBytes,
    maxRssMiB: (maxRss - start) / MiB,
    heldRatio: freed / used,
    big: {
      records: bigRecords.length,
      contents: bigRecords.filter((r) => r.content !== null).length,
      cacheBytes: big.cache.usedBytes,
      fileMiB:
        fs.statSync(path.join(bigEntry.realDir, '.system_generated/logs/transcript_full.jsonl'))
          .size / MiB,
      rssMiB: (rss() - bigStart) / MiB,
    },
  };
}

const [mode, ...args] = process.argv.slice(2);
(mode === 'trim' ? trim(args[0], args[1]) : budget(args[0], args[1], Number(args[2])))
  .then((out) => process.stdout.write(JSON.stringify(out)))
  .catch((err: unknown) => {
    process.stderr.write(String(err instanceof Error ? err.stack : err));
    process.exit(1);
  });
