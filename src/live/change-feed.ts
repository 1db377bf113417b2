import * as path from 'node:path';
import type { Catalog, ListedSession } from '../brain/catalog';
import type { BrainStore } from '../brain/store';
import { sameView, locateViews, type ViewSource } from '../brain/transcript/view';
import { DirWatcher } from './dir-watcher';
import { catalogDirs, sessionDirs, type WatchTarget } from './watch-plan';

export type WatchMode = 'events' | 'poll' | 'off';

export interface FeedOptions {
  geminiHome: string | null;
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
  private watcher: DirWatcher | null = null;
  private readonly targets = new Map<string, WatchTarget>();
  private catalog: Catalog | null = null;
  private bySessionDir = new Map<string, ListedSession>();
  private readonly views = new Map<string, ViewSource | null>();
  private readonly dirty = new Set<string>();
  private catalogDirty = false;
  private timer: NodeJS.Timeout | null = null;
  private poller: NodeJS.Timeout | null = null;
  private looking: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private readonly lastUpdated = new Map<string, number>();
  private readonly trailing = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly store: BrainStore,
    private readonly options: FeedOptions,
  ) {}

  /** How changes are noticed (also while nobody listens and nothing runs). */
  get mode(): WatchMode {
    if (this.options.watch === 'off') return 'off';
    return this.options.watch === 'poll' || this.fellBack ? 'poll' : 'events';
  }

  /** Number of directories watched. */
  get watches(): number {
    return this.watcher?.size ?? 0;
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
  }

  private startWatching(): void {
    this.watcher = new DirWatcher(
      (dir, name) => this.onEvent(dir, name),
      (reason) => {
        this.fellBack = true;
        this.options.onFallback?.(reason);
        this.watcher = null;
        this.targets.clear();
        this.startPolling();
      },
    );
    for (const dir of catalogDirs(this.options.geminiHome, this.catalog!)) {
      this.watchDir(dir, { kind: 'catalog' });
    }
    for (const dir of this.bySessionDir.keys()) this.watchSession(dir);
  }

  private startPolling(): void {
    this.poller = setInterval(() => {
      this.catalogDirty = true;
      for (const dir of this.bySessionDir.keys()) this.dirty.add(dir);
      this.schedule(0);
    }, this.options.pollMs);
    this.poller.unref();
  }

  private watchDir(dir: string, target: WatchTarget): void {
    if (this.watcher?.add(dir)) this.targets.set(dir, target);
  }

  private watchSession(dir: string): void {
    for (const d of sessionDirs(dir)) this.watchDir(d, { kind: 'session', dir });
  }

  private onEvent(dir: string, name: string | null): void {
    const target = this.targets.get(dir);
    if (!target) return;
    if (target.kind === 'session') {
      this.watchSession(target.dir);
      if (this.bySessionDir.has(target.dir)) this.dirty.add(target.dir);
      else this.catalogDirty = true;
    } else {
      this.catalogDirty = true;
      // A directory appearing in a root may become a session: watch it until it is one.
      if (name && this.catalog?.roots.some((r) => r.root.realPath === dir)) {
        this.watchSession(path.join(dir, name));
      } else if (name && dir === this.options.geminiHome) {
        this.watchDir(path.join(dir, name), { kind: 'catalog' });
      }
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
    if (this.catalogDirty) {
      this.catalogDirty = false;
      const before = this.catalog!;
      // A scan already running may have read the roots before the change: scan once more.
      await this.store.refresh(true);
      const after = await this.store.refresh(true);
      if (after !== before) await this.catalogChanged(before, after);
    }
    const dirs = [...this.dirty];
    this.dirty.clear();
    for (const dir of dirs) {
      const now = (await locateViews(dir)).compact;
      const old = this.views.get(dir);
      if (old === undefined || (old && now && sameView(old, now)) || (!old && !now)) continue;
      this.views.set(dir, now);
      for (const wake of this.viewListeners.get(dir) ?? []) wake();
      this.throttleUpdated(dir);
    }
  }

  private async catalogChanged(before: Catalog, after: Catalog): Promise<void> {
    const old = this.bySessionDir;
    this.useCatalog(after);
    for (const dir of old.keys()) {
      if (this.bySessionDir.has(dir)) continue;
      this.views.delete(dir);
      this.lastUpdated.delete(dir);
      for (const [d, t] of this.targets) if (t.kind === 'session' && t.dir === dir) this.unwatch(d);
      for (const wake of this.viewListeners.get(dir) ?? []) wake();
    }
    for (const dir of this.bySessionDir.keys()) {
      if (old.has(dir)) continue;
      // Watched first, then read: a line appended in between is seen by the next look.
      if (this.watcher) this.watchSession(dir);
      this.views.set(dir, (await locateViews(dir)).compact);
    }
    if (this.watcher) {
      for (const dir of catalogDirs(this.options.geminiHome, after)) {
        this.watchDir(dir, { kind: 'catalog' });
      }
    }
    const at = new Date();
    for (const l of this.listeners) l.catalogChanged?.(before, after, at);
  }

  private unwatch(dir: string): void {
    this.watcher?.remove(dir);
    this.targets.delete(dir);
  }

  private useCatalog(catalog: Catalog): void {
    this.catalog = catalog;
    this.bySessionDir = new Map();
    for (const s of [...catalog.newestFirst, ...catalog.shadowed]) {
      this.bySessionDir.set(s.entry.realDir, s);
    }
  }

  /** At most one UPDATED per session per period, and always one after the last growth. */
  private throttleUpdated(dir: string): void {
    const every = this.options.updatedEveryMs ?? 1000;
    const wait = (this.lastUpdated.get(dir) ?? -Infinity) + every - Date.now();
    if (wait <= 0) {
      this.sendUpdated(dir);
      return;
    }
    if (this.trailing.has(dir)) return;
    const t = setTimeout(() => {
      this.trailing.delete(dir);
      this.sendUpdated(dir);
    }, wait);
    this.trailing.set(dir, t);
  }

  private sendUpdated(dir: string): void {
    const session = this.bySessionDir.get(dir);
    if (!session) return;
    this.lastUpdated.set(dir, Date.now());
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
    this.watcher?.close();
    this.watcher = null;
    this.targets.clear();
    if (this.poller) clearInterval(this.poller);
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.trailing.values()) clearTimeout(t);
    this.poller = this.timer = null;
    this.trailing.clear();
    this.lastUpdated.clear();
    this.views.clear();
    this.dirty.clear();
    this.starting = null;
  }
}
