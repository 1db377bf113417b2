import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Catalog, ListedSession } from '../brain/catalog';
import { BrainStore } from '../brain/store';
import { ChangeFeed, type FeedOptions } from './change-feed';

const A = 'a0000000-0000-4000-8000-00000000000a';
const line = (i: number) => JSON.stringify({ step_index: i, type: 'X', content: `r${i}` }) + '\n';

describe('ChangeFeed', () => {
  let home: string;
  let feed: ChangeFeed;
  const transcript = (id: string) =>
    path.join(home, 'antigravity-ide/brain', id, '.system_generated/logs/transcript.jsonl');
  const write = (id: string, text: string) => {
    fs.mkdirSync(path.dirname(transcript(id)), { recursive: true });
    fs.appendFileSync(transcript(id), text);
  };

  async function sut(options: Partial<FeedOptions> = {}) {
    const store = new BrainStore({ geminiHome: home, brainRoots: [] });
    await store.refresh();
    feed = new ChangeFeed(store, { geminiHome: home, watch: 'auto', pollMs: 50, ...options });
    const updated: [string, number][] = [];
    const catalogs: [string[], string[]][] = [];
    const ids = (c: Catalog) => c.newestFirst.map((s) => s.entry.id);
    feed.listen({
      updated: (s: ListedSession) => updated.push([s.entry.id, Date.now()]),
      catalogChanged: (before, after) => catalogs.push([ids(before), ids(after)]),
    });
    await feed.ready();
    return { updated, catalogs };
  }

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-feed-'));
    write(A, line(0));
  });
  afterEach(() => {
    feed.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('gathers a burst of events into one look, and tells UPDATED once, then after the period', async () => {
    const { updated } = await sut({ updatedEveryMs: 300 });
    const looks = jest.spyOn(feed as unknown as { look(): Promise<void> }, 'look');
    for (let i = 1; i <= 50; i++) write(A, line(i));
    await new Promise((r) => setTimeout(r, 100));
    await feed.settled();
    expect(looks).toHaveBeenCalledTimes(1);
    expect(updated.map(([id]) => id)).toEqual([A]);
    write(A, line(51));
    await new Promise((r) => setTimeout(r, 50));
    write(A, line(52));
    await new Promise((r) => setTimeout(r, 500));
    expect(updated.map(([id]) => id)).toEqual([A, A]);
    expect(updated[1][1] - updated[0][1]).toBeGreaterThanOrEqual(295);
  });

  it('tells new sessions, and a session whose transcripts vanished as gone', async () => {
    const { catalogs } = await sut();
    const B = 'b0000000-0000-4000-8000-00000000000b';
    write(B, line(0));
    await new Promise((r) => setTimeout(r, 100));
    await feed.settled();
    expect(catalogs).toEqual([[[A], expect.arrayContaining([A, B])]]);
    fs.rmSync(transcript(B));
    await new Promise((r) => setTimeout(r, 100));
    await feed.settled();
    expect(catalogs[1][1]).toEqual([A]);
  });

  it('tells a session made after its first scan but before its watches were in place', async () => {
    const B = 'b0000000-0000-4000-8000-00000000000b';
    const store = new BrainStore({ geminiHome: home, brainRoots: [] });
    await store.refresh();
    // B appears right after the feed's first scan, before it watches the roots: no watch
    // event will ever tell of it.
    const refresh = store.refresh.bind(store);
    let first = true;
    jest.spyOn(store, 'refresh').mockImplementation(async (quick?: boolean) => {
      const catalog = await refresh(quick);
      if (first) write(B, line(0));
      first = false;
      return catalog;
    });
    feed = new ChangeFeed(store, { geminiHome: home, watch: 'auto', pollMs: 50 });
    const catalogs: string[][] = [];
    feed.listen({
      catalogChanged: (_before, after) =>
        catalogs.push(after.newestFirst.map((s) => s.entry.id).sort()),
    });
    await feed.ready();
    await feed.settled();
    expect(catalogs).toEqual([[A, B]]);
  });

  it('polls by stat with WATCH=poll', async () => {
    const { updated } = await sut({ watch: 'poll' });
    expect(feed.watches).toBe(0);
    write(A, line(1));
    await new Promise((r) => setTimeout(r, 200));
    await feed.settled();
    expect(updated.map(([id]) => id)).toEqual([A]);
    expect(feed.mode).toBe('poll');
  });
});
