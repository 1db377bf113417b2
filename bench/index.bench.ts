import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Size } from './generate';
import { benchCliList } from './cli.bench';
import { ensureIndexHome, type IndexHome } from './generate-index-home';
import { benchBuild, buildInChild, stageRows } from './index-build.bench';
import { benchPageWhileBuilding } from './index-page.bench';
import { benchAppend, benchRestart } from './index-live.bench';
import type { Opened } from './index-open';
import { benchSearch } from './index-search.bench';
import { benchTrigramHome } from './index-trigram-home.bench';
import { mb, ms, row, type Row } from './report';
import { scanner } from './scan';
import { benchStats } from './stats-query.bench';
import { mbps } from './stats';

/**
 * The home index's figures (9-13) over a home of real-record sessions: build, search beside a
 * scan, restart, append. For --size large they are taken at 2,000 sessions (1 GB), then again
 * after 8,000 more sessions were indexed (the 10,000-session home). Then figures 9 and 10 with
 * the trigram engine over the first stage (with --only index, or BENCH_TRIGRAM=1; see
 * index-trigram-home.bench.ts). Returns notes for the table.
 */

interface Stage {
  label: string;
  roots: string[];
  paths: string[];
}

const count = (n: number) => n.toLocaleString('en');

export async function benchIndexHome(size: Size, rows: Row[]): Promise<string[]> {
  const data = ensureIndexHome(size);
  const how = data.reused ? 'reused' : `generated in ${ms(data.ms)}`;
  console.log(`index home (${size}): ${data.home}, ${how}`);
  console.log(`  ${count(data.sessions)} sessions, ${mb(data.transcriptBytes)} of transcripts`);
  if (data.extraRoot) {
    console.log(
      `  + ${data.extraRoot}: ${count(data.extraSessions)} sessions, ${mb(data.extraTranscriptBytes)}`,
    );
  }
  const scan = scanner();
  const notes = [
    `index home: sessions of real records (test/fixtures/real) with other texts cut from the real ones; ${count(data.sessions)} sessions, ${mb(data.transcriptBytes)} of transcripts` +
      (size === 'small'
        ? " (the issue's 1 GB / 2,000 sessions and 10,000 sessions are --size large: CI's time limit)"
        : ''),
    'MB/s is 10^6 bytes per second; the index figures are single runs (a build takes minutes), search figures medians.',
  ];
  if (scan.fallback)
    notes.push(
      'rg is not installed: the scan baseline is grep -r (one thread), which flatters the index.',
    );
  const cacheDir = path.join(data.root, 'cache');
  const built = benchBuild(data, cacheDir, scan, rows);
  await benchPageWhileBuilding(data.home, data.root, `${count(data.sessions)} sessions`, rows);
  // The build's process has let go of the file: the command line may read it.
  benchCliList(data.home, cacheDir, `${count(data.sessions)} sessions`, rows);
  const stages: Stage[] = [
    { label: `${count(data.sessions)} sessions`, roots: [], paths: [data.home] },
  ];
  if (data.extraRoot) {
    const total = count(data.sessions + data.extraSessions);
    stages.push({
      label: `${total} sessions`,
      roots: [data.extraRoot],
      paths: [data.home, data.extraRoot],
    });
  }
  const ratios: number[] = [];
  let opened: Opened | null = null;
  try {
    for (const [i, stage] of stages.entries()) {
      if (i > 0) grow(data, stage, cacheDir, rows);
      opened = await benchRestart(stage.roots, data, cacheDir, stage.label, rows);
      ratios.push(await benchSearch(opened, stage, scan, rows));
      if (i < stages.length - 1) {
        await opened.index.close();
        opened = null;
      }
    }
    if (process.env.BENCH_TRIGRAM !== '0') {
      // The FTS5 index is closed meanwhile: one engine's caches at a time.
      await opened!.index.close();
      opened = null;
      await benchTrigramHome(data, stages[0].label, scan, rows);
      opened = await benchRestart(stages[stages.length - 1].roots, data, cacheDir, 'again', []);
    }
    const last = stages[stages.length - 1];
    await benchAppend(opened!, data, last.label, built.msPerByte, rows);
    // The server opens the same index file: this process lets it go first.
    await opened!.index.close();
    opened = null;
    await benchStats(data.home, last.roots, cacheDir, last.label, rows);
  } finally {
    await opened?.index.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  if (ratios.length > 1) {
    const value = ratios.map((r) => `${r.toFixed(1)}x`).join(' -> ');
    rows.push(
      row(
        `10. worst scan / search ratio, ${stages.map((s) => s.label).join(' -> ')}`,
        value,
        'grows',
        ratios[1] > ratios[0],
      ),
    );
  }
  return notes;
}

/**
 * One part of the figures above, alone (`--only index-page|index-build`): 9p, or the build from
 * nothing with FTS5 then trigram (its time, throughput and stages), on the same home.
 */
export async function benchIndexPart(
  size: Size,
  part: 'index-page' | 'index-build',
): Promise<Row[]> {
  const data = ensureIndexHome(size);
  const rows: Row[] = [];
  const label = `${count(data.sessions)} sessions`;
  if (part === 'index-page') {
    await benchPageWhileBuilding(data.home, data.root, label, rows);
    return rows;
  }
  const was = process.env.INDEX_ENGINE;
  try {
    for (const engine of ['fts5', 'trigram']) {
      process.env.INDEX_ENGINE = engine;
      const cacheDir = path.join(data.root, `cache-${engine}`);
      fs.rmSync(cacheDir, { recursive: true, force: true });
      try {
        const took = buildInChild(data.home, [], cacheDir);
        const prefix = `9${engine === 'trigram' ? 't' : ''}.`;
        const value = `${ms(took.ms)} = ${mbps(data.transcriptBytes, took.ms)} (CPU ${ms(took.cpuMs)})`;
        rows.push(row(`${prefix} [${engine}] index build: ${label}, once`, value));
        stageRows(prefix, took, data.transcriptBytes, 40, rows);
      } finally {
        fs.rmSync(cacheDir, { recursive: true, force: true });
      }
    }
  } finally {
    if (was === undefined) delete process.env.INDEX_ENGINE;
    else process.env.INDEX_ENGINE = was;
  }
  return rows;
}

/** Indexes the stage's added sessions into the existing index (what a growing home costs). */
function grow(data: IndexHome, stage: Stage, cacheDir: string, rows: Row[]): void {
  const took = buildInChild(data.home, stage.roots, cacheDir);
  const added = `${count(data.extraSessions)} sessions, ${mb(data.extraTranscriptBytes)}`;
  const value = `${ms(took.ms)} = ${mbps(data.extraTranscriptBytes, took.ms)}`;
  rows.push(row(`9. [${stage.label}] indexing ${added} more into the index`, value));
  rows.push(
    row('9.   RSS growth (own process)', mb(took.growth), '< 200 MiB', took.growth < 200 * 2 ** 20),
  );
}
