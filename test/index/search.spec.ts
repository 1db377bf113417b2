import type { SearchHitRow } from '../../src/index/home-index';
import { planner, userInput, type FullRecord } from '../fixtures/records';
import { makeIndexHome, openIndex, where, writeSession, type IndexHome } from './index-home';

/**
 * Search answers per the contract's Meanings: snippets, highlights, matchCount, both orders
 * with their tie rules, keyset pagination, quoted phrases, case and non-ASCII text.
 */

const sid = (n: number) => `b2000000-0000-4000-8000-00000000000${n}`;
const [S1, S2, S3, S4] = [1, 2, 3, 4].map(sid);

/** Docs whose text is exactly TIE score alike, so only the tie rules order them. */
const TIE = 'tieword alpha';

function tieSession(createdAt: string): FullRecord[] {
  return [
    userInput(0, createdAt, { request: TIE, localTime: '2026-05-01T12:00:00+02:00' }),
    planner(1, createdAt, { content: TIE, thinking: TIE }),
  ];
}

const tieFiles = {
  '.system_generated/steps/1/output.txt': TIE,
  'b.md': TIE,
  'a.md': TIE,
};

/** Snippet texts (one record each, in this order, in S4). */
const WINDOW = 'a'.repeat(400) + 'FindMe mid ' + 'b'.repeat(300) + 'findme';
const OVERLAP = 'ooo oooo ooooooo';
const PHRASES = ['please run sudo rm -rf /tmp now', 'rm  -rf twice'];
const ACCENTS = 'Le Café Crème est prêt 😀🦊 fin';
const SYNTAX = 'config: key="value" (x*y) NEAR/3 ^start -minus OR and';
// 'x', 250 pairs, 'y': the 100 code units before the term start on a low surrogate.
const PAIRS_START = 'x' + '😀'.repeat(250) + 'y' + 'target' + 'z' + '🦊'.repeat(200);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;

beforeAll(async () => {
  h = makeIndexHome();
  writeSession(h.root, S1, tieSession('2026-05-01T10:00:00Z'), { files: tieFiles });
  writeSession(h.root, S2, tieSession('2026-05-03T10:00:00Z'), { files: tieFiles });
  writeSession(h.root, S3, tieSession('2026-05-02T10:00:00Z'), { files: tieFiles });
  const texts = [WINDOW, OVERLAP, ...PHRASES, ACCENTS, PAIRS_START, SYNTAX];
  writeSession(h.root, S4, [
    ...texts.map((content, i) => planner(i, '2026-04-01T10:00:00Z', { content })),
    planner(texts.length, '2026-04-01T10:00:00Z', { content: 'alphaonly', thinking: 'betaonly' }),
  ]);
  ix = openIndex(h.home, h.cacheDir);
  await ix.index.caughtUp();
});

afterAll(async () => {
  await ix.close();
  h.remove();
});

const one = async (terms: string[]): Promise<SearchHitRow> => {
  const page = await ix.search(terms);
  expect(page.hits).toHaveLength(1);
  return page.hits[0];
};

describe('snippets, highlights and matchCount', () => {
  it('300 code units around the first occurrence of the first term, 100 before it', async () => {
    const hit = await one(['findme', 'mid']);
    expect(where(hit)).toBe(`${S4} CONTENT step 0`);
    expect(hit.snippet).toBe(WINDOW.slice(300, 600));
    expect(hit.highlights).toEqual([
      { start: 100, length: 6 },
      { start: 107, length: 3 },
    ]);
    // Case-insensitive, both occurrences of the first term in the whole text.
    expect(hit.matchCount).toBe(2);
    expect((await one(['mid', 'findme'])).matchCount).toBe(1);
  });

  it('counts non-overlapping occurrences, left to right, whatever the case', async () => {
    const hit = await one(['OOO']);
    expect(hit.matchCount).toBe(4);
    expect(hit.snippet).toBe(OVERLAP);
    expect(hit.highlights).toEqual([
      { start: 0, length: 3 },
      { start: 4, length: 3 },
      { start: 9, length: 3 },
      { start: 12, length: 3 },
    ]);
  });

  it('a quoted term with spaces is one substring', async () => {
    const hit = await one(['rm -rf']);
    expect(hit.snippet).toBe(PHRASES[0]);
    expect(hit.highlights).toEqual([{ start: 16, length: 6 }]);
    expect(where(await one(['rm  -rf']))).toBe(`${S4} CONTENT step 3`);
  });

  it('quotes and FTS5 operators in a term are plain text', async () => {
    for (const term of [
      'key="value"',
      '(x*y)',
      'NEAR/3',
      '^start',
      '-minus',
      'OR and',
      'config:',
    ]) {
      const hit = await one([term]);
      expect([term, hit.snippet, hit.matchCount]).toEqual([term, SYNTAX, 1]);
    }
    expect((await ix.search(['"value"(x'])).totalCount).toBe(0);
  });

  it('every term in the same field of the same step', async () => {
    expect((await ix.search(['alphaonly', 'betaonly'])).totalCount).toBe(0);
    expect((await ix.search(['alphaonly'])).totalCount).toBe(1);
  });

  it('non-ASCII: case-folded accents, emoji, UTF-16 offsets', async () => {
    const hit = await one(['CAFÉ', 'crème']);
    expect(hit.snippet).toBe(ACCENTS);
    expect(hit.highlights).toEqual([
      { start: 3, length: 4 },
      { start: 8, length: 5 },
    ]);
    const fox = await one(['🦊 fin']);
    expect(fox.highlights).toEqual([{ start: 25, length: 6 }]);
    expect(fox.matchCount).toBe(1);
  });

  it('never splits a surrogate pair', async () => {
    const hit = await one(['target']);
    const first = PAIRS_START.indexOf('target'); // 502: the window would start at 402, a low surrogate
    expect(PAIRS_START.charCodeAt(first - 100)).toBeGreaterThanOrEqual(0xdc00);
    // One unit later at the start; the end (702) is a low surrogate too: one unit earlier.
    expect(hit.snippet).toBe(PAIRS_START.slice(first - 99, first + 199));
    expect(hit.snippet.length).toBe(298);
    expect(hit.highlights).toEqual([{ start: 99, length: 6 }]);
    expect(LONE_SURROGATE.test(hit.snippet)).toBe(false);
  });
});

describe('order, ties and pagination', () => {
  const tieHits = (s: string) => [
    `${s} USER_REQUEST step 0`,
    `${s} CONTENT step 1`,
    `${s} THINKING step 1`,
    `${s} OUTPUT step 1`,
    `${s} ARTIFACT artifact a.md`,
    `${s} ARTIFACT artifact b.md`,
  ];

  it('RELEVANCE: score descending, ties by session id, position, field, artifacts by name', async () => {
    const page = await ix.search(['tieword']);
    expect(page.totalCount).toBe(21);
    expect(page.hits.map(where)).toEqual([
      ...tieHits(S1),
      ...tieHits(S2),
      ...tieHits(S3),
      // The USER_INPUT's whole content is longer: a lower score.
      `${S1} CONTENT step 0`,
      `${S2} CONTENT step 0`,
      `${S3} CONTENT step 0`,
    ]);
    const scores = page.hits.map((x) => x.score);
    expect(new Set(scores.slice(0, 18)).size).toBe(1);
    expect(scores[18]).toBeLessThan(scores[0]);
    expect(scores[18]).toBeGreaterThan(0);
  });

  it('NEWEST_FIRST: session createdAt descending, then position and field', async () => {
    const page = await ix.search(['tieword'], { order: 'NEWEST_FIRST' });
    const session = (s: string) => {
      const list = tieHits(s);
      list.splice(1, 0, `${s} CONTENT step 0`);
      return list;
    };
    expect(page.hits.map(where)).toEqual([...session(S2), ...session(S3), ...session(S1)]);
  });

  it.each(['RELEVANCE', 'NEWEST_FIRST'] as const)(
    '%s: pages of every size follow each other without gaps or duplicates',
    async (order) => {
      const all = (await ix.search(['tieword'], { order, first: 100 })).hits.map(where);
      for (const first of [1, 4, 7, 20, 21]) {
        const pages: string[][] = [];
        let after = null;
        for (;;) {
          const page = await ix.search(['tieword'], { order, first, after });
          expect(page.totalCount).toBe(21);
          pages.push(page.hits.map(where));
          if (!page.hasNextPage) break;
          after = page.hits[page.hits.length - 1].key;
        }
        expect(pages.flat()).toEqual(all);
        expect(pages.length).toBe(Math.ceil(21 / first));
      }
    },
  );

  it('a cursor past the last hit gives an empty page', async () => {
    const all = await ix.search(['tieword'], { first: 21 });
    expect(all.hasNextPage).toBe(false);
    const after = await ix.search(['tieword'], { after: all.hits[20].key });
    expect(after).toEqual({ hits: [], totalCount: 21, hasNextPage: false });
  });

  it('only the given sessions are searched, and counted', async () => {
    const dirs = (await ix.dirs()).filter((d) => d.endsWith(S3));
    const page = ix.index.search({
      terms: ['tieword'],
      dirs,
      fields: ['ARTIFACT'],
      order: 'RELEVANCE',
      first: 1,
      after: null,
    });
    expect(page.totalCount).toBe(2);
    expect(page.hits.map(where)).toEqual([`${S3} ARTIFACT artifact a.md`]);
    expect(page.hasNextPage).toBe(true);
    const none = ix.index.search({
      ...{ terms: ['tieword'], fields: null },
      dirs: [],
      order: 'RELEVANCE',
      first: 5,
      after: null,
    });
    expect(none.totalCount).toBe(0);
    // A session named more than once is still one session: the others stay hidden.
    const repeated = ix.index.search({
      terms: ['tieword'],
      dirs: [dirs[0], dirs[0], dirs[0], dirs[0]],
      fields: ['ARTIFACT'],
      order: 'RELEVANCE',
      first: 10,
      after: null,
    });
    expect(repeated.hits.map(where)).toEqual([
      `${S3} ARTIFACT artifact a.md`,
      `${S3} ARTIFACT artifact b.md`,
    ]);
  });
});
