import type { Principal } from '../auth/principal';
import { visibleSessions, type Catalog, type ListedSession } from '../brain/catalog';
import { Channel } from './channel';
import type { FeedListener } from './change-feed';
import { SessionEventType, type SessionEventValue } from './session-event.model';

/** The sessions a scope sees in a catalog, by key; computed once per catalog and scope. */
const seen = new WeakMap<Catalog, Map<string, Map<string, ListedSession>>>();

export function visibleByKey(catalog: Catalog, principal: Principal): Map<string, ListedSession> {
  let byScope = seen.get(catalog);
  if (!byScope) {
    byScope = new Map<string, Map<string, ListedSession>>();
    seen.set(catalog, byScope);
  }
  let map = byScope.get(principal.scopeKey);
  if (!map) {
    const list = visibleSessions(catalog, (s) => principal.mayRead(s.entry.root));
    byScope.set(principal.scopeKey, (map = new Map(list.map((s) => [s.key, s]))));
  }
  return map;
}

/**
 * Whether a session meets the subscription's filter. `gone`: the session was removed, so only
 * the conditions on its root and dates can be judged (its contents cannot be read any more).
 */
export type EventFilter = (session: ListedSession, gone: boolean) => Promise<boolean>;

/**
 * One sessionEvents subscription: turns the change feed's facts into the events its caller
 * may see. ADDED and REMOVED compare what the caller's scope sees before and after a rescan
 * (a hidden session never shows, not even as REMOVED); UPDATED comes throttled from the feed.
 * Events are judged one after another, so they keep the order the feed told them in.
 */
export class SessionEventsSource implements FeedListener {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly principal: Principal,
    private readonly matches: EventFilter,
    readonly channel: Channel<SessionEventValue>,
  ) {}

  catalogChanged(before: Catalog, after: Catalog, at: Date): void {
    const was = visibleByKey(before, this.principal);
    const now = visibleByKey(after, this.principal);
    // REMOVED first: a session that moved to another root is removed, then added.
    for (const [key, s] of was) {
      if (now.get(key)?.entry.realDir !== s.entry.realDir) {
        this.send(SessionEventType.REMOVED, s, at);
      }
    }
    for (const [key, s] of now) {
      if (was.get(key)?.entry.realDir !== s.entry.realDir) this.send(SessionEventType.ADDED, s, at);
    }
  }

  updated(session: ListedSession, at: Date): void {
    if (!this.principal.mayRead(session.entry.root)) return;
    this.send(SessionEventType.UPDATED, session, at);
  }

  private send(type: SessionEventType, session: ListedSession, at: Date): void {
    const gone = type === SessionEventType.REMOVED;
    this.chain = this.chain.then(async () => {
      if (this.channel.closed) return;
      const ok = await this.matches(session, gone).catch(() => false);
      if (!ok) return;
      this.channel.push({ type, sessionId: session.entry.id, session: gone ? null : session, at });
    });
  }
}
