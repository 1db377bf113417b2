import { secretNameTest } from '../../redaction/names';
import {
  buildCatalog,
  HeadCache,
  type Catalog,
  type HeadMemo,
  type ListedSession,
  visibleSessions,
} from '../../brain/catalog';
import { discoverRoots } from '../../brain/roots';
import { BrainStore } from '../../brain/store';
import type { StoreSource } from '../../config/brain-source';
import type { HomeSettings } from '../../config/home-settings';
import { indexFingerprint } from '../../index/sqlite/database';
import { openIndexReadOnly } from '../../index/sqlite/read-only';
import { SqliteReader } from '../../index/sqlite/sqlite-index';
import { Redactor } from '../../redaction/redactor';
import { progress, type Progress } from '../output/progress';
import { catalogFromIndex } from './index-catalog';
import type { ListQuery, ListResult, SessionRow } from './list-types';

/**
 * `list` on the local home without the application: the store's catalog and summaries, and
 * the heads and summaries an earlier run left in the index file when it can be read. Values
 * are masked as the GraphQL field middleware masks them (every string field through
 * Redactor.redactText), and filtered as SessionFilter filters (environment, flavor, then the
 * request text as the caller sees it), so both sources print the same.
 */
export async function localList(
  settings: HomeSettings,
  source: StoreSource,
  q: ListQuery,
): Promise<ListResult> {
  const bar = progress('scanning sessions');
  const redactor = new Redactor({
    enabled: settings.redact,
    extraPatterns: settings.redactPatterns,
  });
  const store = new BrainStore({
    geminiHome: source.geminiHome,
    brainRoots: source.brainRoots,
    withhold: secretNameTest(settings),
    cacheBytes: settings.cacheMaxMb * 1024 * 1024,
    onScanProgress: (done, total) => bar.update(done, total),
    // As the server's store: the request cut from its input masked whole.
    maskText: redactor.enabled ? (t) => redactor.redactText(t) : undefined,
  });
  const db = openIndexReadOnly(
    settings.cacheDir,
    indexFingerprint(settings.redact, settings.redactPatterns),
  );
  try {
    let previous: Known | undefined;
    if (db) {
      const reader = new SqliteReader(db, () => 0);
      const heads = reader.heads();
      store.usePersisted(heads, (listed, views) => reader.summary(listed, views));
      const roots = await discoverRoots(source.geminiHome, source.brainRoots);
      previous = { catalog: catalogFromIndex(roots, heads), heads };
    }
    const catalog = await scan(store, source, previous, bar);
    bar.stop();
    const envs = new Set(q.environments);
    const flavors = new Set(q.flavors);
    const named = (s: ListedSession) =>
      (envs.size === 0 || envs.has(s.entry.root.environment)) &&
      (flavors.size === 0 || flavors.has(s.entry.root.flavor));
    // As the server's listing: each id's copy in the named roots (see rootTest).
    let items =
      envs.size === 0 && flavors.size === 0 ? catalog.newestFirst : visibleSessions(catalog, named);
    if (q.oldestFirst) items = [...items].sort(oldestFirst);
    if (q.query !== null) {
      const needle = q.query.toLowerCase();
      const summaries = await Promise.all(items.map((s) => store.summary(s).catch(() => null)));
      items = items.filter((_, i) =>
        redactor
          .redactText(summaries[i]?.userRequest ?? '')
          .toLowerCase()
          .includes(needle),
      );
    }
    const page = q.limit === null ? items : items.slice(0, q.limit);
    const rows = await Promise.all(page.map((s) => row(store, s, redactor)));
    const served = [...new Set(catalog.roots.map((r) => r.root.flavor))].sort();
    return { items: rows, totalCount: items.length, flavors: served };
  } finally {
    bar.stop();
    db?.close();
  }
}

/** What the index file knows: its sessions as a catalog, and the heads of their transcripts. */
interface Known {
  catalog: Catalog;
  heads: [string, HeadMemo][];
}

/**
 * The store's catalog; with the index's sessions as a quick scan's starting point when there is
 * one. A quick scan never weighs copies of one id against each other: when it finds any, the
 * full scan decides.
 */
async function scan(
  store: BrainStore,
  source: StoreSource,
  previous: Known | undefined,
  bar: Progress,
): Promise<Catalog> {
  if (previous) {
    const heads = new HeadCache();
    heads.seed(previous.heads);
    const quick = await buildCatalog(
      source.geminiHome,
      source.brainRoots,
      heads,
      (done, total) => bar.update(done, total),
      previous.catalog,
    );
    if (quick.shadowed.length === 0) return quick;
  }
  return store.refresh();
}

function oldestFirst(a: ListedSession, b: ListedSession): number {
  const t = a.createdAt.getTime() - b.createdAt.getTime();
  return t !== 0 ? t : a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
}

async function row(store: BrainStore, s: ListedSession, redactor: Redactor): Promise<SessionRow> {
  const summary = await store.summary(s);
  const text = (v: string | null) => (v === null ? null : redactor.redactText(v));
  return {
    id: s.entry.id,
    source: text(s.entry.root.source ?? null),
    root: {
      path: text(s.entry.root.path) as string,
      flavor: text(s.entry.root.flavor) as string,
      environment: s.entry.root.environment,
    },
    createdAt: s.createdAt.toISOString(),
    updatedAt: summary.updatedAt.toISOString(),
    userRequest: text(summary.userRequest),
    model: text(summary.model),
    localTime: text(summary.localTime),
    mentionedFiles: redactor.redactJson(summary.mentionedFiles) as string[],
    workspaceRoot: text(summary.workspaceRoot),
    stepCount: summary.stepCount,
    toolCallCount: summary.toolCallCount,
    errorCount: summary.errorCount,
  };
}
