import { watch, type FSWatcher } from 'node:fs';

/**
 * Directory-level file system watches (one per directory, never one per file): an event in a
 * watched directory, whatever its kind or file name, only says "look at this directory now".
 * Watches are a shared, limited resource (inotify's limits are per user and shared by every
 * container of a host): when one cannot be set up or fails later (ENOSPC, EMFILE, ...),
 * `onFailure` is told once and every watch is closed, so the caller can poll instead.
 */
export class DirWatcher {
  private readonly watches = new Map<string, FSWatcher>();
  private failed = false;

  constructor(
    private readonly onEvent: (dir: string, name: string | null) => void,
    private readonly onFailure: (reason: string) => void,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  get broken(): boolean {
    return this.failed;
  }

  has(dir: string): boolean {
    return this.watches.has(dir);
  }

  /**
   * Watches `dir` (no-op when already watched or after a failure). A directory that does not
   * exist (any more) is not a failure: false, and nothing is watched.
   */
  add(dir: string): boolean {
    if (this.failed || this.watches.has(dir)) return !this.failed;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: false }, (_event, name) =>
        this.onEvent(dir, typeof name === 'string' ? name : null),
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES' || code === 'EPERM') {
        return false;
      }
      this.fail(`watching ${dir} failed: ${code ?? String(err)}`);
      return false;
    }
    // A watched directory that goes away ends its watch (the parent's watch reports it).
    w.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EPERM') this.remove(dir);
      else this.fail(`a watch on ${dir} failed: ${err.code ?? err.message}`);
    });
    this.watches.set(dir, w);
    return true;
  }

  remove(dir: string): void {
    const w = this.watches.get(dir);
    if (!w) return;
    this.watches.delete(dir);
    w.close();
  }

  close(): void {
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
  }

  private fail(reason: string): void {
    if (this.failed) return;
    this.failed = true;
    this.close();
    this.onFailure(reason);
  }
}
