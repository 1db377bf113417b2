import { followAppend, FOLLOWED, metrics } from './watch-helpers';
import { startLiveHome, type LiveHome } from './live-home';

// Every watch fails as it does once inotify's per-user limit is reached.
jest.mock('node:fs', () => ({
  ...jest.requireActual<typeof import('node:fs')>('node:fs'),
  watch: () => {
    throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
      code: 'ENOSPC',
    });
  },
}));

describe('WATCH=auto where watches cannot be set up', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ POLL_MS: '100' });
  });
  afterAll(() => h?.close());

  it('falls back to polling and says so in /metrics', async () => {
    expect(await followAppend(h)).toEqual(FOLLOWED);
    expect(h.live.feed.mode).toBe('poll');
    expect(await metrics(h)).toEqual(
      expect.arrayContaining([
        'brainql_live_watch_fallbacks_total{reason="ENOSPC"} 1',
        'brainql_live_watch_mode{mode="poll"} 1',
      ]),
    );
  });
});
