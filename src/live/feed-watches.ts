import * as path from 'node:path';
import type { Catalog } from '../brain/catalog';
import { DirWatcher } from './dir-watcher';
import { catalogDirs, sessionDirs, type WatchTarget } from './watch-plan';

export interface WatchEvents {
  /** Something in the home or a root changed: sessions may have appeared or vanished. */
  catalog(): void;
  /**
   * Something in the folders of the session (or would-be session) in `dir` changed; the
   * listener calls watchSession again (once per burst) so folders created since are watched.
   */
  session(dir: string): void;
  /** Watches failed (they are all closed): poll instead. */
  failed(reason: string): void;
}

/**
 * The watches of the change feed and what each directory stands for (see watch-plan.ts).
 * A directory appearing in a root is watched until it becomes a session (or goes away), so
 * its transcript's creation is seen.
 */
export class FeedWatches {
  private readonly watcher: DirWatcher;
  private readonly targets = new Map<string, WatchTarget>();
  private rootDirs = new Set<string>();

  constructor(
    private readonly geminiHome: string | null,
    private readonly events: WatchEvents,
    private readonly ingestDir: string | null = null,
  ) {
    this.watcher = new DirWatcher(
      (dir, name) => this.onEvent(dir, name),
      (reason) => {
        this.targets.clear();
        events.failed(reason);
      },
    );
  }

  get size(): number {
    return this.watcher.size;
  }

  /** Watches the home, its flavor folders and the catalog's roots (new ones included). */
  watchCatalog(catalog: Catalog): void {
    this.rootDirs = new Set(catalog.roots.map((r) => r.root.realPath));
    for (const dir of catalogDirs(this.geminiHome, catalog, this.ingestDir))
      this.add(dir, { kind: 'catalog' });
  }

  watchSession(dir: string): void {
    for (const d of sessionDirs(dir)) this.add(d, { kind: 'session', dir });
  }

  forgetSession(dir: string): void {
    for (const [d, t] of this.targets) {
      if (t.kind === 'session' && t.dir === dir) {
        this.watcher.remove(d);
        this.targets.delete(d);
      }
    }
  }

  close(): void {
    this.watcher.close();
    this.targets.clear();
  }

  private add(dir: string, target: WatchTarget): void {
    if (this.watcher.add(dir)) this.targets.set(dir, target);
  }

  private onEvent(dir: string, name: string | null): void {
    const target = this.targets.get(dir);
    if (!target) return;
    if (target.kind === 'session') {
      this.events.session(target.dir);
      return;
    }
    if (name && this.rootDirs.has(dir)) this.watchSession(path.join(dir, name));
    else if (name && (dir === this.geminiHome || this.aboveIngestRoots(dir)))
      this.add(path.join(dir, name), { kind: 'catalog' });
    this.events.catalog();
  }

  /** INGEST_DIR or a source folder in it: what appears there leads to roots. */
  private aboveIngestRoots(dir: string): boolean {
    if (this.ingestDir === null) return false;
    return dir === this.ingestDir || path.dirname(dir) === this.ingestDir;
  }
}
