import { subscribe, type Transport } from './clients';
import { CLI_C, KEY_ALL, startLiveHome, type LiveHome } from './live-home';

/**
 * With WATCH=off nothing tells the server that files changed: steps replays and completes,
 * sessionEvents completes at once, so neither holds a MAX_SUBSCRIPTIONS slot for nothing.
 */

describe.each(['ws', 'sse'] as Transport[])('WATCH=off over %s', (t) => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ WATCH: 'off' });
  });
  afterAll(() => h?.close());

  it('steps replays the view, then completes', async () => {
    const sub = subscribe(
      t,
      h.server,
      'subscription($id: String!) { steps(sessionId: $id) { position content } }',
      { id: CLI_C },
      KEY_ALL,
    );
    expect(await sub.ended).toEqual({});
    expect(sub.results).toEqual([{ data: { steps: { position: 0, content: 'hello from C' } } }]);
  });

  it('sessionEvents completes at once', async () => {
    const sub = subscribe(
      t,
      h.server,
      'subscription { sessionEvents { type sessionId } }',
      {},
      KEY_ALL,
    );
    expect(await sub.ended).toEqual({});
    expect(sub.results).toEqual([]);
  });
});
