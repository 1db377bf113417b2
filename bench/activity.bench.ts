import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { BrainStore } from '../src/brain/store';
import { locateViews } from '../src/brain/transcript/view';
import type { SessionEntry } from '../src/brain/types';
import { REAL_HOME } from '../test/fixtures/brain-home';
import { entryAt } from '../test/store-helpers';
import { ensureActivitySession } from './generate-activity';
import type { BenchData } from './generate';
import { ms, row, type Row } from './report';

/**
 * Figure 8: commands + fileChanges of one session, cold (a new store: nothing cached, the
 * page cache warm) and warm (cached), beside a baseline measured in the same run: parsing the
 * same session's compact view, which every answer about a session starts with.
 */

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const kib = (v: number): string => `${(v / 1024).toFixed(0)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const fresh = () => new BrainStore({ geminiHome: null, brainRoots: [], rescanMs: 3_600_000 });
const both = (s: BrainStore, e: SessionEntry) => Promise.all([s.commands(e), s.fileChanges(e)]);

/** The largest transcript among the real sessions kept with the project. */
function largestReal(): string {
  const brain = path.join(REAL_HOME, 'antigravity-ide', 'brain');
  const size = (id: string) =>
    fs
      .readdirSync(path.join(brain, id, '.system_generated', 'logs'))
      .reduce(
        (n, f) => n + fs.statSync(path.join(brain, id, '.system_generated', 'logs', f)).size,
        0,
      );
  const [id] = fs.readdirSync(brain).sort((a, b) => size(b) - size(a));
  return path.join(brain, id);
}

/** The answer as a client gets it: every scalar field, steps and results as indexes. */
function answerBytes(answer: Awaited<ReturnType<typeof both>>): number {
  const flat = answer.map((list) =>
    list.map((item) => ({ ...item, step: item.step.index, result: item.result?.index ?? null })),
  );
  return Buffer.byteLength(JSON.stringify(flat));
}

async function benchOne(label: string, dir: string, rows: Row[]): Promise<void> {
  const e = entryAt(dir);
  const views = await locateViews(e.realDir);
  const transcript =
    (views.compact?.size ?? 0) + (views.full && views.full !== views.compact ? views.full.size : 0);
  const first = await both(fresh(), e);
  const [commands, changes] = first.map((l) => l.length);
  const title = `8. ${label}: ${commands} commands, ${changes} file changes`;

  const cold: number[] = [];
  const baseCold: number[] = [];
  for (let i = 0; i < 7; i++) {
    baseCold.push(await timed(() => fresh().records(e)));
    cold.push(await timed(() => both(fresh(), e)));
  }
  const store = fresh();
  await both(store, e);
  const warm: number[] = [];
  const baseWarm: number[] = [];
  for (let i = 0; i < 50; i++) {
    baseWarm.push(await timed(() => store.records(e)));
    warm.push(await timed(() => both(store, e)));
  }

  // Heap the derived lists keep, beyond the parsed compact view and the full view's index.
  const kept = fresh();
  await kept.records(e);
  if (views.full) await kept.transcripts.index(e.realDir, views.full);
  gc();
  const before = process.memoryUsage().heapUsed;
  const answer = await both(kept, e);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  const bytes = answerBytes(answer);

  const [c, w] = [median(cold), median(warm)];
  rows.push(row(`${title}; cold, median of 7`, ms(c), '< 200 ms', c < 200));
  rows.push(row(`8.   baseline: parse its compact view, cold, median of 7`, ms(median(baseCold))));
  rows.push(row(`8. ${label}: warm, median of 50`, ms(w), '< 20 ms', w < 20));
  rows.push(row(`8.   baseline: its records, warm, median of 50`, ms(median(baseWarm))));
  rows.push(
    row(
      `8. ${label}: heap kept / answer JSON (${kib(retained)} / ${kib(bytes)}; transcript ${kib(transcript)})`,
      `${(retained / bytes).toFixed(2)}x`,
      '< 4x the answer',
      retained < 4 * bytes,
    ),
  );
}

export async function benchActivity(data: BenchData, rows: Row[]): Promise<void> {
  await benchOne('largest real session', largestReal(), rows);
  await benchOne('synthetic 5,000 steps', ensureActivitySession(data.root), rows);
}
