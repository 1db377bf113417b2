/**
 * Where the indexer's time goes, by stage of its pipeline (issue 22: the bench prints each
 * stage's throughput). Exclusive wall time: a stage entered inside another (redaction inside
 * the texts, the parse inside the read) pauses the outer one, so the stages add up to the time
 * the indexer spent in them. Awaits inside a stage count as that stage (a read waiting for the
 * disk is reading). Off unless asked for (SqliteIndexOptions.stageClock): the bench's build.
 */
export const STAGES = [
  /** The catalog's scan of the roots; listing a session's files (views, outputs, artifacts). */
  'walk',
  /** Reading transcript bytes and splitting lines (scanLines), full-tier twins. */
  'read',
  /** JSON.parse and the record's shape (parseLine). */
  'parse',
  /** A record's searchable texts and a file's text, without the redactor's own time. */
  'texts',
  /** The redactor: masking what is stored, counting findings, masked names and summaries. */
  'redaction',
  /** Step facts, the summary's counters and the session's stats aggregates. */
  'facts',
  /** Statements and transactions of index.sqlite (FTS5's inserts and merges included). */
  'sqlite',
] as const;

export type Stage = (typeof STAGES)[number];

export class StageClock {
  /** `on`: false makes every call a plain call (no timing). */
  constructor(readonly on = true) {}

  readonly ms = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  private current: Stage | null = null;
  private since = 0;

  /** Charges the time so far to the current stage and makes `stage` current; returns the old. */
  enter(stage: Stage | null): Stage | null {
    const now = performance.now();
    if (this.current !== null) this.ms[this.current] += now - this.since;
    const was = this.current;
    this.current = stage;
    this.since = now;
    return was;
  }

  run<T>(stage: Stage, fn: () => T): T {
    if (!this.on) return fn();
    const was = this.enter(stage);
    try {
      return fn();
    } finally {
      this.enter(was);
    }
  }

  async wait<T>(stage: Stage, fn: () => Promise<T>): Promise<T> {
    if (!this.on) return fn();
    const was = this.enter(stage);
    try {
      return await fn();
    } finally {
      this.enter(was);
    }
  }
}

/**
 * `target` with every method call timed as `stage`, a returned promise until it settles.
 * `db`'s transaction(fn) is timed as a whole (its commit is where FTS5 writes most); the
 * objects of `inner` properties (`db`) are wrapped the same way.
 */
export function timed<T extends object>(
  target: T,
  clock: StageClock,
  stage: Stage,
  inner: readonly string[] = [],
): T {
  if (!clock.on) return target;
  const wrapped = new Map<PropertyKey, unknown>();
  const call = (f: (...a: unknown[]) => unknown, self: unknown, a: unknown[]): unknown => {
    const was = clock.enter(stage);
    let out: unknown;
    try {
      out = f.apply(self, a);
    } catch (err) {
      clock.enter(was);
      throw err;
    }
    if (out instanceof Promise) return out.finally(() => clock.enter(was));
    clock.enter(was);
    return out;
  };
  return new Proxy(target, {
    get(o, key) {
      const v: unknown = Reflect.get(o, key, o);
      if (inner.includes(key as string) && typeof v === 'object' && v !== null) {
        if (!wrapped.has(key)) wrapped.set(key, timed(v, clock, stage));
        return wrapped.get(key);
      }
      if (typeof v !== 'function') return v;
      const f = v as (...a: unknown[]) => unknown;
      if (key === 'transaction') {
        return (fn: (...a: unknown[]) => unknown) => {
          const tx = f.call(o, fn) as (...a: unknown[]) => unknown;
          return (...a: unknown[]) => call(tx, undefined, a);
        };
      }
      return (...a: unknown[]) => call(f, o, a);
    },
  });
}
