/**
 * Open subscriptions per key (or client address), capped at MAX_SUBSCRIPTIONS. A slot is
 * taken when a subscription starts and given back once, however it ends.
 */
export class Slots {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(private readonly max: number) {}

  /** Subscriptions open now, over every caller. */
  get count(): number {
    return this.total;
  }

  /** A function that gives the slot back, or null when `who` holds `max` already. */
  take(who: string): (() => void) | null {
    const n = this.open.get(who) ?? 0;
    if (n >= this.max) return null;
    this.open.set(who, n + 1);
    this.total++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total--;
      const left = (this.open.get(who) ?? 1) - 1;
      if (left === 0) this.open.delete(who);
      else this.open.set(who, left);
    };
  }
}
