import * as fs from 'node:fs';
import * as path from 'node:path';
import { compactLine, fullLine, jsonl, planner, userInput } from '../../fixtures/records';
import { fold } from '../../../src/index/trigram/fold';
import {
  appendRecords,
  COMPACT,
  FULL,
  makeIndexHome,
  openIndex,
  writeSession,
  type IndexHome,
} from '../index-home';

/**
 * The trigram engine behind the HomeIndex (INDEX_ENGINE=trigram): growth in every form the
 * files take is searchable (or gone) within 2 s without anyone waiting on the indexer, merges
 * leave no dead text, and with REDACT=on no secret is in any file under CACHE_DIR.
 */

process.env.INDEX_ENGINE = 'trigram';

const T = '2026-05-01T10:00:00Z';
const id = (n: number) => `c3000000-0000-4000-8000-00000000000${n}`;

let h: IndexHome;
beforeEach(() => {
  h = makeIndexHome();
});
afterEach(() => h.remove());

/** Polls until `check` holds, for at most 2 s; returns how long it took. */
async function within2s(check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > 2000) throw new Error('not within 2 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

function rewrite(dir: string, content: string, byRename: boolean): void {
  const records = [
    userInput(0, T, { request: 'start', localTime: 'x' }),
    planner(1, T, { content }),
  ];
  for (const [rel, line] of [
    [COMPACT, compactLine],
    [FULL, fullLine],
  ] as const) {
    const file = path.join(dir, rel);
    const data = jsonl(records.map(line));
    if (!byRename) fs.writeFileSync(file, data);
    else {
      fs.writeFileSync(`${file}.new`, data);
      fs.renameSync(`${file}.new`, file);
    }
  }
}

describe('the trigram engine behind the HomeIndex', () => {
  it('appends, rewrites in place and by rename, and deletions show within 2 s; merges drop the dead', async () => {
    const dirs = [1, 2, 3].map((n) =>
      writeSession(h.root, id(n), [
        userInput(0, T, { request: 'start', localTime: 'x' }),
        planner(1, T, { content: `first words of session${n} oldmarker` }),
      ]),
    );
    const ix = openIndex(h.home, h.cacheDir);
    await ix.index.caughtUp();
    const count = async (term: string) => (await ix.search([term])).totalCount;
    expect(await count('oldmarker')).toBe(3);

    appendRecords(dirs[0], [planner(2, T, { content: 'appended newmarker text' })]);
    await within2s(async () => (await count('NEWMARKER')) === 1);

    rewrite(dirs[1], 'rewritten in place inplacemarker', false);
    await within2s(
      async () => (await count('inplacemarker')) === 1 && (await count('oldmarker')) === 2,
    );

    rewrite(dirs[2], 'rewritten by rename renamemarker', true);
    await within2s(
      async () => (await count('renamemarker')) === 1 && (await count('oldmarker')) === 1,
    );

    fs.rmSync(dirs[0], { recursive: true });
    await within2s(
      async () => (await count('newmarker')) === 0 && (await count('oldmarker')) === 0,
    );

    // Search hides a removed session before the indexer has deleted its texts: wait for a
    // pass to end, or the merge may fold in texts that die right after (seen at load 9).
    await ix.index.caughtUp();
    const trigram = ix.index.trigram;
    if (!trigram) throw new Error('the trigram engine is not in use');
    await trigram.flush();
    expect(trigram.census().dead).toBeGreaterThan(0);
    await trigram.merge();
    // Left: sessions 2 and 3, each its user request (the request and the step's content) and
    // one planner text: every text the docs table holds, and no other.
    const docs = ix.index.opened.db.prepare('SELECT count(*) FROM docs').pluck().get();
    expect(docs).toBe(6);
    expect(trigram.census()).toEqual({ segments: 1, texts: 6, dead: 0 });
    expect(await count('rewritten')).toBe(2);
    await ix.close();
  });

  it('a restart reads the segments and answers as before, adding no text again', async () => {
    writeSession(h.root, id(1), [planner(0, T, { content: 'persisted restartmarker words' })]);
    const first = openIndex(h.home, h.cacheDir);
    await first.index.caughtUp();
    const before = await first.search(['restartmarker']);
    await first.close();
    const again = openIndex(h.home, h.cacheDir, { start: false });
    expect(await again.search(['restartmarker'])).toEqual(before);
    expect(before.totalCount).toBe(1);
    expect(again.index.trigram?.waiting).toBe(0);
    await again.close();
  });

  it('keeps each text once: in the segments, with its case; the docs rows keep only keys', async () => {
    writeSession(h.root, id(1), [
      userInput(0, T, { request: 'start', localTime: 'x' }),
      planner(1, T, { content: 'Once Only-Copy MARKER words, then more words' }),
    ]);
    const ix = openIndex(h.home, h.cacheDir);
    await ix.index.caughtUp();
    const page = await ix.search(['only-copy marker']);
    expect(page.hits.map((x) => [x.snippet, x.matchCount, x.highlights])).toEqual([
      ['Once Only-Copy MARKER words, then more words', 1, [{ start: 5, length: 16 }]],
    ]);
    const texts = ix.index.opened.db.prepare("SELECT count(*) FROM docs WHERE text <> ''");
    expect(texts.pluck().get()).toBe(0);
    await ix.close();
    const files = fs.readdirSync(h.cacheDir);
    const holding = files.filter((f) => {
      const bytes = fs.readFileSync(path.join(h.cacheDir, f));
      return bytes.includes('only-copy marker') || bytes.includes('Only-Copy MARKER');
    });
    expect(holding).toEqual([expect.stringMatching(/^trigram-[0-9a-f]+-seg-\d+\.tri$/)]);
  });

  it('segments lost in a crash: their sessions are read again, and answer as before', async () => {
    for (const n of [1, 2]) {
      writeSession(h.root, id(n), [planner(0, T, { content: `lostmarker of session ${n}` })]);
    }
    const first = openIndex(h.home, h.cacheDir);
    await first.index.caughtUp();
    const before = await first.search(['lostmarker']);
    await first.close();
    // What a crash between the SQLite commit and the segment's rename leaves: rows, no texts.
    for (const f of fs.readdirSync(h.cacheDir)) {
      if (f.startsWith('trigram-')) fs.rmSync(path.join(h.cacheDir, f));
    }
    const again = openIndex(h.home, h.cacheDir);
    await again.index.caughtUp();
    expect(before.totalCount).toBe(2);
    // The same hits; only their sessions' row ids (the keys' last tie-break, `copy`) are new.
    const copyless = (page: typeof before) =>
      page.hits.map((x) => ({ ...x, key: { ...x.key, copy: 0 } }));
    expect(copyless(await again.search(['lostmarker']))).toEqual(copyless(before));
    expect(again.warnings).toEqual([
      'index: the texts of 2 session(s) were lost (the process ended before their segment was written): they are indexed again',
    ]);
    await again.close();
  });

  it('an index of the earlier layout (texts in the docs rows) is rebuilt', async () => {
    writeSession(h.root, id(1), [planner(0, T, { content: 'layoutmarker words' })]);
    const first = openIndex(h.home, h.cacheDir);
    await first.index.caughtUp();
    first.index.opened.db.prepare("DELETE FROM meta WHERE key = 'trigram_layout'").run();
    await first.close();
    const again = openIndex(h.home, h.cacheDir);
    await again.index.caughtUp();
    expect(again.warnings).toEqual([
      `the index file ${path.join(h.cacheDir, 'index.sqlite')} has trigram segments of layout 1, not 2: it is rebuilt`,
    ]);
    expect((await again.search(['layoutmarker'])).totalCount).toBe(1);
    await again.close();
  });

  it('REDACT=on: no planted secret is in any file under CACHE_DIR, as written or folded', async () => {
    const secrets = ['AKIAIOSFODNN7EXAMPLE', 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'];
    writeSession(h.root, id(1), [
      planner(0, T, { content: `key ${secrets[0]} and token ${secrets[1]} plantedmarker` }),
    ]);
    const ix = openIndex(h.home, h.cacheDir, { redact: true });
    await ix.index.caughtUp();
    expect((await ix.search(['plantedmarker'])).totalCount).toBe(1);
    expect((await ix.search(['AKIAIOSFODNN7'])).totalCount).toBe(0);
    await ix.close();
    const files = fs.readdirSync(h.cacheDir);
    expect(files.filter((f) => f.endsWith('.tri')).length).toBeGreaterThan(0);
    for (const name of files) {
      const bytes = fs.readFileSync(path.join(h.cacheDir, name));
      for (const s of secrets.flatMap((x) => [x, fold(x)])) {
        expect([name, s, bytes.includes(s)]).toEqual([name, s, false]);
      }
    }
  });
});
