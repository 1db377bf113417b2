import type { Catalog, ListedSession } from '../brain/catalog';
import type { BrainStore } from '../brain/store';
import { sameView, locateViews, type ViewSource } from '../brain/transcript/view';
import { completedLine } from './completed-line';
import { FeedWatches } from './feed-watches';
import { UpdateThrottle } from './update-throttle';

export type WatchMode = 'events' | 'poll' | 'off';

export interface FeedOptions {
  geminiHome: string | null;
  /** INGEST_DIR when pushed sessions are served (its roots appear at run time). */
  ingestDir?: string | null;
  watch: 'auto' | 'poll' | 'off';
  pollMs: number;
  /** Quiet time that gathers a burst of events into one look (default 15 ms). */
  coalesceMs?: number;
  /** UPDATED is sent at most once per this many ms per session (default 1000). */
  updatedEveryMs?: number;
  onFallback?: (reason: string) => void;
}

export interface FeedListener {
  /** Sessions appeared or vanished: the catalog before and after. */
  catalogChanged?(before: Catalog, after: Catalog, at: Date): void;
  /** A session's compact view grew or changed, throttled (see FeedOptions.updatedEveryMs). */
  updated?(session: ListedSession, at: Date): void;
}

/**
 * Tells live subscriptions what changed in the brain roots. A watch event (or a poll tick)
 * only says "look now": the look asks the store, whose own change detection decides — a quick
 * rescan of the roots for sessions that appeared or vanished, and each touched session's
 * compact view (located by stat, compared by file identity and size) for growth. Bursts of
 * events are gathered into one look. Runs only while someone listens.
 */
export class ChangeFeed {
  /** Watches failed once: polling from then on (they would fail again). */
  private fellBack = false;
  private listeners = new Set<FeedListener>();
  private readonly viewListeners = new Map<string, Set<() => void>>();
  private watching: FeedWatches | null = null;
  private catalog: Catalog | null = null;
  private bySessionDir = new Map<string, ListedSession>();
  private readonly views = new Map<string, ViewSource | null>();
  private readonly dirty = new Set<string>();
  private catalogDirty = false;
  /** A listed session lost its transcripts: only a full rescan drops it (a quick one keeps it). */
  private fullRescan = false;
  private timer: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private readonly throttle: UpdateThrottle;

  constructor(
    private readonly store: BrainStore,
    private readonly options: FeedOptions,
  ) {
    this.throttle = new UpdateThrottle(options.updatedEveryMs ?? 1000, (dir) =>
      this.sendUpdated(dir),
    );
  }

  /** How changes are noticed (also while nobody listens and nothing runs). */
  get mode(): WatchMode {
    if (this.options.watch === 'off') return 'off';
    return this.options.watch === 'poll' || this.fellBack ? 'poll' : 'events';
  }

  /** Number of directories watched. */
  get watches(): number {
    return this.watching?.size ?? 0;
  }

  /** Subscriptions listening now (sessionEvents listeners plus followed sessions' streams). */
  get listening(): number {
    let n = this.listeners.size;
    for (const set of this.viewListeners.values()) n += set.size;
    return n;
  }

  /** Listens to catalog changes and throttled UPDATED facts; returns the way out. */
  listen(listener: FeedListener): () => void {
    this.listeners.add(listener);
    void this.start();
    return () => {
      this.listeners.delete(listener);
      this.stopWhenIdle();
    };
  }

  /** Calls `wake` (unthrottled) whenever the compact view of the session in `dir` changes. */
  follow(dir: string, wake: () => void): () => void {
    let set = this.viewListeners.get(dir);
    if (!set) this.viewListeners.set(dir, (set = new Set()));
    set.add(wake);
    void this.start();
    return () => {
      set.delete(wake);
      if (set.size === 0) this.viewListeners.delete(dir);
      this.stopWhenIdle();
    };
  }

  /** The session in `dir` is in the feed's catalog (true before the feed has one). */
  isListed(dir: string): boolean {
    return this.catalog === null || this.bySessionDir.has(dir);
  }

  /** Resolves once the feed has its baseline and its watches (or polling) are in place. */
  ready(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  /** Resolves once no look is pending or running (tests, bench). */
  async settled(): Promise<void> {
    await this.ready();
    while (this.looking || this.timer) await (this.looking ?? new Promise((r) => setTimeout(r, 5)));
  }

  private get idle(): boolean {
    return this.listeners.size === 0 && this.viewListeners.size === 0;
  }

  private start(): Promise<void> {
    if (this.options.watch === 'off' || this.starting) return this.ready();
    this.starting = this.baseline().catch(() => undefined);
    return this.starting;
  }

  private async baseline(): Promise<void> {
    const catalog = await this.store.refresh(true);
    this.useCatalog(catalog);
    let n = 0;
    for (const dir of this.bySessionDir.keys()) {
      this.views.set(dir, (await locateViews(dir)).compact);
      if (++n % 256 === 0) await new Promise((r) => setImmediate(r));
    }
    if (this.mode === 'events') this.startWatching();
    else this.startPolling();
    // A session that appeared after the baseline's scan but before the watches were in place
    // told no watch: the roots are scanned once more now that they are watched (a subscriber
    // that came just before a session was made never heard of it; seen under load).
    const again = await this.store.refresh(true);
    if (!sameSessions(catalog, again)) await this.catalogChanged(catalog, again);
  }

  private startWatching(): void {
    const watches = new FeedWatches(
      this.options.geminiHome,
      {
        catalog: () => this.touched(null),
        session: (dir) => this.touched(dir),
        failed: (reason) => {
          this.fellBack = true;
          this.watching = null;
          this.options.onFallback?.(reason);
          this.startPolling();
        },
      },
      this.options.ingestDir ?? null,
    );
    this.watching = watches;
    watches.watchCatalog(this.catalog!);
    for (const dir of this.bySessionDir.keys()) this.watching?.watchSession(dir);
  }

  private startPolling(): void {
    this.poller = setInterval(() => {
      this.catalogDirty = true;
      for (const dir of this.bySessionDir.keys()) this.dirty.add(dir);
      this.schedule(0);
    }, this.options.pollMs);
    this.poller.unref();
  }

  /** A watch event: the session in `dir` (null: the roots) needs a look. */
  private touched(dir: string | null): void {
    if (dir !== null && this.bySessionDir.has(dir)) this.dirty.add(dir);
    else {
      // A directory becoming a session: its logs/ may just have been made.
      if (dir !== null) this.watching?.watchSession(dir);
      this.catalogDirty = true;
    }
    this.schedule(this.options.coalesceMs ?? 15);
  }

  private schedule(delay: number): void {
    if (this.timer || this.idle) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.looking) {
        // Events during a look are looked at right after it.
        void this.looking.then(() => this.schedule(0));
        return;
      }
      this.looking = this.look()
        .catch(() => undefined)
        .finally(() => (this.looking = null));
    }, delay);
  }

  private async look(): Promise<void> {
    if (this.catalogDirty || this.fullRescan) {
      const quick = !this.fullRescan;
      this.catalogDirty = this.fullRescan = false;
      const before = this.catalog!;
      // refresh() answers with a scan that began after this call (one already running may
      // have read the roots before the change).
      const after = await this.store.refresh(quick);
      if (after !== before) await this.catalogChanged(before, after);
    }
    const dirs = [...this.dirty];
    this.dirty.clear();
    for (const dir of dirs) {
      // Folders created since (chunks) are watched too: once per look, not per event.
      this.watching?.watchSession(dir);
      const now = (await locateViews(dir)).compact;
      const old = this.views.get(dir);
      if (old === undefined || (old && now && sameView(old, now)) || (!old && !now)) continue;
      this.views.set(dir, now);
      for (const wake of this.viewListeners.get(dir) ?? []) wake();
      if (now) {
        if (!old || (await completedLine(dir, old, now))) this.throttle.grew(dir);
      } else {
        this.fullRescan = true;
        this.schedule(0);
      }
    }
  }

  private async catalogChanged(before: Catalog, after: Catalog): Promise<void> {
    const old = this.bySessionDir;
    this.useCatalog(after);
    for (const dir of old.keys()) {
      if (this.bySessionDir.has(dir)) continue;
      this.views.delete(dir);
      this.throttle.forget(dir);
      this.watching?.forgetSession(dir);
      for (const wake of this.viewListeners.get(dir) ?? []) wake();
    }
    for (const dir of this.bySessionDir.keys()) {
      if (old.has(dir)) continue;
      // Watched first, then read: a line appended in between is seen by the next look.
      this.watching?.watchSession(dir);
      this.views.set(dir, (await locateViews(dir)).compact);
    }
    this.watching?.watchCatalog(after);
    const at = new Date();
    for (const l of this.listeners) l.catalogChanged?.(before, after, at);
  }

  private useCatalog(catalog: Catalog): void {
    this.catalog = catalog;
    this.bySessionDir = new Map();
    for (const s of [...catalog.newestFirst, ...catalog.shadowed]) {
      this.bySessionDir.set(s.entry.realDir, s);
    }
  }

  private sendUpdated(dir: string): void {
    const session = this.bySessionDir.get(dir);
    if (!session) return;
    const at = new Date();
    for (const l of this.listeners) l.updated?.(session, at);
  }

  private stopWhenIdle(): void {
    if (!this.idle) return;
    void this.ready().then(() => {
      if (this.idle) this.stop();
    });
  }

  /** Closes every watch and timer; the next listener starts afresh. */
  stop(): void {
    this.watching?.close();
    this.watching = null;
    if (this.poller) clearInterval(this.poller);
    if (this.timer) clearTimeout(this.timer);
    this.poller = this.timer = null;
    this.throttle.clear();
    this.views.clear();
    this.dirty.clear();
    this.starting = null;
  }
}

/** Whether two catalogs list the same session folders (a rescan makes a new catalog). */
function sameSessions(a: Catalog, b: Catalog): boolean {
  if (a === b) return true;
  const dirs = (c: Catalog) => [...c.newestFirst, ...c.shadowed].map((s) => s.entry.realDir);
  const left = dirs(a);
  const right = new Set(dirs(b));
  return left.length === right.size && left.every((d) => right.has(d));
}
