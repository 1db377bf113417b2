import { planner } from '../../fixtures/records';
import { appendRecords, openIndex } from '../index-home';

/**
 * home-crash.spec's child: a HomeIndex with the trigram engine over the spec's home, indexing
 * while this process appends to its sessions, until it is killed. Arguments: the home, the
 * cache dir, the sessions' folders (JSON), the first step index to append.
 */
process.env.INDEX_ENGINE = 'trigram';

async function main(): Promise<void> {
  const [home, cacheDir, dirsJson, first] = process.argv.slice(2);
  const dirs = JSON.parse(dirsJson) as string[];
  const ix = openIndex(home, cacheDir);
  process.stdout.write('open\n');
  for (let step = Number(first); ; step++) {
    const content = `Appended CrashWord ${step} ${'Ünïcode and more words '.repeat(step % 40)}`;
    appendRecords(dirs[step % dirs.length], [planner(step, '2026-05-01T10:00:00Z', { content })]);
    if (step % 7 === 0) await ix.index.caughtUp();
    else await new Promise((r) => setTimeout(r, 15));
  }
}

void main();
