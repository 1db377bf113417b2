import '../src/production';
import { StageClock } from '../src/index/stage-clock';
import { workerCode } from '../src/index/worker-code';
import { openIndex, passEnd } from './index-open';
import { rssGrowth } from './stats';
import type { SqliteHomeIndex } from '../src/index/sqlite/sqlite-home-index';

/**
 * The index build in a process of its own, so its RSS growth is its own (in the bench's
 * process, memory freed by the figures before it is reused and hides it). Arguments: the
 * gemini home, the cache dir, more brain roots as JSON. Prints the figures as JSON.
 */
async function main(): Promise<void> {
  const [home, cacheDir, roots] = process.argv.slice(2);
  // The index's worker threads run compiled JavaScript in production; under the bench's ts-node
  // this process compiles their TypeScript for them (94 files for a session worker: 1.9 s of
  // CPU, 8 s of wall time at load 9), a cost no build pays in production: paid before the clock.
  for (const m of ['session-work', 'trigram/segment-builder']) {
    workerCode(require.resolve(`../src/index/${m}`), true);
  }
  const cpu0 = process.cpuUsage();
  const { value, growth } = await rssGrowth(async () => {
    const t0 = performance.now();
    const clock = new StageClock();
    const { index } = openIndex(home, JSON.parse(roots) as string[], cacheDir, clock);
    index.start();
    await passEnd(index, 0);
    // The trigram engine's last texts wait in memory for a segment: written before the clock
    // stops (a no-op with FTS5).
    await index.trigram?.flush();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const read = index.progress.bytesRead;
    // The session workers' stage times (reading to stats of new sessions), beside the main thread's.
    const workers = index.workerClock ? { ...index.workerClock.ms } : null;
    return { index, ms, cpuMs: (cpu.user + cpu.system) / 1000, read, workers, clock };
  });
  const { index, clock, workers, ...figures } = value;
  // Counted once the growth is sampled: reading the trigram engine's texts back caches some.
  const texts = indexedTexts(index);
  await index.close();
  // The trigram engine's segments, written by its worker thread beside the stages above.
  const t = index.trigram?.times;
  const segments = t ? { fold: t.fold, trigrams: t.trigrams, write: t.write } : null;
  const stages = { ...clock.ms, segments, workers };
  process.stdout.write(JSON.stringify({ ...figures, texts, stages, growth }));
}

/**
 * The texts the index holds and their UTF-8 bytes, whichever the engine: FTS5 keeps them in
 * `docs.text`; under INDEX_ENGINE=trigram the docs rows hold keys and empty texts, the segments
 * the texts, read back through the engine (as oracle.spec reads them).
 */
function indexedTexts(index: SqliteHomeIndex): { n: number; bytes: number } {
  const db = index.opened.db;
  const trigram = index.trigram;
  if (!trigram) {
    return db
      .prepare(
        'SELECT count(*) AS n, coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM docs',
      )
      .get() as { n: number; bytes: number };
  }
  let n = 0;
  let bytes = 0;
  for (const id of db.prepare('SELECT rowid FROM docs').pluck().iterate() as Iterable<number>) {
    n++;
    bytes += Buffer.byteLength(trigram.text(id) ?? '');
  }
  return { n, bytes };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
