import type { ListedSession } from '../brain/catalog';
import type { BrainStore } from '../brain/store';
import { IngestTraffic } from '../ops/ingest-traffic';
import { HomeIndexer } from './home-indexer';
import type { SessionIndexer } from './session-indexer';
import type { Tables } from './sqlite/tables';

/**
 * The background passes: what caughtUp() promises (a whole, thorough pass that started after
 * the call, without the pause between passes), that stop() lets every waiter go, and that
 * the passes make way for pushes (IngestTraffic).
 */

const listed = { entry: { realDir: '/brain/s1' } } as ListedSession;

function indexer(traffic: IngestTraffic | null = null) {
  const catalog = { newestFirst: [listed], shadowed: [] };
  const store = {
    catalog: () => Promise.resolve(catalog),
    refresh: () => Promise.resolve(catalog),
  } as unknown as BrainStore;
  const tables = { allSessions: () => [] } as unknown as Tables;
  const calls: boolean[] = [];
  const sessions = {
    index: (_: ListedSession, thorough: boolean) => {
      calls.push(thorough);
      return Promise.resolve(null);
    },
  } as unknown as SessionIndexer;
  const events = { indexed: () => undefined, failed: () => undefined, passed: () => undefined };
  return { ix: new HomeIndexer(store, tables, sessions, events, traffic), calls };
}

it('caughtUp waits for a thorough pass that started after it, with no pause before it', async () => {
  const { ix, calls } = indexer();
  const begun = Date.now();
  ix.start();
  // Asked for while the first pass runs: the second is run at once after it.
  await ix.caughtUp();
  expect(Date.now() - begun).toBeLessThan(400);
  // The first pass was running (thorough anyway): the one after it is the one waited for.
  expect(calls).toEqual([true, true]);
  await new Promise((r) => setTimeout(r, 700));
  const quick = calls.length;
  expect(calls.slice(2)).toEqual(Array(quick - 2).fill(false));
  expect(quick).toBeGreaterThan(2);
  const started = Date.now();
  await ix.caughtUp();
  await ix.caughtUp();
  // Asked for while the loop sleeps: it wakes.
  expect(Date.now() - started).toBeLessThan(400);
  expect(calls.slice(quick)).toEqual([true, true]);
  await ix.stop();
});

it('stop() lets a waiting caughtUp go, even when the loop ends without another pass', async () => {
  const { ix } = indexer();
  ix.start();
  await ix.caughtUp();
  const waiting = ix.caughtUp();
  await ix.stop();
  await expect(waiting).resolves.toBeUndefined();
  await expect(ix.caughtUp()).resolves.toBeUndefined();
});

it('waits while ingest requests arrive, and indexes in their first pause', async () => {
  const traffic = new IngestTraffic(150, 10_000);
  const { ix, calls } = indexer(traffic);
  // A push in flight: the first pass does not index its session until the push pauses.
  const end = traffic.begin();
  ix.start();
  await new Promise((r) => setTimeout(r, 400));
  expect(calls).toEqual([]);
  const ended = Date.now();
  end();
  await ix.caughtUp();
  expect(calls.length).toBeGreaterThan(0);
  // Not before the pause of quietMs after the last answer.
  expect(Date.now() - ended).toBeGreaterThanOrEqual(140);
  await ix.stop();
});

it('stop() does not wait for a push to pause', async () => {
  const traffic = new IngestTraffic(150, 60_000);
  const { ix, calls } = indexer(traffic);
  traffic.begin();
  ix.start();
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await ix.stop();
  expect(Date.now() - started).toBeLessThan(500);
  expect(calls).toEqual([]);
});

it('a pass that waited for pushes is followed by the usual pause, not five times its wait', async () => {
  const traffic = new IngestTraffic(100, 10_000);
  const { ix, calls } = indexer(traffic);
  const end = traffic.begin();
  ix.start();
  await new Promise((r) => setTimeout(r, 1000));
  end();
  // The first pass indexes once the push pauses; the next one follows after MIN_PAUSE_MS
  // (500 ms), not after 5 x the second it waited.
  await new Promise((r) => setTimeout(r, 1200));
  expect(calls.length).toBeGreaterThanOrEqual(2);
  await ix.stop();
});
