import { BrainStore } from '../../brain/store';
import { ChangeFeed } from '../../live/change-feed';
import { Unreachable } from './ingest-client';
import type { LocalSession } from './local-files';

/**
 * --watch: the local change feed (the server's own, over a store of the local home) says which
 * session grew; that session is pushed again (its unchanged files cost a stat each). A sweep
 * of every session now and then catches what the feed does not report (artifacts written
 * without a new transcript line). While the server is away, pushes are retried with backoff.
 */

export interface WatchOptions {
  geminiHome: string;
  brainRoots: string[];
  /** Sessions of the home to push (re-read on every sweep: new sessions appear). */
  sessions: () => Promise<LocalSession[]>;
  push: (sessions: LocalSession[]) => Promise<void>;
  onRetry: (err: Error, waitMs: number) => void;
  sweepMs?: number;
  signal: AbortSignal;
  /** The first push did not reach the server: push everything once the loop starts. */
  startWithSweep?: boolean;
}

const MAX_BACKOFF_MS = 30_000;

export async function watchAndPush(o: WatchOptions): Promise<void> {
  const store = new BrainStore({ geminiHome: o.geminiHome, brainRoots: o.brainRoots });
  const feed = new ChangeFeed(store, {
    geminiHome: o.geminiHome,
    watch: 'auto',
    pollMs: 1000,
    updatedEveryMs: 250,
  });
  const dirty = new Set<string>();
  let sweep = o.startWithSweep ?? false;
  let wake: (() => void) | null = null;
  const poke = () => wake?.();
  const stop = feed.listen({
    updated: (s) => {
      dirty.add(s.entry.id);
      poke();
    },
    catalogChanged: () => {
      sweep = true;
      poke();
    },
  });
  const sweeper = setInterval(() => {
    sweep = true;
    poke();
  }, o.sweepMs ?? 10_000);
  o.signal.addEventListener('abort', poke);
  let backoff = 500;
  try {
    await feed.ready();
    while (!o.signal.aborted) {
      if (dirty.size === 0 && !sweep)
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      wake = null;
      if (o.signal.aborted) break;
      const all = await o.sessions();
      const ids = new Set(dirty);
      const chosen = sweep ? all : all.filter((s) => ids.has(s.id));
      dirty.clear();
      sweep = false;
      try {
        await o.push(chosen);
        backoff = 500;
      } catch (err) {
        if (!(err instanceof Unreachable)) throw err;
        // The server is away: the same sessions again after a pause, longer each time.
        for (const s of chosen) dirty.add(s.id);
        o.onRetry(err, backoff);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
      }
    }
  } finally {
    stop();
    clearInterval(sweeper);
  }
}
