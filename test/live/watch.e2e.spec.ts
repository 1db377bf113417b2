import { subscribe } from './clients';
import { IDE_B, KEY_ALL, line, startLiveHome, type LiveHome } from './live-home';
import { FOLLOWED, followAppend, metrics, STEPS } from './watch-helpers';

/**
 * How changes are noticed: directory watches (two per session, not one per file), polling
 * with WATCH=poll, nothing with WATCH=off; and what /metrics says of it. The fallback when
 * watches cannot be set up: watch-fallback.e2e.spec.ts.
 */

describe('WATCH=auto', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  it('watches directories, counts subscriptions and events in /metrics', async () => {
    const sub = subscribe('ws', h.server, STEPS, { id: IDE_B }, KEY_ALL);
    await sub.waitFor(1);
    expect(h.live.feed.mode).toBe('events');
    // The home, its 2 flavor folders, 2 roots, and each of the 4 sessions' folder and logs/.
    expect(h.live.feed.watches).toBe(13);
    expect(await metrics(h)).toEqual(
      expect.arrayContaining([
        'brainql_live_subscriptions{transport="ws"} 1',
        'brainql_live_subscriptions{transport="sse"} 0',
        'brainql_live_events_total{transport="ws",field="steps"} 1',
        'brainql_live_watch_mode{mode="events"} 1',
        'brainql_live_watch_mode{mode="poll"} 0',
        'brainql_live_watched_directories 13',
      ]),
    );
    await sub.close();
  });
});

describe('WATCH=poll', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ WATCH: 'poll', POLL_MS: '100' });
  });
  afterAll(() => h?.close());

  it('follows by stat, with no watch at all', async () => {
    expect(await followAppend(h)).toEqual(FOLLOWED);
    expect(h.live.feed.watches).toBe(0);
  });
});

describe('WATCH=off', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ WATCH: 'off' });
  });
  afterAll(() => h?.close());

  it('replays, and follows nothing', async () => {
    const sub = subscribe('sse', h.server, STEPS, { id: IDE_B }, KEY_ALL);
    await sub.waitFor(1);
    h.append(IDE_B, line(1, 'appended'));
    await new Promise((r) => setTimeout(r, 500));
    expect(sub.results).toEqual(FOLLOWED.slice(0, 1));
    expect(h.live.feed.mode).toBe('off');
    await sub.close();
  });
});
