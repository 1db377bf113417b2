import type { Stats } from 'node:fs';

/**
 * Caches keyed by a file's identity and version. A brain is written by a live agent, so
 * anything derived from a file is valid only for the (dev, ino, size, mtime) it was computed
 * from; a changed tuple means the entry is stale. Entries are evicted least-recently-used so
 * a home with tens of thousands of sessions cannot grow the cache without bound.
 */

export interface FileVersion {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function versionOf(stats: Stats): FileVersion {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

export function versionKey(v: FileVersion): string {
  return `${v.dev}:${v.ino}:${v.size}:${v.mtimeMs}`;
}

/** Hit/miss counters, read by the metrics endpoint. */
export interface CacheStats {
  hits: number;
  misses: number;
}

export const cacheStats: Record<string, CacheStats> = {};

/** A bounded LRU map (insertion order of a Map is the recency order). */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  readonly stats: CacheStats;

  constructor(
    readonly name: string,
    private readonly capacity: number,
  ) {
    this.stats = cacheStats[name] ?? (cacheStats[name] = { hits: 0, misses: 0 });
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
    }
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
