import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import type { Worker } from 'node:worker_threads';
import { LARGE_VALUE_BYTES, InFlightBytes } from '../../src/ops/in-flight-bytes';
import { SessionPool } from '../../src/index/session-pool';
import { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { StageClock } from '../../src/index/stage-clock';
import { filler, planner, toolResult, userInput } from '../fixtures/records';
import { makeIndexHome, writeSession, type IndexHome } from './index-home';

/**
 * New sessions are read, parsed and redacted in the session workers, and only written on the
 * main thread: the rows they write are exactly those the main thread writes by itself (the
 * example home, twins, outputs and artifacts, planted secrets, a transcript of several batches).
 */

const T = '2026-05-01T10:00:00Z';
const KEY = 'AKIAIOSFODNN7EXAMPLE';
/** Blank lines between records: a transcript of several scan batches (8 MiB each). */
const BLANK = (' '.repeat(1023) + '\n').repeat(20 * 1024);

let h: IndexHome;

beforeAll(() => {
  h = makeIndexHome();
  fs.cpSync(path.join(__dirname, '../../example-home'), h.home, { recursive: true });
  writeSession(
    h.root,
    'ab000000-0000-4000-8000-0000000000a1',
    [
      userInput(0, T, { request: `deploy with ${KEY}`, localTime: 'x' }),
      planner(1, T, { content: `${filler(6000, 'p')} twinterm ${filler(6000, 'q')}` }),
      toolResult(2, T, `output password=hunter2hunter2 ${KEY}`),
    ],
    {
      files: {
        'notes.md': `artifact text ${KEY}`,
        [`secret-${KEY}.md`]: 'named with a key',
        '.system_generated/steps/2/output.txt': `step output ${KEY}`,
      },
    },
  );
  // A twin past LARGE_VALUE_BYTES: read whole for the index, counted among the large values.
  writeSession(h.root, 'ab000000-0000-4000-8000-0000000000a3', [
    userInput(0, T, { request: 'largetwin', localTime: 'x' }),
    planner(1, T, { content: `${filler(60_000, 'p')} bigtwin ${filler(60_000, 'q')}` }),
  ]);
  const big = writeSession(h.root, 'ab000000-0000-4000-8000-0000000000a2', [
    userInput(0, T, { request: 'bigfirst', localTime: 'x' }),
  ]);
  for (const f of ['transcript.jsonl', 'transcript_full.jsonl']) {
    fs.appendFileSync(path.join(big, '.system_generated/logs', f), BLANK);
  }
});

afterAll(() => h.remove());

/**
 * Every row the index wrote, by session folder (row ids and times left out); read before the
 * index closes, its texts through the engine: under INDEX_ENGINE=trigram the docs rows hold
 * keys and empty texts, the segments the texts (as oracle.spec reads them).
 */
function dump(index: SqliteHomeIndex): Record<string, unknown[]> {
  const db = index.opened.db;
  const text = (r: { id: number; text: string }) => index.trigram?.text(r.id) ?? r.text;
  const q = (sql: string) => db.prepare(sql).all();
  return {
    sessions: q(`SELECT * FROM sessions ORDER BY dir`).map((r) =>
      without(r, ['sid', 'indexed_at', 'stats_seq']),
    ),
    steps: q(
      `SELECT s.dir, t.* FROM steps t JOIN sessions s USING (sid) ORDER BY s.dir, t.position`,
    ).map((r) => without(r, ['sid'])),
    docs: q(
      `SELECT s.dir, d.position, d.field, d.name, d.text, d.rowid AS id FROM docs d
       JOIN sessions s USING (sid) ORDER BY s.dir, d.position, d.field, d.name`,
    ).map((r) => {
      const row = r as { id: number; text: string };
      return { ...(without(r, ['id']) as object), text: text(row) };
    }),
    secrets: q(
      `SELECT s.dir, x.* FROM secrets x JOIN sessions s USING (sid)
       ORDER BY s.dir, x.position, x.field, x.name, x.kind`,
    ).map((r) => without(r, ['sid'])),
    lineIndexes: q(
      `SELECT s.dir, l.* FROM line_indexes l JOIN sessions s USING (sid) ORDER BY s.dir`,
    ).map((r) => without(r, ['sid'])),
  };
}

function without(r: unknown, keys: string[]): unknown {
  const rest = { ...(r as Record<string, unknown>) };
  for (const k of keys) delete rest[k];
  return rest;
}

/** The process's pool, as far as a test looks into it. */
interface PoolInside {
  lanes: { worker: Worker | null; running: Map<number, unknown> }[];
  inFlight: SessionPool['inFlight'];
}

function poolInside(): PoolInside {
  return (SessionPool as unknown as { current: PoolInside }).current;
}

async function build(
  redact: boolean,
  workers: number,
  cacheDir: string,
  /** Kill the workers once they work on sessions (each session is then indexed here). */
  crash = false,
  largeValues: InFlightBytes | null = null,
) {
  const store = new BrainStore({ geminiHome: h.home, brainRoots: [], rescanMs: 3_600_000 });
  const warnings: string[] = [];
  const clock = new StageClock();
  const index = new SqliteHomeIndex(store, {
    cacheDir,
    redact,
    redactPatterns: [],
    maxRecordBytes: store.transcripts.maxRecordBytes,
    sessionWorkers: workers,
    stageClock: clock,
    largeValues,
    log: { log: () => undefined, warn: (m) => warnings.push(m) },
  });
  // Every session goes to a worker: the test waits for them to load first.
  for (let i = 0; workers > 0 && !index.sessionWorkers?.usable; i++) {
    if (i > 3000) throw new Error('the session workers did not start');
    await new Promise((r) => setTimeout(r, 10));
  }
  index.start();
  if (crash) {
    const pool = poolInside();
    // By the clock, not by turns: under a CI run's load 3,000 turns passed before the indexer's
    // first walk handed a worker its first session.
    const until = Date.now() + 60_000;
    while (!pool.lanes.some((l) => l.running.size > 0)) {
      if (Date.now() > until) throw new Error('no session reached a worker in 60 s');
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(pool.lanes.map((l) => l.worker?.terminate() ?? Promise.resolve(0)));
  }
  await index.caughtUp();
  const parsedInWorkers = index.workerClock?.ms.parse ?? 0;
  const rows = dump(index);
  await index.close();
  return { rows, warnings, parsedInWorkers, parsedHere: clock.ms.parse };
}

it.each([false, true])(
  'writes the same rows as the main thread alone (REDACT=%s)',
  async (redact) => {
    const here = await build(redact, 0, path.join(h.dir, `cache-main-${redact}`));
    const pooled = await build(redact, 2, path.join(h.dir, `cache-pool-${redact}`));
    expect(here.parsedInWorkers).toBe(0);
    expect(pooled.parsedInWorkers).toBeGreaterThan(0);
    // Nothing new was parsed on the main thread: every session went to a worker.
    expect(pooled.parsedHere).toBe(0);
    expect(pooled.warnings).toEqual(here.warnings);
    expect(pooled.rows.sessions.length).toBeGreaterThan(5);
    expect(pooled.rows.docs.some((d) => JSON.stringify(d).includes('twinterm'))).toBe(true);
    expect(pooled.rows).toEqual(here.rows);
  },
  120_000,
);

it('indexes the sessions a worker was working on when it died, on the main thread', async () => {
  const here = await build(true, 0, path.join(h.dir, 'cache-main-crash'));
  const crashed = await build(true, 2, path.join(h.dir, 'cache-pool-crash'), true);
  expect(crashed.warnings).toEqual(here.warnings);
  // Some were indexed here after the crash, the others in the workers started again.
  expect(crashed.parsedHere).toBeGreaterThan(0);
  expect(crashed.rows).toEqual(here.rows);
}, 120_000);

it('holds the writes handed to the main thread under the byte budget, and still indexes every session', async () => {
  const here = await build(true, 0, path.join(h.dir, 'cache-main-budget'));
  // A pool of its own (the one before ends itself when it is idle), with a budget of one byte:
  // no piece fits, so only the session this thread waits for may hand one over.
  const was = SessionPool.writeBytes;
  (SessionPool as unknown as { current: unknown }).current = null;
  SessionPool.writeBytes = 1;
  try {
    const pooled = await build(true, 2, path.join(h.dir, 'cache-pool-budget'));
    expect(pooled.parsedInWorkers).toBeGreaterThan(0);
    expect(pooled.parsedHere).toBe(0);
    expect(pooled.rows).toEqual(here.rows);
    const f = poolInside().inFlight;
    expect(f.largestPiece).toBeGreaterThan(10_000); // the twin's doc, the outputs' texts
    // Never more than one piece at a time: the one being written.
    expect(f.peak).toBeLessThanOrEqual(f.largestPiece);
    expect(f.bytes).toBe(0);
  } finally {
    SessionPool.writeBytes = was;
  }
}, 120_000);

it("counts the workers' large values in the process's budget (LARGE_VALUES_MB), waiting for room", async () => {
  const here = await build(true, 0, path.join(h.dir, 'cache-main-large'));
  const budget = new InFlightBytes(1024 * 1024);
  // An answer holds the whole budget for a while: the workers' large twin waits for it.
  const answer = { held: 0 };
  expect(await budget.take(answer, 1024 * 1024, 0)).toBe(true);
  const real = budget.take.bind(budget);
  const granted: { bytes: number; at: number }[] = [];
  jest.spyOn(budget, 'take').mockImplementation(async (holder, bytes, wait) => {
    const ok = await real(holder, bytes, wait);
    granted.push({ bytes, at: Date.now() });
    return ok;
  });
  let releasedAt = Infinity;
  const timer = setTimeout(() => {
    releasedAt = Date.now();
    budget.release(answer);
  }, 1500);
  try {
    const pooled = await build(true, 2, path.join(h.dir, 'cache-pool-large'), false, budget);
    expect(pooled.parsedHere).toBe(0);
    expect(pooled.rows).toEqual(here.rows);
    expect(pooled.rows.docs.some((d) => JSON.stringify(d).includes('bigtwin'))).toBe(true);
    expect(granted.some((g) => g.bytes >= LARGE_VALUE_BYTES)).toBe(true);
    expect(Math.min(...granted.map((g) => g.at))).toBeGreaterThanOrEqual(releasedAt);
    // Every batch gave its values back.
    expect(budget.inFlight).toBe(0);
  } finally {
    clearTimeout(timer);
  }
}, 120_000);
