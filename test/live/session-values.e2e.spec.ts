import { subscribe, until, type Transport } from './clients';
import { IDE_B, KEY_ALL, line, startLiveHome, type LiveHome } from './live-home';

/**
 * The live feed masks a secret's echo in another record of the session (review H-B,
 * src/steps/session-values) as the other record routes do: a step appended after the one that
 * holds the secret by its key, and the two appended together.
 */

const STEPS = `subscription($id: String!, $from: Int) {
  steps(sessionId: $id, fromPosition: $from) { position index content }
}`;
const V = 'Jn7Xm2vL9pT4Q';
const M = '[REDACTED:password]';

describe.each(['ws', 'sse'] as Transport[])('session values over %s', (t) => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  it('masks an echo appended with its secret, and one appended after it', async () => {
    const sub = subscribe(t, h.server, STEPS, { id: IDE_B, from: 1 }, KEY_ALL);
    await h.live.feed.ready();
    h.append(IDE_B, line(1, `export DB_PASSWORD=${V}`) + line(2, `echo: ${V}`));
    await sub.waitFor(2);
    h.append(IDE_B, line(3, `later: connecting with ${V}`));
    await sub.waitFor(3);
    expect(sub.results.map((r) => r.data?.steps.content)).toEqual([
      `export DB_PASSWORD=${M}`,
      `echo: ${M}`,
      `later: connecting with ${M}`,
    ]);
    await sub.close();
  });

  it('sessionEvents: the request echoing a secret of a later step is masked, ADDED and UPDATED (review 25 H1)', async () => {
    await until(() => h.live.feed.listening === 0, 10_000, 'earlier subscriptions to end');
    const events = `subscription { sessionEvents { type sessionId session { userRequest mentionedFiles } } }`;
    const sub = subscribe(t, h.server, events, {}, KEY_ALL);
    await until(() => h.live.feed.listening === 1, 10_000, 'the subscription');
    await h.live.feed.ready();
    const id =
      t === 'ws' ? 'e1e10000-0000-4000-8000-000000000025' : 'e2e20000-0000-4000-8000-000000000025';
    const W = 'Ev9xN7cM1vK9lJ3h';
    h.create(id, [
      line(0, `<USER_REQUEST>why does login with ${W} fail? see @[cfg/${W}.env]</USER_REQUEST>`),
      line(1, `export DB_PASSWORD=${W}`),
    ]);
    await sub.waitFor(1);
    h.append(id, line(2, 'one more'));
    await sub.waitFor(2);
    const session = {
      userRequest: `why does login with ${M} fail? see @[cfg/${M}.env]`,
      mentionedFiles: [`cfg/${M}.env`],
    };
    expect(sub.results.map((r) => r.data?.sessionEvents)).toEqual([
      { type: 'ADDED', sessionId: id, session },
      { type: 'UPDATED', sessionId: id, session },
    ]);
    await sub.close();
  });
});
