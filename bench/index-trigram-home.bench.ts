import * as fs from 'node:fs';
import * as path from 'node:path';
import { INDEX_FILE } from '../src/index/sqlite/database';
import type { IndexHome } from './generate-index-home';
import { buildInChild, stageRows } from './index-build.bench';
import { openIndex } from './index-open';
import { benchSearch } from './index-search.bench';
import { mb, ms, row, type Row } from './report';
import type { Scanner } from './scan';
import { mbps } from './stats';

/**
 * Figures 9 and 10 again with the trigram engine (INDEX_ENGINE=trigram, issue 22), in the same
 * run as the FTS5 rows above them and the same rg baseline: the build from nothing in a child
 * process, the files it leaves in CACHE_DIR, and the searches of figure 10 over the first stage.
 * The FTS5 rows stay the baseline until the trigram engine wins every one of them.
 */
export async function benchTrigramHome(
  data: IndexHome,
  label: string,
  scan: Scanner,
  rows: Row[],
): Promise<void> {
  const cacheDir = path.join(data.root, 'cache-trigram');
  const was = process.env.INDEX_ENGINE;
  // The build child and the index opened here both read it.
  process.env.INDEX_ENGINE = 'trigram';
  try {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    const took = buildInChild(data.home, [], cacheDir);
    const n = data.sessions.toLocaleString('en');
    rows.push(
      row(
        `9t. [trigram] index build: ${n} sessions, ${mb(data.transcriptBytes)} transcripts, once`,
        `${ms(took.ms)} (CPU ${ms(took.cpuMs)})`,
      ),
    );
    rows.push(
      row(
        '9t. [trigram] build throughput, transcript bytes',
        mbps(data.transcriptBytes, took.ms),
        '>= 40 MB/s',
        data.transcriptBytes / 1e3 / took.ms >= 40,
      ),
    );
    rows.push(
      row(
        '9t. [trigram] RSS growth during the build (own process; peak, 2 ms samples)',
        mb(took.growth),
        '< 400 MiB',
        took.growth < 400 * 2 ** 20,
      ),
    );
    stageRows('9t.', took, data.transcriptBytes, 40, rows);
    const opened = openIndex(data.home, [], cacheDir);
    try {
      opened.index.start();
      await opened.index.caughtUp();
      // Texts the child left waiting in memory (not yet a segment) are added again on open:
      // written here, so every search below sees every text.
      await opened.index.trigram?.flush();
      const files = fs.readdirSync(cacheDir).map((f) => path.join(cacheDir, f));
      const size = (fs: string[]) => fs.reduce((s, f) => s + statSize(f), 0);
      const segments = files.filter((f) => path.basename(f).startsWith('trigram-'));
      const sqlite = files.filter((f) => path.basename(f).startsWith(INDEX_FILE));
      const all = size(files);
      rows.push(
        row(
          `9t. [trigram] index files: segments + ${INDEX_FILE} (text keys, summaries, stats)`,
          `${mb(size(segments))} + ${mb(size(sqlite))} = ${(all / data.transcriptBytes).toFixed(2)}x the transcripts`,
          '<= 1.0x',
          all <= data.transcriptBytes,
        ),
      );
      await benchSearch(opened, { label: `${label}, trigram`, paths: [data.home] }, scan, rows);
    } finally {
      await opened.index.close();
    }
  } finally {
    if (was === undefined) delete process.env.INDEX_ENGINE;
    else process.env.INDEX_ENGINE = was;
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

function statSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
