import { SizedCache, type CacheBudget } from '../cache';
import { sameView, viewKey, type ViewSource } from './view';

/** Something derived from a view that can catch up with appended bytes. */
export interface Incremental {
  view: ViewSource;
  /** False: never served again, not even for the same bytes (a read that failed or was cut). */
  readonly reusable?: boolean;
  /** False while a scan stopped by its signal has not reached the end of `view`. */
  readonly complete: boolean;
  /** Approximate heap held, for the cache budget. */
  readonly bytes: number;
  canExtendTo(next: ViewSource): boolean;
  /**
   * Whether `next` still holds, where they were read, the bytes this value ends with (a file
   * rewritten in place with more bytes keeps its inode and grows, like an append).
   */
  heldBy?(next: ViewSource): Promise<boolean>;
  /** Reads what `next` has beyond what was read (also what an aborted scan left). */
  extendTo(next: ViewSource, signal?: AbortSignal): Promise<void>;
}

/**
 * A scan stopped by its signal. `partial` is consistent up to the last complete line read: the
 * cache keeps it and the next request resumes from there, so a long scan cut by one request's
 * deadline is not wasted.
 */
export class ScanAborted extends Error {
  constructor(
    readonly partial: Incremental,
    readonly reason: unknown,
  ) {
    super('scan aborted');
  }
}

/** Counted until the build resolves and the value is measured. */
const PENDING_BYTES = 1024;

/**
 * Caches one derived value per view, keyed by session directory and view label, within the
 * store's byte budget. A request with the same bytes is a hit; an append extends the value
 * from where it stopped; anything else (shrunk, replaced, rotated) rebuilds it. Updates of one
 * key run one after another, so two requests never scan the same appended bytes twice.
 */
export class ViewCache<T extends Incremental> {
  private readonly cache: SizedCache<Promise<T>>;

  constructor(
    name: string,
    budget: CacheBudget,
    private readonly build: (realDir: string, view: ViewSource, signal?: AbortSignal) => Promise<T>,
  ) {
    this.cache = new SizedCache(name, budget);
  }

  /** The value for `view`; `signal` stops a long scan (it rejects with the signal's reason). */
  get(realDir: string, view: ViewSource, signal?: AbortSignal): Promise<T> {
    const key = viewKey(realDir, view);
    const previous = this.cache.lookup(key);
    if (!previous) this.cache.stats.misses++;
    const work = previous
      ? previous.then(
          (state) => this.update(realDir, state, view, signal),
          () => {
            this.cache.stats.misses++;
            return this.build(realDir, view, signal);
          },
        )
      : this.build(realDir, view, signal);
    const kept = work.catch((err: unknown) => {
      if (err instanceof ScanAborted) return err.partial as T;
      throw err;
    });
    // Counted as before until measured again (a new view: a placeholder).
    this.cache.set(key, kept, this.cache.bytesOf(key) ?? PENDING_BYTES);
    kept.then(
      (state) => this.cache.resize(key, kept, state.bytes),
      () => {
        if (this.cache.peek(key) === kept) this.cache.delete(key);
      },
    );
    return work.catch((err: unknown) => {
      throw err instanceof ScanAborted ? err.reason : err;
    });
  }

  /** Something is cached (or being made) for this view's key. */
  has(realDir: string, view: ViewSource): boolean {
    return this.cache.peek(viewKey(realDir, view)) !== undefined;
  }

  /** Puts a value made elsewhere (an earlier run's) where none is cached yet. */
  seed(realDir: string, value: T): void {
    const key = viewKey(realDir, value.view);
    if (this.cache.peek(key)) return;
    this.cache.set(key, Promise.resolve(value), value.bytes);
  }

  /** The cached value, when it is settled and describes exactly `view`. */
  async settled(realDir: string, view: ViewSource): Promise<T | null> {
    const cached = this.cache.peek(viewKey(realDir, view));
    const value = await cached?.catch(() => null);
    return value && value.complete && sameView(value.view, view) ? value : null;
  }

  private async update(realDir: string, state: T, view: ViewSource, signal?: AbortSignal) {
    if (state.reusable !== false && state.complete && sameView(state.view, view)) {
      this.cache.stats.hits++;
      return state;
    }
    this.cache.stats.misses++;
    if (
      state.reusable !== false &&
      state.canExtendTo(view) &&
      ((await state.heldBy?.(view)) ?? true)
    ) {
      await state.extendTo(view, signal);
      return state;
    }
    return this.build(realDir, view, signal);
  }
}
