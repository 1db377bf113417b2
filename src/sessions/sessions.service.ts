import { Inject, Injectable } from '@nestjs/common';
import type { Catalog, ListedSession, RootStatus } from '../brain/catalog';
import { compareNewestFirst, visibleSessions } from '../brain/catalog';
import { BrainStore, MIN_PREFIX } from '../brain/store';
import { HOME_INDEX, type HomeIndex } from '../index/home-index';
import { apiError, badInput, ErrorCode } from '../graphql/errors';
import { filterSessions, rootTest, type FactsSource } from './session-filter';
import { SessionOrder } from '../graphql/enums';
import type { Loaders } from '../graphql/loaders';
import { checkFirst, paginate, type Connection } from '../graphql/pagination/connection';
import { decodeCursor, encodeCursor } from '../graphql/pagination/cursor';
import { StoreSource } from '../config/brain-source';
import { Redactor } from '../redaction/redactor';
import type { Principal } from '../auth/principal';
import type { BrainRoot } from './session.model';
import { MAX_SESSIONS_PAGE, type SessionFilter, type SessionsArgs } from './sessions.args';

function compareOldestFirst(a: ListedSession, b: ListedSession): number {
  const t = a.createdAt.getTime() - b.createdAt.getTime();
  return t !== 0 ? t : a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
}

/**
 * How many sessions of the catalog `principal` may see (from the per-root counts): what a
 * listing with a summary filter, a search or the exposures examine, so what they cost.
 */
export function visibleSessionCount(catalog: Catalog, principal: Principal): number {
  let count = 0;
  for (const { root, sessionCount } of catalog.roots) {
    if (principal.mayRead(root)) count += sessionCount;
  }
  return count;
}

/** How many session copies each root holds (by path): winners and shadowed copies alike. */
const copiesMemo = new WeakMap<Catalog, Map<string, number>>();
function copiesPerRoot(catalog: Catalog): Map<string, number> {
  const memo = copiesMemo.get(catalog);
  if (memo) return memo;
  const out = new Map<string, number>();
  for (const s of [...catalog.newestFirst, ...catalog.shadowed]) {
    out.set(s.entry.root.path, (out.get(s.entry.root.path) ?? 0) + 1);
  }
  copiesMemo.set(catalog, out);
  return out;
}

/** Session listings, lookups and roots, over the store's current catalog. */
@Injectable()
export class SessionsService {
  private readonly oldest = new WeakMap<object, ListedSession[]>();

  constructor(
    private readonly store: BrainStore,
    private readonly source: StoreSource,
    private readonly redactor: Redactor,
    @Inject(HOME_INDEX) private readonly index: HomeIndex,
  ) {}

  toRoot(status: RootStatus): BrainRoot {
    const { root, sessionCount } = status;
    return {
      path: root.path,
      flavor: root.flavor,
      environment: root.environment as BrainRoot['environment'],
      sessionCount,
      isExample: this.source.isExample,
      source: root.source ?? null,
    };
  }

  /**
   * Every root the caller may read, each counting every copy it holds, a shadowed one included
   * (as the listing by flavor lists them): a root is seen whole or not at all.
   */
  async roots(principal: Principal): Promise<BrainRoot[]> {
    const catalog = await this.store.catalog();
    const counts = copiesPerRoot(catalog);
    return catalog.roots
      .filter((r) => principal.mayRead(r.root))
      .map((r) => this.toRoot({ root: r.root, sessionCount: counts.get(r.root.path) ?? 0 }));
  }

  async rootOf(listed: ListedSession): Promise<BrainRoot> {
    const catalog = await this.store.catalog();
    const status = catalog.roots.find((r) => r.root.path === listed.entry.root.path);
    const root = status?.root ?? listed.entry.root;
    return this.toRoot({ root, sessionCount: copiesPerRoot(catalog).get(root.path) ?? 0 });
  }

  /** `argument`: the argument that named the id, for the error message (`filter.session`). */
  async find(
    id: string,
    principal: Principal,
    argument = 'id',
    inRoots: ((s: ListedSession) => boolean) | null = null,
  ): Promise<ListedSession | null> {
    // `inRoots`: the copy in those roots, also when another root's copy shadows it.
    const found = await this.store.resolve(
      id,
      (s) => principal.mayRead(s.entry.root) && (!inRoots || inRoots(s)),
    );
    switch (found.kind) {
      case 'found':
        return found.session;
      case 'none':
        return null;
      case 'too-short':
        throw badInput(
          `"${argument}" must be a full session id or a prefix of at least ${MIN_PREFIX} characters`,
          { argument },
        );
      case 'ambiguous':
        throw apiError(
          ErrorCode.AMBIGUOUS_SESSION_ID,
          `"${id}" matches ${found.candidates.length} sessions`,
          {
            candidates: found.candidates,
          },
        );
    }
  }

  /**
   * The sessions `principal` may see that meet `filter`, in `order`: what a listing pages
   * through, and the only set search and secrets pass to the index.
   */
  async select(
    principal: Principal,
    filter: SessionFilter | null | undefined,
    loaders: Loaders,
    order: SessionOrder = SessionOrder.NEWEST_FIRST,
    facts?: FactsSource,
  ): Promise<ListedSession[]> {
    const catalog = await this.store.catalog();
    let items = catalog.newestFirst;
    if (order === SessionOrder.OLDEST_FIRST) {
      let sorted = this.oldest.get(catalog);
      if (!sorted) {
        sorted = [...items].sort(compareOldestFirst);
        this.oldest.set(catalog, sorted);
      }
      items = sorted;
    }
    // The caller's scope and the roots the filter names choose among copies of one id.
    const inRoots = rootTest(filter);
    if (principal.scoped || inRoots) {
      const scope = (s: ListedSession) =>
        principal.mayRead(s.entry.root) && (!inRoots || inRoots(s));
      if (catalog.shadowed.length === 0) items = items.filter(scope);
      else items = [...visibleSessions(catalog, scope)].sort(compareOf(order));
    }
    return this.narrow(items, filter, loaders, facts);
  }

  /**
   * Every copy `principal` may read, a shadowed one included: what a search can reach (a
   * filter naming a flavor opens its copies), so what the index must hold before it is ready.
   */
  async copies(principal: Principal): Promise<ListedSession[]> {
    const catalog = await this.store.catalog();
    return [...catalog.newestFirst, ...catalog.shadowed].filter((s) =>
      principal.mayRead(s.entry.root),
    );
  }

  /** The sessions of `items` (visible ones, in order) that meet `filter`. */
  narrow(
    items: readonly ListedSession[],
    filter: SessionFilter | null | undefined,
    loaders: Loaders,
    facts?: FactsSource,
  ): Promise<ListedSession[]> {
    const tools = (of: readonly ListedSession[]) =>
      this.index.tools(of.map((s) => s.entry.realDir));
    const hours = (of: readonly ListedSession[]) =>
      this.index.stats(of.map((s) => s.entry.realDir)).map((r) => r && r.stats);
    return filter
      ? filterSessions(items, filter, { loaders, redactor: this.redactor, tools, hours, facts })
      : Promise.resolve([...items]);
  }

  async list(
    args: SessionsArgs,
    loaders: Loaders,
    principal: Principal,
  ): Promise<Connection<ListedSession>> {
    const first = args.first ?? 20;
    const order = args.order ?? SessionOrder.NEWEST_FIRST;
    checkFirst(first, MAX_SESSIONS_PAGE);
    const items = await this.select(principal, args.filter, loaders, order);
    return pageSessions(items, first, args.after, `s:${order}`, compareOf(order));
  }
}

export function compareOf(order: SessionOrder): (a: ListedSession, b: ListedSession) => number {
  return order === SessionOrder.OLDEST_FIRST ? compareOldestFirst : compareNewestFirst;
}

/**
 * A page of `items` (sorted by `compare`) after the keyset cursor `after` of list `kind`
 * (createdAt and id: unique among the sessions one caller sees).
 */
export function pageSessions(
  items: readonly ListedSession[],
  first: number,
  after: string | null | undefined,
  kind: string,
  compare: (a: ListedSession, b: ListedSession) => number,
): Connection<ListedSession> {
  let isAfter: ((s: ListedSession) => boolean) | null = null;
  if (after) {
    const [time, id] = decodeCursor(kind, after);
    if (typeof time !== 'number' || typeof id !== 'string')
      throw badInput('"after" is not a valid cursor');
    const key = { createdAt: new Date(time), entry: { id } } as ListedSession;
    isAfter = (s) => compare(s, key) > 0;
  }
  return paginate(
    items,
    first,
    isAfter,
    (s) => encodeCursor(kind, [s.createdAt.getTime(), s.entry.id]),
    (s) => s,
  );
}
