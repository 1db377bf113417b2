import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import {
  compactLine,
  filler,
  fullLine,
  jsonl,
  planner,
  userInput,
  type FullRecord,
} from '../fixtures/records';
import { COMPACT, FULL, makeIndexHome, openIndex, where, type IndexHome } from './index-home';

/**
 * Full twins that arrive after their compact line (a writer that flushes the compact
 * transcript first): the record is indexed with its compact text, and its full-tier text
 * once the twin is there, whatever else grew meanwhile. The persisted summary follows too.
 */

const ID = 'd4000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
const long = (term: string) => `${filler(3000, 'p')} ${term} ${filler(3000, 'q')}`;

let h: IndexHome;
let ix: ReturnType<typeof openIndex>;
let dir: string;

beforeEach(() => {
  h = makeIndexHome();
  dir = path.join(h.root, ID);
});

afterEach(async () => {
  await ix?.close();
  h.remove();
});

/** Compact lines of `compact`, full lines of `full` (the rest of the twins still to come). */
function write(compact: FullRecord[], full: FullRecord[]): void {
  fs.mkdirSync(path.join(dir, '.system_generated/logs'), { recursive: true });
  fs.writeFileSync(path.join(dir, COMPACT), jsonl(compact.map(compactLine)));
  fs.writeFileSync(path.join(dir, FULL), jsonl(full.map(fullLine)));
}

const hits = async (term: string) => (await ix.search([term])).hits.map(where);

/** The summary a store without an index computes from the files. */
async function fromFiles() {
  const store = new BrainStore({ geminiHome: h.home, brainRoots: [], rescanMs: 3_600_000 });
  const listed = (await store.catalog()).newestFirst[0];
  return store.summary(listed);
}

async function served() {
  const listed = (await ix.store.refresh()).newestFirst[0];
  return ix.store.summary(listed);
}

const INPUT = userInput(0, T, { request: long('requestmiddle'), localTime: 'x' });
const PLAN = planner(1, T, { content: long('latetwin') });
const NEXT = planner(2, T, { content: 'next step' });

it('a twin that arrives while the compact view grows too is indexed', async () => {
  write([INPUT, PLAN], [INPUT]);
  ix = openIndex(h.home, h.cacheDir);
  await ix.index.caughtUp();
  expect(await hits('latetwin')).toEqual([]);
  fs.appendFileSync(path.join(dir, FULL), jsonl([PLAN, NEXT].map(fullLine)));
  fs.appendFileSync(path.join(dir, COMPACT), jsonl([NEXT].map(compactLine)));
  await ix.index.caughtUp();
  expect(await hits('latetwin')).toEqual([`${ID} CONTENT step 1`]);
  expect(await hits('next step')).toEqual([`${ID} CONTENT step 2`]);
});

it('a twin that arrives alone is indexed', async () => {
  write([INPUT, PLAN], [INPUT]);
  ix = openIndex(h.home, h.cacheDir);
  await ix.index.caughtUp();
  fs.appendFileSync(path.join(dir, FULL), jsonl([PLAN].map(fullLine)));
  await ix.index.caughtUp();
  expect(await hits('latetwin')).toEqual([`${ID} CONTENT step 1`]);
});

it.each([
  ['alone', [] as FullRecord[]],
  ['with more lines', [NEXT]],
])(
  'a USER_INPUT twin that arrives late (%s) gives the summary its full request',
  async (_, more) => {
    write([INPUT, PLAN], []);
    ix = openIndex(h.home, h.cacheDir);
    await ix.index.caughtUp();
    expect(await hits('requestmiddle')).toEqual([]);
    fs.appendFileSync(path.join(dir, FULL), jsonl([INPUT, PLAN, ...more].map(fullLine)));
    fs.appendFileSync(path.join(dir, COMPACT), jsonl(more.map(compactLine)));
    await ix.index.caughtUp();
    expect(await hits('requestmiddle')).toEqual([
      `${ID} USER_REQUEST step 0`,
      `${ID} CONTENT step 0`,
    ]);
    const expected = await fromFiles();
    expect(expected.userRequest).toContain('requestmiddle');
    expect(await served()).toEqual(expected);
  },
);
