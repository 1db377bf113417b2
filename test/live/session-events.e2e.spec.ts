import * as fs from 'node:fs';
import * as path from 'node:path';
import { subscribe, until, type Sub, type Transport } from './clients';
import { AWS, IDE_B, KEY_ALL, KEY_CLI, line, startLiveHome, type LiveHome } from './live-home';

/**
 * Subscription.sessionEvents over both transports: ADDED, UPDATED (throttled, one after the
 * last growth), REMOVED, scopes, filters and redaction, with exact values.
 */

const EVENTS = `subscription($filter: SessionFilter) {
  sessionEvents(filter: $filter) { type sessionId at session { id stepCount userRequest } }
}`;
const id = (n: number) => `e0e0000${n}-0000-4000-8000-000000000000`;

/** The events of one session, without their times. */
const of = (sub: Sub, sessionId: string) =>
  sub.results
    .map((r) => r.data.sessionEvents)
    .filter((e) => e.sessionId === sessionId)
    .map(({ at: _at, ...rest }) => rest);

describe.each(['ws', 'sse'] as Transport[])('sessionEvents over %s', (t) => {
  let h: LiveHome;
  let n = 0;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  /** Subscribes and waits until the server listens (events before that are not owed). */
  async function listen(key: string, filter?: Record<string, unknown>): Promise<Sub> {
    await until(() => h.live.feed.listening === 0, 10_000, 'earlier subscriptions to end');
    const sub = subscribe(t, h.server, EVENTS, { filter }, key);
    await until(() => h.live.feed.listening === 1, 10_000, 'the subscription');
    await h.live.feed.ready();
    return sub;
  }

  it('sends ADDED with the session (secrets masked), then REMOVED without it', async () => {
    const sub = await listen(KEY_ALL);
    const d = id(++n);
    h.create(d, [line(0, `<USER_REQUEST>use ${AWS}</USER_REQUEST>`)]);
    await sub.waitFor(1);
    fs.rmSync(path.dirname(path.dirname(path.dirname(h.transcript(d)))), { recursive: true });
    await sub.waitFor(2);
    expect(of(sub, d)).toEqual([
      {
        type: 'ADDED',
        sessionId: d,
        session: { id: d, stepCount: 1, userRequest: 'use [REDACTED:aws-access-key]' },
      },
      { type: 'REMOVED', sessionId: d, session: null },
    ]);
    const at = Date.parse(sub.results[0].data.sessionEvents.at);
    expect(Math.abs(Date.now() - at)).toBeLessThan(10_000);
    await sub.close();
  });

  it('sends UPDATED at most once a second per session, and one after the last growth', async () => {
    const sub = await listen(KEY_ALL);
    const start = (await h.store.records((await h.store.catalog()).byKey.get(IDE_B)!.entry)).length;
    h.append(IDE_B, line(start, 'one more'));
    await sub.waitFor(1);
    for (let i = 1; i <= 4; i++) {
      h.append(IDE_B, line(start + i, `burst ${i}`));
      await new Promise((r) => setTimeout(r, 40));
    }
    await sub.waitFor(2);
    await new Promise((r) => setTimeout(r, 1500));
    const request = 'hello from B';
    expect(of(sub, IDE_B)).toEqual([
      {
        type: 'UPDATED',
        sessionId: IDE_B,
        session: { id: IDE_B, stepCount: start + 1, userRequest: request },
      },
      {
        type: 'UPDATED',
        sessionId: IDE_B,
        session: { id: IDE_B, stepCount: start + 5, userRequest: request },
      },
    ]);
    const [first, second] = sub.results.map((r) => Date.parse(r.data.sessionEvents.at));
    expect(second - first).toBeGreaterThanOrEqual(990);
    await sub.close();
  });

  it('sends no UPDATED for part of a line, one when the line ends', async () => {
    const sub = await listen(KEY_ALL);
    const start = (await h.store.records((await h.store.catalog()).byKey.get(IDE_B)!.entry)).length;
    const whole = line(start, 'written in two parts');
    h.append(IDE_B, whole.slice(0, 40));
    // Past the throttle's second: an UPDATED for the partial write would be here by now.
    await new Promise((r) => setTimeout(r, 1500));
    expect(of(sub, IDE_B)).toEqual([]);
    h.append(IDE_B, whole.slice(40));
    await sub.waitFor(1);
    expect(of(sub, IDE_B)).toEqual([
      {
        type: 'UPDATED',
        sessionId: IDE_B,
        session: { id: IDE_B, stepCount: start + 1, userRequest: 'hello from B' },
      },
    ]);
    await sub.close();
  });

  it('never shows a session of a root the key may not read, not even as REMOVED', async () => {
    const sub = await listen(KEY_CLI);
    const ide = id(++n);
    const cli = id(++n);
    h.create(ide, [line(0, 'ide run')]);
    h.create(cli, [line(0, 'cli run')], 'antigravity-cli');
    await sub.waitFor(1);
    fs.rmSync(path.join(h.home, 'antigravity-ide/brain', ide), { recursive: true });
    h.append(cli, line(1, 'more'), 'antigravity-cli');
    await sub.waitFor(2);
    expect(sub.results.map((r) => r.data.sessionEvents.sessionId)).toEqual([cli, cli]);
    expect(of(sub, cli).map((e) => e.type)).toEqual(['ADDED', 'UPDATED']);
    await sub.close();
  });

  it('applies the filter, summary conditions included', async () => {
    const sub = await listen(KEY_ALL, { environment: ['IDE'], query: 'wanted' });
    const [a, b, c] = [id(++n), id(++n), id(++n)];
    h.create(a, [line(0, 'not this one')]);
    h.create(b, [line(0, 'the wanted one')], 'antigravity-cli');
    h.create(c, [line(0, 'the wanted one')]);
    await sub.waitFor(1);
    await new Promise((r) => setTimeout(r, 300));
    await h.live.feed.settled();
    expect(sub.results.map((r) => r.data.sessionEvents.sessionId)).toEqual([c]);
    await sub.close();
  });
});
