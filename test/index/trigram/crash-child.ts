import { TrigramIndex } from '../../../src/index/trigram/trigram-index';
import { crashText } from './crash-texts';

/**
 * Writes segments, deletes and merges in a loop until it is killed (crash.spec). After each
 * flush it reports the ids the manifest then holds live, and each deletion before it is made,
 * so the parent knows what must survive.
 */
async function main(): Promise<void> {
  const dir = process.argv[2];
  const start = Number(process.argv[3]);
  const index = new TrigramIndex(dir);
  const live = new Set(index.liveIds());
  for (let id = start; ; id++) {
    index.add(id, crashText(id));
    live.add(id);
    if (id % 5 === 0) {
      const gone = id - 7;
      if (live.delete(gone)) {
        // Said first (pipes are written synchronously on Linux): a kill before the next report
        // may or may not leave this deletion committed.
        process.stdout.write(`delete ${gone}\n`);
        index.delete(gone);
      }
    }
    if (id % 20 === 0) {
      await index.flush();
      process.stdout.write(`live ${[...live].join(',')}\n`);
    }
    if (id % 60 === 0) await index.merge();
  }
}

void main();
