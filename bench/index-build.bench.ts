import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INDEX_FILE } from '../src/index/sqlite/database';
import { SCHEMA } from '../src/index/sqlite/schema';
import type { IndexHome } from './generate-index-home';
import { mb, ms, row, type Row } from './report';
import type { Scanner } from './scan';
import { mbps, median } from './stats';
import { STAGES, type Stage } from '../src/index/stage-clock';
import { sessionWorkers } from '../src/index/sqlite/sqlite-home-index';

/**
 * Figure 9: the home index built from nothing over the bench home (the indexer's first pass,
 * as at the app's first start, in a process of its own), beside the engine's own bound (the
 * same texts put into the index's own tables by one INSERT … SELECT) and rg over the same files.
 */

export interface Built {
  /** Build time per transcript byte, for the append figure's proportion. */
  msPerByte: number;
  textBytes: number;
}

export function benchBuild(data: IndexHome, cacheDir: string, scan: Scanner, rows: Row[]): Built {
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const took = buildInChild(data.home, [], cacheDir);
  const { cpuMs, growth } = took;
  const file = path.join(cacheDir, INDEX_FILE);
  const n = data.sessions.toLocaleString('en');
  const files = `${mb(data.transcriptBytes)} transcripts (${mb(data.fileBytes)} all files)`;
  rows.push(
    row(`9. index build: ${n} sessions, ${files}, once`, `${ms(took.ms)} (CPU ${ms(cpuMs)})`),
  );
  rows.push(
    row(
      '9. build throughput, transcript bytes',
      mbps(data.transcriptBytes, took.ms),
      '>= 50 MB/s',
      data.transcriptBytes / 1e3 / took.ms >= 50,
    ),
  );
  const texts = `${took.texts.n.toLocaleString('en')} texts, ${mb(took.texts.bytes)}`;
  rows.push(row(`9. same, indexed text (${texts})`, mbps(took.texts.bytes, took.ms)));
  rows.push(row('9. transcript bytes the indexer read (progress.bytesRead)', mb(took.read)));
  stageRows('9.', took, data.transcriptBytes, 40, rows);
  rows.push(
    row(
      '9. RSS growth during the build (own process; peak, 2 ms samples)',
      mb(growth),
      '< 200 MiB',
      growth < 200 * 2 ** 20,
    ),
  );
  rows.push(row('9. index file size', mb(fs.statSync(file).size)));

  const engine = engineInsert(file, path.join(path.dirname(cacheDir), 'engine.sqlite'));
  rows.push(
    row(
      '9. baseline: pure FTS5 insert of the same texts, one INSERT … SELECT',
      `${ms(engine.ms)} = ${mbps(took.texts.bytes, engine.ms)} (CPU ${ms(engine.cpuMs)})`,
    ),
  );
  const ratios = `${(took.ms / engine.ms).toFixed(1)}x (CPU ${(cpuMs / engine.cpuMs).toFixed(1)}x)`;
  rows.push(row('9. build time / pure FTS5 insert time', ratios));

  const home = [data.home];
  scan.run(['supabase'], home); // warms the page cache
  const scans = [0, 1, 2].map(() => scan.run(['supabase'], home).ms);
  const scanMs = median(scans);
  rows.push(
    row(
      `9. baseline: ${scan.label} supabase, same files, warm, median of 3`,
      `${ms(scanMs)} = ${mbps(data.fileBytes, scanMs)}`,
    ),
  );
  return { msPerByte: took.ms / data.transcriptBytes, textBytes: took.texts.bytes };
}

export interface ChildBuild {
  ms: number;
  cpuMs: number;
  growth: number;
  texts: { n: number; bytes: number };
  /** Transcript bytes the indexer read. */
  read: number;
  /** The indexer's main-thread time by stage (see stage-clock.ts), and the segment worker's. */
  stages: Record<Stage, number> & {
    segments: { fold: number; trigrams: number; write: number } | null;
    /** The session workers' time by stage, summed over the workers (null: none). */
    workers?: Record<Stage, number> | null;
  };
}

/**
 * Each stage's throughput: the transcript bytes over the time the build spent in it, the rate
 * the build would reach if that stage were all it did (the target applies to every stage).
 * `other`: the rest of the build's time (yields to the event loop, the indexer's glue).
 */
export function stageRows(
  prefix: string,
  took: ChildBuild,
  transcriptBytes: number,
  target: number,
  rows: Row[],
): void {
  const rate = (stageMs: number) => {
    const ok = transcriptBytes / 1e3 / stageMs >= target;
    return [`${ms(stageMs)} = ${mbps(transcriptBytes, stageMs)}`, `>= ${target} MB/s`, ok] as const;
  };
  let sum = 0;
  for (const stage of STAGES) {
    sum += took.stages[stage];
    rows.push(
      row(`${prefix}   stage ${stage}: ${STAGE_NOTES[stage]}`, ...rate(took.stages[stage])),
    );
  }
  rows.push(row(`${prefix}   stage other: event loop turns, glue`, ...rate(took.ms - sum)));
  const workers = took.stages.workers;
  if (workers) {
    // Beside the main thread: each rate is that stage's bytes over one worker's share of it.
    const n = sessionWorkers(process.env.INDEX_WORKERS);
    for (const stage of STAGES) {
      if (workers[stage] === 0) continue;
      const note = `${STAGE_NOTES[stage]}, in ${n} session workers (per worker)`;
      rows.push(row(`${prefix}   workers ${stage}: ${note}`, ...rate(workers[stage] / n)));
    }
  }
  const seg = took.stages.segments;
  if (seg) {
    const w = seg.fold + seg.trigrams + seg.write;
    const parts = `fold ${ms(seg.fold)}, trigrams ${ms(seg.trigrams)}, write ${ms(seg.write)}`;
    rows.push(row(`${prefix}   segments, in the worker thread (${parts})`, ...rate(w)));
  }
}

const STAGE_NOTES: Record<Stage, string> = {
  walk: 'catalog; views, outputs, artifacts listed',
  read: 'transcripts, twins, files read',
  parse: 'JSONL lines parsed',
  texts: 'record texts (no redactor)',
  redaction: 'redactor (masks, findings, names)',
  facts: 'step facts, summary, stats',
  sqlite: 'index.sqlite statements and commits',
};

/** Runs the indexer's first pass over `home` (and `roots`) in a fresh process. */
export function buildInChild(home: string, roots: string[], cacheDir: string): ChildBuild {
  const child = path.join(__dirname, 'index-build-child.ts');
  const args = [
    '-r',
    'ts-node/register/transpile-only',
    child,
    home,
    cacheDir,
    JSON.stringify(roots),
  ];
  const out = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  if (out.status !== 0) throw new Error(`the index build child failed (${out.status})`);
  return JSON.parse(out.stdout) as ChildBuild;
}

/** Copies the index's texts into a fresh database of the same FTS5 layout; returns the time. */
function engineInsert(source: string, target: string): { ms: number; cpuMs: number } {
  for (const f of [target, `${target}-wal`]) fs.rmSync(f, { force: true });
  const db = new Database(target);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -32768');
    db.exec(SCHEMA);
    db.prepare('ATTACH ? AS src').run(source);
    const [t0, cpu0] = [performance.now(), process.cpuUsage()];
    db.exec(`BEGIN;
      INSERT INTO docs SELECT * FROM src.docs;
      INSERT INTO docs_fts (rowid, text) SELECT rowid, text FROM docs;
      COMMIT;`);
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    db.close();
    for (const f of [target, `${target}-wal`]) fs.rmSync(f, { force: true });
  }
}
