import { CacheBudget, cacheStats, DEFAULT_CACHE_BYTES, SizedCache } from './cache';

describe('CacheBudget and SizedCache (one byte budget for every cache)', () => {
  it('defaults to 256 MiB', () => {
    expect(new CacheBudget().maxBytes).toBe(DEFAULT_CACHE_BYTES);
    expect(DEFAULT_CACHE_BYTES).toBe(256 * 1024 * 1024);
  });

  it('evicts the least recently used entries of any cache once the bytes pass the budget', () => {
    const budget = new CacheBudget(1000);
    const a = new SizedCache<string>('spec-a', budget);
    const b = new SizedCache<string>('spec-b', budget);
    a.set('1', 'a1', 400);
    b.set('1', 'b1', 400);
    expect(a.get('1')).toBe('a1'); // a1 is now the most recent
    b.set('2', 'b2', 400); // 1200 > 1000: b1, the least recent, goes
    expect([a.peek('1'), b.peek('1'), b.peek('2')]).toEqual(['a1', undefined, 'b2']);
    expect([budget.usedBytes, budget.entries]).toEqual([800, 2]);
  });

  it('keeps no entry larger than the whole budget, and drops the old value of its key', () => {
    const budget = new CacheBudget(1000);
    const c = new SizedCache<string>('spec-c', budget);
    c.set('k', 'small', 10);
    c.set('k', 'huge', 1001);
    expect([c.peek('k'), budget.usedBytes]).toEqual([undefined, 0]);
  });

  it('re-measures a value that grew, only while it is still the one kept', () => {
    const budget = new CacheBudget(1000);
    const c = new SizedCache<object>('spec-d', budget);
    const first = {};
    c.set('k', first, 10);
    c.resize('k', first, 300);
    expect([c.bytesOf('k'), budget.usedBytes]).toEqual([300, 300]);
    c.set('k', {}, 20);
    c.resize('k', first, 900); // no longer kept under 'k': ignored
    expect(c.bytesOf('k')).toBe(20);
  });

  it('counts hits and misses per cache name (read by /metrics)', () => {
    const c = new SizedCache<number>('spec-e', new CacheBudget(100));
    c.get('x');
    c.set('x', 1, 1);
    c.get('x');
    c.lookup('x'); // a lookup leaves the counting to its caller
    expect(cacheStats['spec-e']).toEqual({ hits: 1, misses: 1 });
  });

  it('clears everything', () => {
    const budget = new CacheBudget(100);
    new SizedCache<number>('spec-f', budget).set('x', 1, 10);
    budget.clear();
    expect([budget.usedBytes, budget.entries]).toEqual([0, 0]);
  });
});
