import * as fs from 'node:fs';
import * as path from 'node:path';
import { ioStats } from '../src/brain/safe-path';
import { appendLines, type IndexHome } from './generate-index-home';
import { openIndex, passEnd, type Opened } from './index-open';
import { mb, ms, row, type Row } from './report';
import { gc, sleep } from './stats';

/**
 * Figure 12: a restart over an unchanged home whose index is on disk (the first page of
 * sessions from the persisted heads and summaries, no transcript read). Figure 11: text
 * appended to one transcript while the indexer runs, timed until a search finds it.
 */

/** Reads from the home while `fn` runs: bytes of any file, files opened by kind. */
async function reads<T>(fn: () => Promise<T>) {
  const [bytes0, was] = [ioStats.bytesRead, ioStats.recordOpens];
  ioStats.recordOpens = true;
  ioStats.opens.length = 0;
  try {
    const value = await fn();
    const transcripts = ioStats.opens.filter((o) => o.startsWith('.system_generated/logs/')).length;
    const others = ioStats.opens.length - transcripts;
    const bytes = ioStats.bytesRead - bytes0;
    // No byte read, or none from a transcript (opened only for fstat counts as none read).
    const ok = bytes === 0 || transcripts === 0;
    const text = `${bytes} B; opened ${transcripts} transcripts, ${others} others`;
    return { value, ok, text };
  } finally {
    ioStats.recordOpens = was;
    ioStats.opens.length = 0;
  }
}

export async function benchRestart(
  roots: string[],
  data: IndexHome,
  cacheDir: string,
  label: string,
  rows: Row[],
): Promise<Opened> {
  gc();
  const t = [performance.now()];
  const page = await reads(async () => {
    const opened = openIndex(data.home, roots, cacheDir);
    t.push(performance.now());
    const catalog = await opened.store.catalog();
    t.push(performance.now());
    const first = catalog.newestFirst.slice(0, 20);
    const summaries = await Promise.all(first.map((s) => opened.store.summary(s)));
    t.push(performance.now());
    const served = summaries.filter((s) => s.stepCount > 0).length;
    if (served !== 20) throw new Error(`restart served ${served} summaries of 20`);
    return { opened, sessions: catalog.newestFirst.length };
  });
  const { opened, sessions } = page.value;
  const total = t[3] - t[0];
  rows.push(
    row(
      `12. [${label}] restart, unchanged home: open index + catalog() + newest 20 summaries`,
      ms(total),
      '< 300 ms',
      total < 300,
    ),
  );
  rows.push(
    row(`12.   of which open the index (persisted heads of ${sessions} sessions)`, ms(t[1] - t[0])),
  );
  rows.push(row('12.   of which catalog() (scan of the folders)', ms(t[2] - t[1])));
  rows.push(row('12.   of which 20 summaries', ms(t[3] - t[2])));
  rows.push(
    row(
      `12. [${label}] read from the home until the first page`,
      page.text,
      'no transcript byte',
      page.ok,
    ),
  );
  const pass = await reads(async () => {
    opened.index.start();
    await passEnd(opened.index, 0);
  });
  const passMs = ms(opened.index.progress.lastPassMs);
  rows.push(
    row(
      `12. [${label}] the indexer's first pass after it (${passMs}): read`,
      pass.text,
      'no transcript byte',
      pass.ok,
    ),
  );
  return opened;
}

/** Appends `bytes` to the transcript; returns when a search finds its last line's term. */
async function appendOnce({ index }: Opened, data: IndexHome, bytes: number, seed: number) {
  const term = `appended-${seed}-marker`;
  const dir = fs.realpathSync(path.resolve(data.appendFile, '..', '..', '..'));
  const text = appendLines(bytes, term, Date.UTC(2025, 0, 1, 12), seed);
  const request = {
    terms: [term],
    dirs: [dir],
    fields: null,
    order: 'RELEVANCE' as const,
    first: 20,
    after: null,
  };
  const [read0, passAt] = [index.progress.bytesRead, index.progress.lastPassStartedAt];
  const t0 = performance.now();
  fs.appendFileSync(data.appendFile, text);
  while (index.search(request).totalCount === 0) {
    if (performance.now() - t0 > 600_000)
      throw new Error('the appended text never became searchable');
    await sleep(5);
  }
  const searchable = performance.now() - t0;
  // The pass that read the append ends soon after (the grown session is the oldest: the last).
  for (
    let at = passAt;
    index.progress.bytesRead === read0 || index.progress.lastPassStartedAt === at;
  ) {
    at = index.progress.lastPassStartedAt;
    await passEnd(index, at);
  }
  return {
    searchable,
    appended: Buffer.byteLength(text),
    read: index.progress.bytesRead - read0,
    passMs: index.progress.lastPassMs,
  };
}

export async function benchAppend(
  opened: Opened,
  data: IndexHome,
  label: string,
  msPerByte: number,
  rows: Row[],
) {
  const { index } = opened;
  await passEnd(index, index.progress.lastPassStartedAt); // one idle pass, to time an unchanged pass
  const idle = index.progress.lastPassMs;
  try {
    for (const [bytes, seed] of [
      [1 << 20, 1],
      [4 << 20, 4],
    ]) {
      const a = await appendOnce(opened, data, bytes, seed);
      const size = mb(a.appended);
      const update = a.passMs - idle;
      if (bytes === 1 << 20) {
        rows.push(
          row(
            `11. [${label}] append ${size} to one transcript: searchable after`,
            ms(a.searchable),
            '< 2 s',
            a.searchable < 2000,
          ),
        );
      } else rows.push(row(`11. [${label}] append ${size}: searchable after`, ms(a.searchable)));
      const tight = a.read >= a.appended && a.read <= a.appended + 65536;
      rows.push(row(`11.   transcript bytes the update read`, mb(a.read), '= the append', tight));
      const build = a.appended * msPerByte;
      rows.push(
        row(
          `11.   update cost: its pass - an unchanged pass (${ms(idle)}); the build's rate`,
          `${ms(update)}; ${ms(build)}`,
        ),
      );
    }
  } finally {
    fs.truncateSync(data.appendFile, data.appendSize);
  }
}
