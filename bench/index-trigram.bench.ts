import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { matchExpression } from '../src/index/sqlite/search';
import { TrigramIndex } from '../src/index/trigram/trigram-index';
import { WorkerBuilder } from '../src/index/trigram/worker-builder';

/**
 * The trigram engine beside FTS5 (today's engine) and a grep scan, over the same synthetic texts
 * in the same run: build MiB/s, disk per text byte, exact counts of a common, a rare and a
 * 3-term query (first asking, then repeated). `node -r ts-node/register/transpile-only
 * bench/index-trigram.bench.ts [MiB]`. Engine only: not the whole indexing pipeline.
 */

const MIB = Number(process.argv[2] ?? 48);
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'qu', 'Ba', 'é'];
const vocab = Array.from({ length: 20000 }, (_, i) => {
  let w = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / 12)) w += syllables[n % 12];
  return w + (i % 3 === 0 ? 'x' : '');
});
function text(): string {
  const words: string[] = [];
  const n = 20 + Math.floor(rand() * 400);
  for (let i = 0; i < n; i++) words.push(vocab[Math.floor(vocab.length * rand() ** 3)]);
  return words.join(' ');
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

async function main(): Promise<void> {
  const texts: string[] = [];
  let bytes = 0;
  while (bytes < MIB * 1048576) {
    const t = text();
    texts.push(t);
    bytes += Buffer.byteLength(t);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-trigram-'));
  const dump = path.join(dir, 'texts.txt');
  fs.writeFileSync(dump, texts.join('\n'));
  const queries: [string, string[]][] = [
    ['common', [vocab[150]]],
    ['rare', [vocab[9001]]],
    ['3 terms', [vocab[200], vocab[420], vocab[999]]],
  ];
  const rows: string[] = [];
  const row = (...c: (string | number)[]) => rows.push(c.map(String).join(' | '));
  row(
    'engine',
    'build MiB/s',
    'disk / text',
    ...queries.map(([q]) => `${q} first/repeat ms (count)`),
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
  const ftsCells = queries.map(([, terms]) => {
    const q = db.prepare('SELECT count(*) FROM docs_fts WHERE docs_fts MATCH ?').pluck();
    const [n, first] = time(() => q.get(matchExpression(terms)) as number);
    const [, again] = time(() => q.get(matchExpression(terms)));
    return `${first.toFixed(1)}/${again.toFixed(1)} (${n})`;
  });
  row(
    'FTS5 trigram',
    (bytes / 1048576 / (ftsMs / 1000)).toFixed(1),
    (ftsSize / bytes).toFixed(2),
    ...ftsCells,
  );
  db.close();

  const rss0 = process.memoryUsage().rss;
  const index = new TrigramIndex(path.join(dir, 'tri'), {
    original: (id) => texts[id - 1],
    builder: new WorkerBuilder(),
    segmentBytes: 16 << 20,
  });
  const [, triMs] = await (async () => {
    const t = performance.now();
    for (let i = 0; i < texts.length; i++) {
      index.add(i + 1, texts[i]);
      if (index.full) await index.flush();
    }
    await index.flush();
    return [null, performance.now() - t];
  })();
  const rss = process.memoryUsage().rss - rss0;
  const triSize = fs
    .readdirSync(path.join(dir, 'tri'))
    .reduce((n, f) => n + fs.statSync(path.join(dir, 'tri', f)).size, 0);
  const triCells = queries.map(([, terms]) => {
    const [m, first] = time(() => index.match(terms));
    const [, again] = time(() => index.match(terms));
    return `${first.toFixed(1)}/${again.toFixed(1)} (${m.length})`;
  });
  row(
    'trigram segments, 1 worker',
    (bytes / 1048576 / (triMs / 1000)).toFixed(1),
    (triSize / bytes).toFixed(2),
    ...triCells,
  );
  const grepCells = queries.map(([, terms]) => {
    const [out, ms] = time(() => {
      try {
        return execFileSync('grep', ['-c', '-i', '-F', terms[0], dump]).toString().trim();
      } catch {
        return '0';
      }
    });
    return `${ms.toFixed(1)} (${out} lines, term 1)`;
  });
  row('grep -c -i -F (rg not installed)', '-', '-', ...grepCells);
  const s = index.times;
  const rate = (ms: number) => (s.bytes / 1048576 / (ms / 1000)).toFixed(1);
  console.log(
    `${texts.length} texts, ${(bytes / 1048576).toFixed(1)} MiB; trigram RSS growth ${(rss / 1048576).toFixed(0)} MB`,
  );
  console.log(
    `trigram stages in the worker (MiB/s): fold ${rate(s.fold)}, trigrams ${rate(s.trigrams)}, write ${rate(s.write)}`,
  );
  for (const r of rows) console.log(r);
  await index.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

void main();
