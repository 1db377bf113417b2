import * as fs from 'node:fs';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import type {
  SearchFieldName,
  SearchHitRow,
  SearchKey,
  SearchPage,
} from '../../src/index/home-index';
import { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { makeTempDir, put } from '../fixtures/fs-util';
import { compactLine, fullLine, jsonl, type FullRecord } from '../fixtures/records';

/**
 * Small brain homes written for the index specs (each session exactly as a test needs it),
 * and a store + SqliteHomeIndex over one, with a CACHE_DIR of its own. Everything is
 * driven through the HomeIndex interface, as the GraphQL layer will drive it.
 */

export const LOGS = '.system_generated/logs';
export const COMPACT = `${LOGS}/transcript.jsonl`;
export const FULL = `${LOGS}/transcript_full.jsonl`;

export interface IndexHome {
  /** The temporary folder holding everything (removed by `remove`). */
  dir: string;
  /** GEMINI_HOME. */
  home: string;
  /** The one brain root (flavor antigravity-ide). */
  root: string;
  /** CACHE_DIR. */
  cacheDir: string;
  remove(): void;
}

export function makeIndexHome(prefix = 'brainql-index-'): IndexHome {
  const dir = makeTempDir(prefix);
  const home = path.join(dir, 'home');
  const root = path.join(home, 'antigravity-ide/brain');
  fs.mkdirSync(root, { recursive: true });
  return {
    dir,
    home,
    root,
    cacheDir: path.join(dir, 'cache'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Writes a session: the compact and full transcripts of `records` (compact derived from the
 * full records, so truncated fields have their twins), plus `files` (session-relative).
 * `compactOnly`: no transcript_full.jsonl.
 */
export function writeSession(
  root: string,
  id: string,
  records: readonly FullRecord[],
  opts: { files?: Record<string, string | Buffer>; compactOnly?: boolean } = {},
): string {
  const dir = path.join(root, id);
  put(path.join(dir, COMPACT), jsonl(records.map(compactLine)));
  if (!opts.compactOnly) put(path.join(dir, FULL), jsonl(records.map(fullLine)));
  for (const [rel, data] of Object.entries(opts.files ?? {})) put(path.join(dir, rel), data);
  return fs.realpathSync(dir);
}

/** Appends records to both transcripts of a session (compact twin derived as above). */
export function appendRecords(dir: string, records: readonly FullRecord[]): void {
  fs.appendFileSync(path.join(dir, COMPACT), jsonl(records.map(compactLine)));
  if (fs.existsSync(path.join(dir, FULL))) {
    fs.appendFileSync(path.join(dir, FULL), jsonl(records.map(fullLine)));
  }
}

export interface OpenedIndex {
  store: BrainStore;
  index: SqliteHomeIndex;
  warnings: string[];
  /** Realpaths of every listed session (winners and shadowed copies). */
  dirs(): Promise<string[]>;
  /** One page of hits over every listed session. */
  search(terms: string[], opts?: SearchOpts): Promise<SearchPage>;
  /** Every hit, page by page (`first` per page), following the cursors. */
  searchAll(terms: string[], opts?: SearchOpts): Promise<SearchHitRow[]>;
  close(): Promise<void>;
}

export interface SearchOpts {
  fields?: SearchFieldName[];
  order?: 'RELEVANCE' | 'NEWEST_FIRST';
  first?: number;
  after?: SearchKey | null;
}

/**
 * A store over `home` and an index in `cacheDir`, started (the background passes run).
 * `start: false` leaves the indexer stopped (a test drives it).
 */
export function openIndex(
  home: string,
  cacheDir: string,
  opts: { redact?: boolean; patterns?: string[]; start?: boolean; brainRoots?: string[] } = {},
): OpenedIndex {
  const store = new BrainStore({
    geminiHome: home,
    brainRoots: opts.brainRoots ?? [],
    rescanMs: 3_600_000,
  });
  const warnings: string[] = [];
  const index = new SqliteHomeIndex(store, {
    cacheDir,
    redact: opts.redact ?? false,
    redactPatterns: opts.patterns ?? [],
    maxRecordBytes: store.transcripts.maxRecordBytes,
    log: { log: () => undefined, warn: (m) => warnings.push(m) },
  });
  if (opts.start !== false) index.start();
  const dirs = async () => {
    const c = await store.catalog();
    return [...c.newestFirst, ...c.shadowed].map((l) => l.entry.realDir);
  };
  const search = async (terms: string[], o: SearchOpts = {}) =>
    index.search({
      terms,
      dirs: await dirs(),
      fields: o.fields ?? null,
      order: o.order ?? 'RELEVANCE',
      first: o.first ?? 100,
      after: o.after ?? null,
    });
  return {
    store,
    index,
    warnings,
    dirs,
    search,
    searchAll: async (terms, o = {}) => {
      const out: SearchHitRow[] = [];
      let after: SearchKey | null = null;
      for (let guard = 0; guard < 1000; guard++) {
        const page = await search(terms, { ...o, after });
        out.push(...page.hits);
        if (!page.hasNextPage) return out;
        after = page.hits[page.hits.length - 1].key;
      }
      throw new Error('searchAll: no last page');
    },
    close: () => index.close(),
  };
}

/** A hit reduced to what a test compares: session id, field, position or artifact. */
export function where(hit: SearchHitRow): string {
  const at = hit.artifact !== null ? `artifact ${hit.artifact}` : `step ${hit.position}`;
  return `${path.basename(hit.dir)} ${hit.field} ${at}`;
}
