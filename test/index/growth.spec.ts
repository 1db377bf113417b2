import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { compactLine, filler, fullLine, jsonl, planner, userInput } from '../fixtures/records';
import { COMPACT, FULL, makeIndexHome, openIndex, type IndexHome } from './index-home';

/**
 * Growth while indexing: a writer appends to a session (both transcripts, lines written in
 * two pieces, some records truncated so their text is in the full twin only) while the index
 * builds it in several batches and keeps passing over it. Once the writer stops, one
 * caughtUp() leaves every record indexed exactly once, full-tier texts included.
 */

const ID = 'a7000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';

/** Record i: a common term, a position tag; every 7th is truncated with a term in its middle. */
function record(i: number) {
  const tag = `growthmark n${String(i).padStart(5, '0')}n`;
  if (i % 7 === 3) {
    return planner(i, T, { content: `${tag} ${filler(3000, 'x')} midterm ${filler(3000, 'y')}` });
  }
  return planner(i, T, { content: `${tag} ${filler(2500, 'z')}` });
}

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;

beforeAll(() => {
  h = makeIndexHome();
});

afterAll(async () => {
  await ix?.close();
  h.remove();
});

it('a session appended to while it is being indexed ends up complete and exact', async () => {
  const dir = path.join(h.root, ID);
  const compact = path.join(dir, COMPACT);
  const full = path.join(dir, FULL);
  // About 4.5 MB to start with: the first pass takes more than one batch.
  const first = [userInput(0, T, { request: 'grow', localTime: 'x' })];
  for (let i = 1; i < 1600; i++) first.push(record(i));
  fs.mkdirSync(path.dirname(compact), { recursive: true });
  fs.writeFileSync(compact, jsonl(first.map(compactLine)));
  fs.writeFileSync(full, jsonl(first.map(fullLine)));

  ix = openIndex(h.home, h.cacheDir);
  let n = first.length;
  let writing = true;
  // The compact line in two writes, a tick apart; the full twin before it, or (every fifth
  // record) a tick after it.
  const tick = () => new Promise((r) => setTimeout(r, 1));
  const writer = (async () => {
    while (writing) {
      const late = n % 5 === 0;
      const rec = record(n++);
      if (!late) fs.appendFileSync(full, fullLine(rec) + '\n');
      const line = compactLine(rec) + '\n';
      fs.appendFileSync(compact, line.slice(0, 40));
      await tick();
      fs.appendFileSync(compact, line.slice(40));
      await tick();
      if (late) fs.appendFileSync(full, fullLine(rec) + '\n');
    }
  })();
  const passes = (async () => {
    // Passes go on while the writer adds 60 records (the first pass meets it from the start).
    while (n < first.length + 60) await ix.index.caughtUp();
  })();
  await passes;
  writing = false;
  await writer;

  await ix.index.caughtUp();
  const hits = await ix.searchAll(['growthmark'], { order: 'NEWEST_FIRST', first: 500 });
  expect(hits.map((x) => x.position)).toEqual(Array.from({ length: n - 1 }, (_, i) => i + 1));
  expect(hits.every((x) => x.field === 'CONTENT' && x.matchCount === 1)).toBe(true);
  for (const hit of hits) {
    expect(hit.snippet.slice(0, 18)).toBe(`growthmark n${String(hit.position).padStart(5, '0')}n`);
  }
  const truncated = Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 === 3);
  const mid = await ix.searchAll(['midterm'], { order: 'NEWEST_FIRST', first: 500 });
  expect(mid.map((x) => x.position)).toEqual(truncated);
  expect(ix.index.status(await ix.dirs())).toMatchObject({
    state: 'READY',
    sessionsIndexed: 1,
    sessionsTotal: 1,
    bytesIndexed: fs.statSync(compact).size,
  });
  const plain = new BrainStore({ geminiHome: h.home, brainRoots: [], rescanMs: 3_600_000 });
  const listed = (await plain.catalog()).newestFirst[0];
  const fromFiles = await plain.summary(listed);
  expect(fromFiles.stepCount).toBe(n);
  expect(await ix.store.summary((await ix.store.refresh()).newestFirst[0])).toEqual(fromFiles);
});
