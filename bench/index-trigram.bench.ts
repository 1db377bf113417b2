import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchExpression } from '../src/index/sqlite/search';
import { snippetOf } from '../src/index/snippet';
import type { TextMatch } from '../src/index/trigram/match';
import { TrigramIndex } from '../src/index/trigram/trigram-index';
import { WorkerBuilder } from '../src/index/trigram/worker-builder';
import { rng } from './generate';
import { RARE_SESSIONS, RARE_SENTENCE, RARE_TERM } from './generate-index-home';
import { loadReal, Mutator } from './real-records';
import { scanner } from './scan';

/**
 * The trigram engine beside FTS5 (today's engine) and a grep scan, over the same synthetic texts
 * in the same run: build MiB/s, disk per text byte, and the exact count with the first 20 hits
 * (by BM25, with snippets) of a common, a rare and a 3-term query (first asking, then repeated),
 * beside `rg -uu -i -c -F` over the same texts, one a line. `node -r ts-node/register/transpile-only
 * bench/index-trigram.bench.ts [MiB]`. Engine only: not the whole indexing pipeline.
 */

const MIB = Number(process.argv[2] ?? 64);
const RUNS = 5;

/**
 * Texts cut from the real sessions' texts (test/fixtures/real), varied as the index home's are,
 * sized like steps (a few hundred bytes to tens of KB); the rare term is planted in 3 of them.
 */
function makeTexts(): string[] {
  const r = rng(42);
  const real = loadReal();
  const m = new Mutator(20_000, r);
  const pools = [
    real.pools.request,
    real.pools.thinking,
    real.pools.planner,
    real.pools.result,
    real.pools.result,
    real.pools.artifact,
  ];
  const texts: string[] = [];
  let bytes = 0;
  while (bytes < MIB * 1048576) {
    const len = Math.max(20, Math.floor(-Math.log(1 - r()) * 1500));
    const t = m.text(pools[Math.floor(r() * pools.length)], len);
    texts.push(t);
    bytes += Buffer.byteLength(t);
  }
  for (let k = 1; k <= RARE_SESSIONS; k++) {
    const i = Math.floor((texts.length * k) / (RARE_SESSIONS + 1));
    texts[i] = `${RARE_SENTENCE}\n${texts[i]}`;
  }
  return texts;
}

/** Asked once before the measured queries (the code paths compiled). */
const WARM_UP = 'function';

const K1 = 1.2;
const B = 0.75;

/** The first 20 hits by BM25 (as the trigram searcher scores them) with their snippets. */
function first20(index: TrigramIndex, matches: TextMatch[], terms: string[], texts: string[]) {
  const { texts: n, tokens } = index.totals();
  const avg = n === 0 ? 1 : tokens / n;
  const idf = terms.map((t) => {
    const df = terms.length === 1 ? matches.length : index.documents(t);
    return Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));
  });
  const scored = matches.map((m) => {
    const norm = K1 * (1 - B + (B * m.tokens) / avg);
    let score = 0;
    m.counts.forEach((f, i) => (score += (idf[i] * f * (K1 + 1)) / (f + norm)));
    return { id: m.id, score };
  });
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  // The texts as the segments give them back (the one copy the engine keeps).
  return scored.slice(0, 20).map((h) => snippetOf(index.text(h.id) ?? texts[h.id - 1], terms));
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

/**
 * A query's first asking and its repeats: `open` gives a fresh handle on the engine's files
 * (no query cache; the OS's page cache and the JIT are warm, as in a server that answered other
 * queries), asked once per handle, 3 handles (the median); then the median of RUNS more askings
 * on the last handle.
 */
function runs<H>(open: () => H, ask: (h: H) => unknown, close: (h: H) => void) {
  const first: number[] = [];
  const cpu: number[] = [];
  let h = open();
  for (let i = 0; i < 3; i++) {
    if (i > 0) {
      close(h);
      h = open();
    }
    const c0 = process.cpuUsage();
    first.push(time(() => ask(h))[1]);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const repeat: number[] = [];
  for (let i = 0; i < RUNS; i++) repeat.push(time(() => ask(h))[1]);
  close(h);
  return { first: median(first), cpu: median(cpu), repeat: median(repeat) };
}

const cell = (t: { first: number; cpu: number; repeat: number }, n: number | string) =>
  `${t.first.toFixed(1)} (CPU ${t.cpu.toFixed(1)})/${t.repeat.toFixed(1)} (${n})`;

async function main(): Promise<void> {
  const load0 = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const texts = makeTexts();
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-trigram-'));
  // One text a line, as a transcript holds one record a line (what rg scans).
  const dump = path.join(dir, 'texts.jsonl');
  fs.writeFileSync(dump, texts.map((t) => JSON.stringify(t)).join('\n'));
  const queries: [string, string[]][] = [
    ['common', ['supabase']],
    ['rare', [RARE_TERM]],
    ['3 terms', ['supabase', 'table', 'error']],
  ];
  const rows: string[] = [];
  const row = (...c: (string | number)[]) => rows.push(c.map(String).join(' | '));
  row(
    'engine',
    'build MiB/s',
    'disk / text',
    ...queries.map(([q]) => `${q}: first (CPU)/repeat ms (texts)`),
  );

  // FTS5, as the SQLite engine stores texts (docs + external-content trigram table).
  const dbFile = path.join(dir, 'fts.sqlite');
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE docs (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
    CREATE VIRTUAL TABLE docs_fts USING fts5(text, content='docs', content_rowid='rowid', tokenize='trigram', detail='full');`);
  const ins = db.prepare('INSERT INTO docs (rowid, text) VALUES (?, ?)');
  const fts = db.prepare('INSERT INTO docs_fts (rowid, text) VALUES (?, ?)');
  const [, ftsMs] = time(() =>
    db.transaction(() => texts.forEach((t, i) => (ins.run(i + 1, t), fts.run(i + 1, t))))(),
  );
  db.pragma('wal_checkpoint(TRUNCATE)');
  const ftsSize = fs.statSync(dbFile).size;
  db.close();
  // Exact count and the first 20 by bm25 with their snippets, as the FTS5 searcher asks.
  const ftsOpen = () => {
    const d = new Database(dbFile, { readonly: true });
    const count = d.prepare('SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?').pluck();
    const top = d
      .prepare(
        'SELECT rowid FROM docs_fts WHERE docs_fts MATCH ? ORDER BY bm25(docs_fts), rowid LIMIT 20',
      )
      .pluck();
    return { d, count, top };
  };
  const ftsAsk = (h: ReturnType<typeof ftsOpen>, terms: string[]) => {
    const n = h.count.get(matchExpression(terms)) as number;
    for (const id of h.top.all(matchExpression(terms)) as number[]) snippetOf(texts[id - 1], terms);
    return n;
  };
  const ftsClose = (h: ReturnType<typeof ftsOpen>) => h.d.close();
  runs(ftsOpen, (h) => ftsAsk(h, [WARM_UP]), ftsClose);
  const ftsCells = queries.map(([, terms]) => {
    let n = 0;
    const t = runs(ftsOpen, (h) => (n = ftsAsk(h, terms)), ftsClose);
    return cell(t, n);
  });
  row(
    'FTS5 trigram',
    (bytes / 1048576 / (ftsMs / 1000)).toFixed(1),
    (ftsSize / bytes).toFixed(2),
    ...ftsCells,
  );

  const rss0 = process.memoryUsage().rss;
  const index = new TrigramIndex(path.join(dir, 'tri'), {
    builder: new WorkerBuilder(),
    segmentBytes: 16 << 20,
  });
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i++) {
    index.add(i + 1, texts[i]);
    if (index.full) await index.flush();
  }
  await index.flush();
  const triMs = performance.now() - t0;
  const rss = process.memoryUsage().rss - rss0;
  const triSize = fs
    .readdirSync(path.join(dir, 'tri'))
    .reduce((n, f) => n + fs.statSync(path.join(dir, 'tri', f)).size, 0);
  await index.close();
  // A handle that only reads (a second process could open the files so).
  const triOpen = () => new TrigramIndex(path.join(dir, 'tri'));
  const triAsk = (h: TrigramIndex, terms: string[]) => {
    const m = h.match(terms);
    first20(h, m, terms, texts);
    return m.length;
  };
  const triClose = (h: TrigramIndex) => void h.close();
  runs(triOpen, (h) => triAsk(h, [WARM_UP]), triClose);
  const triTimes = queries.map(([, terms]) => {
    let n = 0;
    const t = runs(triOpen, (h) => (n = triAsk(h, terms)), triClose);
    return { ...t, n };
  });
  const segments = fs.readdirSync(path.join(dir, 'tri')).filter((f) => f.endsWith('.tri')).length;
  row(
    `trigram, ${segments} segments`,
    (bytes / 1048576 / (triMs / 1000)).toFixed(1),
    (triSize / bytes).toFixed(2),
    ...triTimes.map((t) => cell(t, t.n)),
  );
  const scan = scanner();
  const scanTimes = queries.map(([, terms]) => {
    const ms: number[] = [];
    let lines = 0;
    for (let i = 0; i < 3; i++) {
      const out = scan.run(terms, [dump]);
      ms.push(out.ms);
      lines = out.lines;
    }
    return { ms: Math.min(...ms), lines };
  });
  row(scan.label, '-', '-', ...scanTimes.map((s) => `${s.ms.toFixed(1)} (${s.lines} lines)`));
  row(
    'scan / trigram first (target >= 20x)',
    '-',
    '-',
    ...scanTimes.map((s, i) => `${(s.ms / triTimes[i].first).toFixed(1)}x`),
  );
  const s = index.times;
  const rate = (ms: number) => (s.bytes / 1048576 / (ms / 1000)).toFixed(1);
  console.log(
    `${texts.length} texts, ${(bytes / 1048576).toFixed(1)} MiB; trigram RSS growth ${(rss / 1048576).toFixed(0)} MB; first asking: median of 3 fresh handles; repeat: median of ${RUNS} askings`,
  );
  console.log(
    `trigram stages in the worker (MiB/s): fold ${rate(s.fold)}, trigrams ${rate(s.trigrams)}, write ${rate(s.write)}`,
  );
  for (const r of rows) console.log(r);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (start ${load0})`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

void main();
