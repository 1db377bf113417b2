import { subscribe, type Transport } from './clients';
import { IDE_B, KEY_ALL, startLiveHome } from './live-home';

/** Closing the application completes open subscriptions instead of leaving them hanging. */
it.each(['ws', 'sse'] as Transport[])('%s: app.close() completes open subscriptions', async (t) => {
  const h = await startLiveHome();
  try {
    const sub = subscribe(
      t,
      h.server,
      'subscription($id: String!) { steps(sessionId: $id) { position } }',
      { id: IDE_B },
      KEY_ALL,
    );
    await sub.waitFor(1);
    const started = Date.now();
    await h.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    const { error } = await sub.ended;
    // SSE clients get `complete`; graphql-ws clients the socket closed with 1001 "Going away".
    if (t === 'sse') expect(error).toBeUndefined();
    else expect(error).toMatchObject({ code: 1001, reason: 'Going away' });
    expect(sub.results).toEqual([{ data: { steps: { position: 0 } } }]);
    await sub.close();
  } finally {
    await h.close().catch(() => undefined);
  }
});
