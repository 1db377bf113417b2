import type { Catalog, ListedSession } from '../../src/brain/catalog';
import { compareNewestFirst } from '../../src/brain/catalog';
import { BrainStore } from '../../src/brain/store';
import type { BrainRoot, SessionEntry } from '../../src/brain/types';

/**
 * A catalog built in memory for unit specs of services: three roots, sessions by id, and
 * copies of an id that lost to another root's (shadowed). `store()` answers catalog() and the
 * real resolve() over it (ids, prefixes and scopes as the store decides them).
 */

export const ROOTS: Record<'ide' | 'acp' | 'cli', BrainRoot> = {
  ide: root('antigravity-ide', 'IDE'),
  acp: root('antigravity-acp', 'ACP'),
  cli: root('antigravity-cli', 'CLI'),
};

function root(flavor: string, environment: BrainRoot['environment']): BrainRoot {
  const path = `/h/${flavor}/brain`;
  return { path, realPath: path, flavor, environment };
}

export function listed(id: string, createdAt: string, at: keyof typeof ROOTS): ListedSession {
  const dir = `${ROOTS[at].path}/${id}`;
  const entry = { id, root: ROOTS[at], dir, realDir: dir } as SessionEntry;
  return { entry, createdAt: new Date(createdAt), key: id.toLowerCase() };
}

/** `sessions`: the winners; `shadowed`: losing copies of some of their ids. */
export function catalogOf(sessions: ListedSession[], shadowed: ListedSession[] = []): Catalog {
  const newestFirst = [...sessions].sort(compareNewestFirst);
  return {
    roots: Object.values(ROOTS).map((r) => ({
      root: r,
      sessionCount: sessions.filter((s) => s.entry.root === r).length,
    })),
    newestFirst,
    byKey: new Map(newestFirst.map((s) => [s.key, s])),
    shadowed,
    withheld: [],
    scannedAt: 0,
  };
}

export function storeOver(catalog: Catalog): BrainStore {
  const store = Object.create(BrainStore.prototype) as BrainStore;
  store.catalog = () => Promise.resolve(catalog);
  return store;
}
