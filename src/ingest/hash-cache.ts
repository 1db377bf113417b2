import { createHash, type Hash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';

/**
 * SHA-256 of held files without reading them again: a file's hash state is kept by
 * (inode, size, mtime), and an append continues a copy of it with the new bytes. A pusher asks
 * for every session it sends, so without this a second push of an unchanged home would make
 * the server read the whole home again. Bounded: the least recently used states go first.
 */

export interface HashState {
  ino: number;
  size: number;
  mtimeMs: number;
  hash: Hash;
}

export class HashCache {
  private readonly states = new Map<string, HashState>();

  constructor(private readonly max = 20_000) {}

  /** The hash state of `abs` as `st` describes it, reading the file only when not known. */
  async stateOf(abs: string, st: Stats): Promise<Hash> {
    const known = this.states.get(abs);
    if (known && known.ino === st.ino && known.size === st.size && known.mtimeMs === st.mtimeMs) {
      this.states.delete(abs);
      this.states.set(abs, known);
      return known.hash.copy();
    }
    const hash = createHash('sha256');
    if (st.size > 0) {
      // The bytes that were there when `st` was taken; the caller holds the file's lock.
      for await (const chunk of createReadStream(abs, { start: 0, end: st.size - 1 }))
        hash.update(chunk as Buffer);
    }
    this.remember(abs, st, hash);
    return hash.copy();
  }

  /** Records `hash` (not used afterwards by the caller) as the state of `abs` at `st`. */
  remember(abs: string, st: Stats, hash: Hash): void {
    this.states.delete(abs);
    this.states.set(abs, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, hash });
    while (this.states.size > this.max)
      this.states.delete(this.states.keys().next().value as string);
  }

  forget(abs: string): void {
    this.states.delete(abs);
  }
}
