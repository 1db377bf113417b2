import { LruCache } from '../cache';
import { sameView, viewKey, type ViewSource } from './view';

/** Something derived from a view that can catch up with appended bytes. */
export interface Incremental {
  view: ViewSource;
  /** False: never served again, not even for the same bytes (a read that failed or was cut). */
  readonly reusable?: boolean;
  canExtendTo(next: ViewSource): boolean;
  extendTo(next: ViewSource): Promise<void>;
}

/**
 * Caches one derived value per view, keyed by session directory and view label. A request
 * with the same bytes is a hit; an append extends the value from where it stopped; anything
 * else (shrunk, replaced, rotated) rebuilds it. Updates of one key run one after another, so
 * two requests never scan the same appended bytes twice.
 */
export class ViewCache<T extends Incremental> {
  private readonly lru: LruCache<string, Promise<T>>;

  constructor(
    name: string,
    capacity: number,
    private readonly build: (realDir: string, view: ViewSource) => Promise<T>,
  ) {
    this.lru = new LruCache(name, capacity);
  }

  get(realDir: string, view: ViewSource): Promise<T> {
    const key = viewKey(realDir, view);
    const previous = this.lru.get(key);
    const next = previous
      ? previous.then(
          (state) => this.update(realDir, state, view),
          () => this.build(realDir, view),
        )
      : this.build(realDir, view);
    this.lru.set(key, next);
    next.catch(() => {
      if (this.lru.get(key) === next) this.lru.delete(key);
    });
    return next;
  }

  private async update(realDir: string, state: T, view: ViewSource): Promise<T> {
    if (state.reusable === false) return this.build(realDir, view);
    if (sameView(state.view, view)) {
      this.lru.stats.hits++;
      return state;
    }
    if (state.canExtendTo(view)) {
      await state.extendTo(view);
      return state;
    }
    return this.build(realDir, view);
  }
}
