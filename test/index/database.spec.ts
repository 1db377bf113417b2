import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INDEX_FILE } from '../../src/index/sqlite/database';
import { SCHEMA_VERSION } from '../../src/index/sqlite/schema';
import { searchEngine } from '../../src/index/search-engine';
import { planner, userInput } from '../fixtures/records';
import {
  appendRecords,
  makeIndexHome,
  openIndex,
  where,
  writeSession,
  type IndexHome,
} from './index-home';

/**
 * The index file is a cache: corrupt, of another schema version or built with other
 * redaction settings, it is rebuilt with a warning; an unwritable CACHE_DIR or a file held by
 * another process gives an in-memory index with a warning. Never fatal, answers always right.
 */

const ID = 'e5000000-0000-4000-8000-000000000001';
const T = '2026-05-01T10:00:00Z';
const EXPECTED = [`${ID} USER_REQUEST step 0`, `${ID} CONTENT step 0`, `${ID} CONTENT step 1`];

const GROWN = [...EXPECTED, `${ID} CONTENT step 2`];

let h: IndexHome;
let dir: string;
let file: string;
const open: ReturnType<typeof openIndex>[] = [];

beforeEach(() => {
  h = makeIndexHome();
  file = path.join(h.cacheDir, INDEX_FILE);
  dir = writeSession(h.root, ID, [
    userInput(0, T, { request: 'find the marmot', localTime: 'x' }),
    planner(1, T, { content: 'a marmot again' }),
  ]);
});

afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  h.remove();
});

async function start(opts: Parameters<typeof openIndex>[2] = {}, cacheDir = h.cacheDir) {
  const o = openIndex(h.home, cacheDir, opts);
  open.push(o);
  await o.index.caughtUp();
  return o;
}

async function answers(o: ReturnType<typeof openIndex>) {
  const page = await o.search(['marmot'], { order: 'NEWEST_FIRST' });
  return { hits: page.hits.map(where), total: page.totalCount };
}

/** Overwrites the root page of `table` with garbage (the file's header stays valid). */
function damage(file: string, table: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const { rootpage } = db
    .prepare('SELECT rootpage FROM sqlite_master WHERE name = ?')
    .get(table) as { rootpage: number };
  db.close();
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
  fs.closeSync(fd);
}

/** An index built once, then closed: the file a restart finds. */
async function built(): Promise<void> {
  const o = await start();
  expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
  await o.close();
  open.splice(open.indexOf(o), 1);
}

describe('a file that cannot serve is rebuilt', () => {
  it('garbage bytes', async () => {
    fs.mkdirSync(h.cacheDir, { recursive: true });
    fs.writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const o = await start();
    expect(o.warnings).toEqual([
      `the index file ${file} cannot be read (SQLITE_NOTADB): it is rebuilt`,
    ]);
    expect(o.index.file).toBe(file);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
  });

  it('a valid header over damaged pages', async () => {
    await built();
    const bytes = fs.readFileSync(file);
    // Page 1 (the header and schema) stays; every later page is overwritten.
    bytes.fill(0xa5, 4096);
    fs.writeFileSync(file, bytes);
    const o = await start();
    expect(o.warnings).toEqual([
      `the index file ${file} cannot be read (SQLITE_CORRUPT): it is rebuilt`,
    ]);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
  });

  // FTS5's own tables (docs_fts_*) exist only under the FTS5 engine: under
  // INDEX_ENGINE=trigram the texts are in segment files, not in index.sqlite, so there is no
  // table to damage (damage() finds no root page for it). Those cases run under FTS5 only.
  const fts5 = searchEngine(process.env.INDEX_ENGINE) === 'fts5';
  const ftsTables = fts5 ? ['docs_fts_data', 'docs_fts_idx'] : [];
  it.each(['sessions', 'meta', 'steps', 'docs', ...ftsTables, 'secrets'])(
    'a damaged %s table, found at start or while serving',
    async (table) => {
      await built();
      damage(file, table);
      const o = openIndex(h.home, h.cacheDir);
      open.push(o);
      // Whatever meets the damage first (the start, a pass, a search) rebuilds; nothing throws.
      const early = await answers(o);
      o.index.secrets(await o.dirs());
      // Growth makes the index read and write every table of the session.
      appendRecords(dir, [planner(2, T, { content: 'marmot three' })]);
      await o.index.caughtUp();
      expect(o.warnings).toHaveLength(1);
      expect(o.warnings[0]).toMatch(
        new RegExp(
          `^the index file ${file} (cannot be read|is damaged) \\(SQLITE_CORRUPT\\w*\\): it is rebuilt$`,
        ),
      );
      expect([0, 3]).toContain(early.total);
      expect(await answers(o)).toEqual({ hits: GROWN, total: 4 });
      expect(o.index.status(await o.dirs())).toMatchObject({ state: 'READY', sessionsIndexed: 1 });
      // The rebuilt file serves the next start without a warning.
      await o.close();
      open.splice(open.indexOf(o), 1);
      const next = await start();
      expect(next.warnings).toEqual([]);
      expect(next.index.progress.sessionsChanged).toBe(0);
      expect(await answers(next)).toEqual({ hits: GROWN, total: 4 });
    },
  );

  it('another schema version', async () => {
    await built();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    const o = await start();
    expect(o.warnings).toEqual([
      `the index file ${file} has schema version ${SCHEMA_VERSION + 5}, not ${SCHEMA_VERSION}: it is rebuilt`,
    ]);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
    await o.close();
    open.splice(open.indexOf(o), 1);
    const check = new Database(file, { readonly: true, fileMustExist: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('other redaction settings', async () => {
    await built();
    const o = await start({ redact: true });
    expect(o.warnings).toEqual([
      `the index file ${file} was built with other redaction settings: it is rebuilt`,
    ]);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
    await o.close();
    open.splice(open.indexOf(o), 1);
    const patterns = await start({ redact: true, patterns: ['marmot'] });
    expect(patterns.warnings).toEqual([
      `the index file ${file} was built with other redaction settings: it is rebuilt`,
    ]);
    // The custom pattern masks the term: it is not found any more; its marker is.
    expect(await answers(patterns)).toEqual({ hits: [], total: 0 });
    expect((await patterns.search(['REDACTED:custom'])).totalCount).toBe(3);
  });

  it('the same settings: no warning, nothing rebuilt', async () => {
    await built();
    const o = await start();
    expect(o.warnings).toEqual([]);
    expect(o.index.progress.sessionsChanged).toBe(0);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
  });
});

describe('the file mode', () => {
  it('index file and its WAL are owner-only, in a folder anyone may read', async () => {
    const shared = path.join(h.root, 'shared-cache');
    fs.mkdirSync(shared, { mode: 0o755 });
    fs.chmodSync(shared, 0o755); // whatever the umask
    const o = await start({}, shared);
    const modes = ['', '-wal'].map(
      (s) => fs.statSync(path.join(shared, INDEX_FILE + s)).mode & 0o777,
    );
    expect(modes).toEqual([0o600, 0o600]);
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
  });
});

describe('an index in memory', () => {
  it('when CACHE_DIR cannot be made (a file is in its way)', async () => {
    const blocker = path.join(h.dir, 'blocker');
    fs.writeFileSync(blocker, 'not a folder');
    const cacheDir = path.join(blocker, 'cache');
    const o = await start({}, cacheDir);
    expect(o.warnings).toEqual([
      `CACHE_DIR ${cacheDir} is not writable (ENOTDIR): the index is kept in memory`,
    ]);
    expect(o.index.file).toBeNull();
    expect(await answers(o)).toEqual({ hits: EXPECTED, total: 3 });
    expect(o.index.status(await o.dirs())).toMatchObject({ state: 'READY', sessionsIndexed: 1 });
  });

  it('when another index holds the file', async () => {
    const first = await start();
    expect(first.warnings).toEqual([]);
    const second = await start();
    expect(second.warnings).toEqual([
      `the index file ${file} is in use by another process: this one keeps its index in memory`,
    ]);
    expect(second.index.file).toBeNull();
    expect(await answers(second)).toEqual({ hits: EXPECTED, total: 3 });
    // The first one still works, and its file was left alone.
    expect(await answers(first)).toEqual({ hits: EXPECTED, total: 3 });
    await first.close();
    open.splice(open.indexOf(first), 1);
    const third = await start();
    expect(third.warnings).toEqual([]);
    expect(third.index.progress.sessionsChanged).toBe(0);
  });
});
