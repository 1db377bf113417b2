import { Injectable } from '@nestjs/common';
import type { Catalog, ListedSession, RootStatus } from '../brain/catalog';
import { compareNewestFirst, visibleSessions } from '../brain/catalog';
import { BrainStore, MIN_PREFIX } from '../brain/store';
import { apiError, badInput, ErrorCode } from '../graphql/errors';
import { SessionOrder } from '../graphql/enums';
import type { Loaders } from '../graphql/loaders';
import { checkFirst, paginate, type Connection } from '../graphql/pagination/connection';
import { decodeCursor, encodeCursor } from '../graphql/pagination/cursor';
import { StoreSource } from '../config/brain-source';
import { Redactor } from '../redaction/redactor';
import type { Principal } from '../auth/principal';
import type { BrainRoot } from './session.model';
import type { SessionFilter, SessionsArgs } from './sessions.args';

export const MAX_SESSIONS_PAGE = 100;

function compareOldestFirst(a: ListedSession, b: ListedSession): number {
  const t = a.createdAt.getTime() - b.createdAt.getTime();
  return t !== 0 ? t : a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0;
}

/** Epoch ms of a filter bound; the DateTime scalar lets unparsable text through as NaN. */
function instant(value: Date | null | undefined, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const t = value.getTime();
  if (Number.isNaN(t)) {
    throw badInput(`"${name}" must be an ISO-8601 date-time, e.g. 2026-06-25T17:15:58Z`, {
      argument: name,
    });
  }
  return t;
}

/**
 * How many sessions of the catalog `principal` may see (from the per-root counts): what a
 * `filter.query` listing examines, so what it costs (see cost.ts).
 */
export function visibleSessionCount(catalog: Catalog, principal: Principal): number {
  let count = 0;
  for (const { root, sessionCount } of catalog.roots) {
    if (principal.mayRead(root)) count += sessionCount;
  }
  return count;
}

/** Session listings, lookups and roots, over the store's current catalog. */
@Injectable()
export class SessionsService {
  private readonly oldest = new WeakMap<object, ListedSession[]>();

  constructor(
    private readonly store: BrainStore,
    private readonly source: StoreSource,
    private readonly redactor: Redactor,
  ) {}

  toRoot(status: RootStatus): BrainRoot {
    const { root, sessionCount } = status;
    return {
      path: root.path,
      flavor: root.flavor,
      environment: root.environment as BrainRoot['environment'],
      sessionCount,
      isExample: this.source.isExample,
    };
  }

  async roots(principal: Principal): Promise<BrainRoot[]> {
    const catalog = await this.store.catalog();
    const roots = catalog.roots.filter((r) => principal.mayRead(r.root));
    if (principal.flavors === null || catalog.shadowed.length === 0) {
      return roots.map((r) => this.toRoot(r));
    }
    // A scoped caller may see a copy that lost to a hidden root's: count what they see.
    const seen = visibleSessions(catalog, (s) => principal.mayRead(s.entry.root));
    return roots.map((r) =>
      this.toRoot({
        root: r.root,
        sessionCount: seen.filter((s) => s.entry.root === r.root).length,
      }),
    );
  }

  async rootOf(listed: ListedSession): Promise<BrainRoot> {
    const catalog = await this.store.catalog();
    const status = catalog.roots.find((r) => r.root.path === listed.entry.root.path);
    return this.toRoot(status ?? { root: listed.entry.root, sessionCount: 0 });
  }

  async find(id: string, principal: Principal): Promise<ListedSession | null> {
    const found = await this.store.resolve(id, (s) => principal.mayRead(s.entry.root));
    switch (found.kind) {
      case 'found':
        return found.session;
      case 'none':
        return null;
      case 'too-short':
        throw badInput(
          `"id" must be a full session id or a prefix of at least ${MIN_PREFIX} characters`,
          {
            argument: 'id',
          },
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

  async list(
    args: SessionsArgs,
    loaders: Loaders,
    principal: Principal,
  ): Promise<Connection<ListedSession>> {
    const first = args.first ?? 20;
    const order = args.order ?? SessionOrder.NEWEST_FIRST;
    checkFirst(first, MAX_SESSIONS_PAGE);
    const catalog = await this.store.catalog();
    let items = catalog.newestFirst;
    let compare = compareNewestFirst;
    if (order === SessionOrder.OLDEST_FIRST) {
      compare = compareOldestFirst;
      let sorted = this.oldest.get(catalog);
      if (!sorted) {
        sorted = [...items].sort(compareOldestFirst);
        this.oldest.set(catalog, sorted);
      }
      items = sorted;
    }
    if (principal.flavors !== null) {
      const mayRead = (s: ListedSession) => principal.mayRead(s.entry.root);
      if (catalog.shadowed.length === 0) items = items.filter(mayRead);
      else items = [...visibleSessions(catalog, mayRead)].sort(compare);
    }
    if (args.filter) items = await this.applyFilter(items, args.filter, loaders);
    const kind = `s:${order}`;
    let isAfter: ((s: ListedSession) => boolean) | null = null;
    if (args.after) {
      const [time, id] = decodeCursor(kind, args.after);
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

  private async applyFilter(
    items: ListedSession[],
    filter: SessionFilter,
    loaders: Loaders,
  ): Promise<ListedSession[]> {
    const envs = filter.environment?.length ? new Set<string>(filter.environment) : null;
    const flavors = filter.flavor?.length ? new Set(filter.flavor) : null;
    const after = instant(filter.createdAfter, 'createdAfter');
    const before = instant(filter.createdBefore, 'createdBefore');
    let out = items.filter((s) => {
      const t = s.createdAt.getTime();
      return (
        (!envs || envs.has(s.entry.root.environment)) &&
        (!flavors || flavors.has(s.entry.root.flavor)) &&
        (after === undefined || t >= after) &&
        (before === undefined || t < before)
      );
    });
    if (filter.query !== undefined && filter.query !== null) {
      // Needs every candidate's summary: the filter applies before paging.
      const needle = filter.query.toLowerCase();
      const summaries = await loaders.summary.loadMany(out);
      out = out.filter((_, i) => {
        const s = summaries[i];
        // Matched on what the caller may see: a secret must not be found by guessing it.
        const text = s instanceof Error ? '' : this.redactor.redactText(s.userRequest ?? '');
        return text.toLowerCase().includes(needle);
      });
    }
    return out;
  }
}
