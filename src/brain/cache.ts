import type { Stats } from 'node:fs';
import { LRUCache } from 'lru-cache';

/**
 * Caches keyed by a file's identity and version. A brain is written by a live agent, so
 * anything derived from a file is valid only for the (dev, ino, size, mtime) it was computed
 * from; a changed tuple means the entry is stale. Entries are evicted least-recently-used once
 * their estimated bytes pass one budget (CACHE_MAX_MB), however many sessions the home holds.
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

export const MiB = 1024 * 1024;
/** CACHE_MAX_MB's default. */
export const DEFAULT_CACHE_BYTES = 256 * MiB;

interface Sized {
  value: unknown;
  bytes: number;
}

/**
 * One byte budget shared by every cache of a store: a least-recently-used map whose entries
 * carry an estimate of the heap they hold, evicted once their sum passes `maxBytes`. One
 * accounting rather than a share per cache: whichever kind of data is in use keeps the room.
 * An entry larger than the whole budget is not kept at all.
 */
export class CacheBudget {
  private readonly lru: LRUCache<string, Sized>;

  constructor(readonly maxBytes: number = DEFAULT_CACHE_BYTES) {
    this.lru = new LRUCache<string, Sized>({
      maxSize: Math.max(1, Math.floor(maxBytes)),
      sizeCalculation: (entry) => entry.bytes,
    });
  }

  /** Estimated bytes held by the entries now kept (never above maxBytes). */
  get usedBytes(): number {
    return this.lru.calculatedSize;
  }

  get entries(): number {
    return this.lru.size;
  }

  /** Drops every entry (what a memory-pressure hook or a test calls). */
  clear(): void {
    this.lru.clear();
  }

  /** For SizedCache only. */
  getEntry(key: string): Sized | undefined {
    return this.lru.get(key);
  }

  /** For SizedCache only. */
  peekEntry(key: string): Sized | undefined {
    return this.lru.peek(key);
  }

  /** For SizedCache only: a fresh entry object each time, so lru-cache re-measures it. */
  setEntry(key: string, value: unknown, bytes: number): void {
    this.lru.set(key, { value, bytes: Math.max(1, Math.ceil(bytes)) });
  }

  deleteEntry(key: string): void {
    this.lru.delete(key);
  }
}

/** A named view of a CacheBudget, with its own keys and hit/miss counters. */
export class SizedCache<V> {
  readonly stats: CacheStats;
  private readonly prefix: string;

  constructor(
    readonly name: string,
    readonly budget: CacheBudget,
  ) {
    this.stats = cacheStats[name] ?? (cacheStats[name] = { hits: 0, misses: 0 });
    this.prefix = `${name}\0`;
  }

  /** The value (now the most recently used), counting a hit or a miss. */
  get(key: string): V | undefined {
    const value = this.lookup(key);
    if (value === undefined) this.stats.misses++;
    else this.stats.hits++;
    return value;
  }

  /** The value (now the most recently used); the caller counts whether it served. */
  lookup(key: string): V | undefined {
    return this.budget.getEntry(this.prefix + key)?.value as V | undefined;
  }

  /** The value without counting or refreshing it. */
  peek(key: string): V | undefined {
    return this.budget.peekEntry(this.prefix + key)?.value as V | undefined;
  }

  /** The bytes `key` is counted for now, if it is kept. */
  bytesOf(key: string): number | undefined {
    return this.budget.peekEntry(this.prefix + key)?.bytes;
  }

  /** Keeps `value` as using `bytes` of heap (not kept when that is more than the budget). */
  set(key: string, value: V, bytes: number): void {
    this.budget.setEntry(this.prefix + key, value, bytes);
  }

  /** Re-measures `value` if it is still the one kept under `key`. */
  resize(key: string, value: V, bytes: number): void {
    if (this.peek(key) === value) this.set(key, value, bytes);
  }

  delete(key: string): void {
    this.budget.deleteEntry(this.prefix + key);
  }
}
