/**
 * One writer per file at a time, in this process: a PUT reads the current size, compares the
 * offset and writes, and two of those interleaved would break the offset rule. Keys are the
 * files' absolute paths; an idle key holds nothing.
 */
export class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
