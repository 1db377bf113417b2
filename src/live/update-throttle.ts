/**
 * UPDATED's pace: at most one per session per `everyMs`, and always one after the last growth
 * (a growth inside the period is told when the period ends, once however many came).
 */
export class UpdateThrottle {
  private readonly last = new Map<string, number>();
  private readonly trailing = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly everyMs: number,
    private readonly send: (dir: string) => void,
  ) {}

  /** The session in `dir` grew now. */
  grew(dir: string): void {
    const wait = (this.last.get(dir) ?? -Infinity) + this.everyMs - Date.now();
    if (wait <= 0) {
      // A trailing one due now would repeat this one (the same growth, twice in a millisecond).
      const pending = this.trailing.get(dir);
      if (pending) clearTimeout(pending);
      this.trailing.delete(dir);
      this.fire(dir);
      return;
    }
    if (this.trailing.has(dir)) return;
    this.trailing.set(
      dir,
      setTimeout(() => {
        this.trailing.delete(dir);
        this.fire(dir);
      }, wait),
    );
  }

  forget(dir: string): void {
    this.last.delete(dir);
    const t = this.trailing.get(dir);
    if (t) clearTimeout(t);
    this.trailing.delete(dir);
  }

  clear(): void {
    for (const t of this.trailing.values()) clearTimeout(t);
    this.trailing.clear();
    this.last.clear();
  }

  private fire(dir: string): void {
    this.last.set(dir, Date.now());
    this.send(dir);
  }
}
