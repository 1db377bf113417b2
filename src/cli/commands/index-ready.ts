import { INDEX_STATUS } from '../documents';
import { progress } from '../output/progress';
import type { Source } from '../source/source';

interface Status {
  indexStatus: { state: string; sessionsIndexed: number; sessionsTotal: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Search, stats and secrets answer from the home index, which answers from what it holds so
 * far while it builds: wait until it covers every session (a progress bar on a TTY), at most
 * `limitMs`; past that, say so and answer from what is indexed.
 */
export async function indexReady(source: Source, limitMs = 600_000): Promise<void> {
  const bar = progress('indexing sessions', 300);
  const started = Date.now();
  try {
    for (;;) {
      const { indexStatus: s } = await source.run<Status>(INDEX_STATUS);
      if (s.state === 'READY') return;
      bar.update(s.sessionsIndexed, s.sessionsTotal);
      if (Date.now() - started > limitMs) {
        process.stderr.write(
          `brainql: the index holds ${s.sessionsIndexed} of ${s.sessionsTotal} sessions; answering from those\n`,
        );
        return;
      }
      await sleep(source.remote ? 1000 : 100);
    }
  } finally {
    bar.stop();
  }
}
