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

/**
 * The pause between passes is a timer. With timers and Date faked (setImmediate, which a pass
 * yields with, stays real), the clock moves only when a test moves it: a caughtUp() that resolves
 * while the clock stands still did not wait for a pause, however busy the machine. Measured
 * against the wall clock (under 400 ms, for a 500 ms pause) it failed when the machine was slow.
 */
describe('on a clock that moves only when the test moves it', () => {
  beforeEach(() =>
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }),
  );
  afterEach(() => jest.useRealTimers());

  /** Lets the loop run (real event-loop turns, no clock time) until `done` holds or it goes idle. */
  async function turns(done: () => boolean = () => false): Promise<void> {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setImmediate(r));
  }

  /** Whether `p` settles with the clock standing still. */
  async function settles(p: Promise<unknown>): Promise<boolean> {
    let settled = false;
    void p.finally(() => (settled = true));
    await turns(() => settled);
    return settled;
  }

  it('caughtUp waits for a thorough pass that started after it, with no pause before it', async () => {
    const { ix, calls } = indexer();
    ix.start();
    // Asked for while the first pass runs: the second is run at once after it.
    expect(await settles(ix.caughtUp())).toBe(true);
    // The first pass was running (thorough anyway): the one after it is the one waited for.
    expect(calls).toEqual([true, true]);
    // Nobody waits: one quick pass after each pause (500 ms: a pass takes no time on this clock).
    for (const n of [3, 4, 5]) {
      jest.advanceTimersByTime(499);
      await turns();
      expect(calls).toHaveLength(n - 1);
      jest.advanceTimersByTime(1);
      // A pass has ended when it is counted (its next pause is set in the same turn).
      await turns(() => ix.passes === n);
      expect(calls).toHaveLength(n);
    }
    expect(calls.slice(2)).toEqual([false, false, false]);
    // Asked for while the loop sleeps: it wakes, once for each call.
    expect(await settles(ix.caughtUp().then(() => ix.caughtUp()))).toBe(true);
    expect(calls.slice(5)).toEqual([true, true]);
    await ix.stop();
  });
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
