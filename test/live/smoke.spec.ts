import { subscribe } from './clients';
import { IDE_A, KEY_ALL, line, startLiveHome, type LiveHome } from './live-home';

let h: LiveHome;
beforeAll(async () => {
  h = await startLiveHome();
});
afterAll(() => h?.close());

it.each(['ws', 'sse'] as const)('%s replays and follows', async (t) => {
  const sub = subscribe(
    t,
    h.server,
    'subscription($id: String!) { steps(sessionId: $id) { position index content } }',
    { id: IDE_A },
    KEY_ALL,
  );
  await sub.waitFor(2);
  console.log(JSON.stringify(sub.results));
  h.append(IDE_A, line(2, 'third'));
  await sub.waitFor(3);
  console.log(JSON.stringify(sub.results));
  await sub.close();
});
