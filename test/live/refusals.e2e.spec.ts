import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Slots } from '../../src/live/slots';
import { refusal, subscribe, until, urlOf, type Transport } from './clients';
import { metrics } from './watch-helpers';
import { IDE_B, KEY_ALL, KEY_CLI, startLiveHome, type LiveHome } from './live-home';

/**
 * What live transports refuse, with the same rules as queries: no or a bad key, documents
 * over the query limits, queries sent as subscriptions, and more than MAX_SUBSCRIPTIONS open
 * per key.
 */

const STEPS = 'subscription($id: String!) { steps(sessionId: $id) { position } }';
const DEEP = 'subscription { sessionEvents { session { root { path } } } }';

describe.each(['ws', 'sse'] as Transport[])('refusals over %s', (t) => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ MAX_SUBSCRIPTIONS: '2', MAX_QUERY_DEPTH: '3' });
  });
  afterAll(() => h?.close());

  it('refuses a missing or wrong key', async () => {
    const missing = await refusal(t, h.server, STEPS, { id: IDE_B });
    const wrong = await refusal(t, h.server, STEPS, { id: IDE_B }, 'bql_not-a-key');
    // Longer than any key: not valid, as a wrong one (not "send a key").
    expect(await refusal(t, h.server, STEPS, { id: IDE_B }, 'k'.repeat(4000))).toEqual(wrong);
    if (t === 'ws') {
      expect(missing).toEqual({
        close: {
          code: 4401,
          reason:
            'Unauthorized: send an API key as connectionParams.authorization or an Authorization header',
        },
      });
      expect(wrong).toEqual({
        close: { code: 4401, reason: 'Unauthorized: the API key is not valid' },
      });
    } else {
      expect(missing).toEqual({
        status: 401,
        errors: [
          { code: 'UNAUTHENTICATED', message: 'send an API key as "Authorization: Bearer <key>"' },
        ],
      });
      expect(wrong).toEqual({
        status: 401,
        errors: [{ code: 'UNAUTHENTICATED', message: 'the API key is not valid' }],
      });
    }
    // Both refusals are counted, whichever layer answered them (SSE's is the HTTP middleware).
    expect(await metrics(h)).toContain(
      `brainql_live_refused_total{transport="${t}",reason="unauthenticated"} 3`,
    );
  });

  it('refuses a document over the query limits, and queries', async () => {
    expect(await refusal(t, h.server, DEEP, {}, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 400 } : {}),
      errors: [
        {
          message: 'The query is nested 4 fields deep; the limit is 3.',
          extensions: { code: 'QUERY_TOO_COMPLEX', kind: 'depth', limit: 3, measured: 4 },
        },
      ],
    });
    // Brackets nested past 64 are refused before graphql-js parses them (recursively: 2,400
    // levels overflowed its stack).
    const nested = `subscription { sessionEvents(flavor: ${'['.repeat(2400)}${']'.repeat(2400)}) { id } }`;
    expect(await refusal(t, h.server, nested, {}, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 400 } : {}),
      errors: [
        {
          message: 'The document nests brackets ({, [, () 2402 deep; the limit is 64.',
          extensions: { code: 'QUERY_TOO_COMPLEX', kind: 'nesting', limit: 64, measured: 2402 },
        },
      ],
    });
    expect(await refusal(t, h.server, '{ roots { path } }', {}, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 400 } : {}),
      errors: [
        {
          message: 'only subscriptions are served here; send queries to POST /graphql',
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });
  });

  it('refuses more than MAX_SUBSCRIPTIONS per key, and frees a slot when one ends', async () => {
    const slots = h.app.get(Slots);
    await until(() => slots.count === 0, 10_000, 'earlier subscriptions to end');
    const open = [1, 2].map(() => subscribe(t, h.server, STEPS, { id: IDE_B }, KEY_ALL));
    for (const s of open) await s.waitFor(1);
    const capped = {
      message: 'At most 2 open subscriptions per key (or client address); close one first.',
      extensions: { code: 'RATE_LIMITED', limit: 2 },
    };
    expect(await refusal(t, h.server, STEPS, { id: IDE_B }, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 429, retryAfter: '1' } : {}),
      errors: [capped],
    });
    // Another key has slots of its own.
    const other = subscribe(t, h.server, STEPS, { id: '0000' }, KEY_CLI);
    expect(await other.ended).toEqual({});
    await other.close();
    await open[0].close();
    await until(() => slots.count === 1, 10_000, 'the slot to be freed');
    const again = subscribe(t, h.server, STEPS, { id: IDE_B }, KEY_ALL);
    await again.waitFor(1);
    expect(again.results).toEqual([{ data: { steps: { position: 0 } } }]);
    await again.close();
    await open[1].close();
    await until(() => slots.count === 0, 10_000, 'every slot to be freed');
  });
});

describe('graphql-ws keys', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  it('takes the key from the upgrade Authorization header, or bare in connectionParams', async () => {
    class WithHeader extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { authorization: `Bearer ${KEY_ALL}` } });
      }
    }
    for (const [impl, params] of [
      [WithHeader, {}],
      [WebSocket, { authorization: KEY_ALL }],
    ] as const) {
      const client = createClient({
        url: `${urlOf(h.server, 'ws')}/graphql`,
        webSocketImpl: impl,
        retryAttempts: 0,
        connectionParams: params,
      });
      const first = await new Promise((resolve, reject) => {
        const stop = client.subscribe(
          { query: STEPS, variables: { id: IDE_B } },
          { next: (v) => (stop(), resolve(v)), error: reject, complete: () => undefined },
        );
      });
      expect(first).toEqual({ data: { steps: { position: 0 } } });
      await client.dispose();
    }
  });

  it('refuses a page of another origin (WebSockets are not covered by CORS)', async () => {
    const socket = new WebSocket(`${urlOf(h.server, 'ws')}/graphql`, 'graphql-transport-ws', {
      headers: { origin: 'https://evil.example' },
    });
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: KEY_ALL } })),
    );
    const closed = await new Promise<[number, string]>((resolve) =>
      socket.on('close', (code, reason) => resolve([code, reason.toString()])),
    );
    expect(closed).toEqual([4401, 'Unauthorized: cross-origin WebSocket refused']);
  });
});

describe('upgrades elsewhere', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  it('answers 404 to a WebSocket upgrade on another path instead of leaving it hanging', async () => {
    const socket = new WebSocket(`${urlOf(h.server, 'ws')}/api/sessions`, 'graphql-transport-ws');
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(404);
  });
});

describe('malformed SSE requests', () => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome();
  });
  afterAll(() => h?.close());

  const send = async (method: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(`${urlOf(h.server, 'http')}/graphql/stream`, {
      method,
      headers: { authorization: `Bearer ${KEY_ALL}`, ...headers },
      body,
    });
    return { status: res.status, body: await res.json() };
  };
  const doc = JSON.stringify({ query: STEPS, variables: { id: IDE_B } });

  it('answers each with the one error shape saying what is accepted', async () => {
    expect(await send('PUT', { accept: 'text/event-stream' })).toEqual({
      status: 404,
      body: {
        error: {
          code: 'NOT_FOUND',
          message: 'No route for PUT /graphql/stream: subscriptions over SSE use GET or POST.',
        },
      },
    });
    expect(await send('POST', { 'content-type': 'application/json' }, doc)).toEqual({
      status: 400,
      body: {
        error: {
          code: 'BAD_USER_INPUT',
          message: 'Subscriptions over SSE need the header "Accept: text/event-stream".',
        },
      },
    });
    expect(
      await send('POST', { accept: 'text/event-stream', 'content-type': 'text/plain' }, doc),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: 'BAD_USER_INPUT',
          message: 'A POST to /graphql/stream needs "Content-Type: application/json".',
        },
      },
    });
  });
});

describe.each(['ws', 'sse'] as Transport[])('rate limit over %s', (t) => {
  let h: LiveHome;
  beforeAll(async () => {
    h = await startLiveHome({ RATE_LIMIT_POINTS: '2' });
  });
  afterAll(() => h?.close());

  it('refuses a subscription costing more than the whole bucket as too complex', async () => {
    const costly = 'subscription($id: String!) { steps(sessionId: $id) { position index } }';
    expect(await refusal(t, h.server, costly, { id: IDE_B }, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 400 } : {}),
      errors: [
        {
          message:
            "The query costs 3 points, more than the 2 points per minute a key's rate limit " +
            'holds (RATE_LIMIT_POINTS): it could never run. Ask for fewer items.',
          extensions: { code: 'QUERY_TOO_COMPLEX', kind: 'ratePoints', limit: 2, measured: 3 },
        },
      ],
    });
    expect(h.app.get(Slots).count).toBe(0);
  });

  it('charges a subscription once; over the rate it is refused and holds no slot', async () => {
    const first = subscribe(t, h.server, STEPS, { id: IDE_B }, KEY_ALL);
    await first.waitFor(1);
    // The first (2 points) took the whole bucket of 2 points a minute.
    expect(await refusal(t, h.server, STEPS, { id: IDE_B }, KEY_ALL)).toEqual({
      ...(t === 'sse' ? { status: 429, retryAfter: '60' } : {}),
      errors: [
        {
          message:
            'Rate limit: 2 cost points per minute per key; this query is estimated at 2 before it runs (then charged what it read; a smaller `first` needs fewer). Retry in 60 s.',
          extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 60, limit: 2, cost: 2 },
        },
      ],
    });
    expect(h.app.get(Slots).count).toBe(1);
    await first.close();
  });
});
