import * as http from 'node:http';
import WebSocket from 'ws';
import { Slots } from '../../src/live/slots';
import { until, urlOf } from './clients';
import { KEY_ALL, line, startLiveHome, type LiveHome } from './live-home';
import { metrics } from './watch-helpers';

/**
 * A client that stops reading does not make the server buffer without bound: events are
 * pulled only as they are written, and a connection that cannot write anything for stallMs
 * is closed (graphql-ws with close code 4008 and the reason; SSE by ending the response).
 */

const BIG = 'f0f00000-0000-4000-8000-00000000000f';
const RECORDS = 200;
const STEPS = `subscription { steps(sessionId: "${BIG}") { position content } }`;

let h: LiveHome;
beforeAll(async () => {
  h = await startLiveHome();
  h.live.tuning.stallMs = 500;
  const text = 'x'.repeat(100 * 1024);
  h.create(
    BIG,
    Array.from({ length: RECORDS }, (_, i) => line(i, `${i} ${text}`)),
  );
  await h.store.refresh();
});
afterAll(() => h?.close());

/**
 * Waits for a metrics line. The server closes a stalled connection stallMs after its last write,
 * but on a busy machine that can come well after a fixed wait (2.5 s was once too short).
 */
async function untilMetric(metric: string, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await metrics(h)).includes(metric);) {
    if (Date.now() > deadline) throw new Error(`no metric ${metric} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sent = async (transport: string) => {
  const line = (await metrics(h)).find((l) =>
    l.startsWith(`brainql_live_events_total{transport="${transport}",field="steps"}`),
  );
  return Number(line?.split(' ')[1] ?? 0);
};

it('graphql-ws: closes a connection that stopped reading, with code 4008 and the reason', async () => {
  const socket = new WebSocket(`${urlOf(h.server, 'ws')}/graphql`, 'graphql-transport-ws');
  const nexts: number[] = [];
  const closed = new Promise<[number, string]>((resolve) =>
    socket.on('close', (code, reason) => resolve([code, reason.toString()])),
  );
  // The server drops the connection once its close frame is out: the client's own close frame
  // may meet a reset (ECONNRESET, rehearsal 24), after which 'close' still has the code it read.
  socket.on('error', () => undefined);
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: KEY_ALL } })),
  );
  socket.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as {
      type: string;
      payload: { data: { steps: { position: number } } };
    };
    if (m.type === 'connection_ack') {
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: STEPS } }));
      // The client stops reading: nothing more leaves the kernel's buffers.
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    } else if (m.type === 'next') nexts.push(m.payload.data.steps.position);
  });
  await untilMetric('brainql_live_refused_total{transport="ws",reason="slow_consumer"} 1');
  const pulled = await sent('ws');
  expect(pulled).toBeLessThan(RECORDS);
  (socket as unknown as { _socket: { resume(): void } })._socket.resume();
  expect(await closed).toEqual([4008, 'slow consumer: nothing could be sent for 500 ms']);
  expect(nexts.length).toBeLessThan(RECORDS);
  expect(nexts).toEqual(Array.from({ length: nexts.length }, (_, i) => i));
  await until(() => h.app.get(Slots).count === 0, 30_000, 'the slot to be freed');
  console.log(`graphql-ws slow consumer: ${pulled} of ${RECORDS} events pulled before the close`);
});

it('SSE: ends a response that stopped being read', async () => {
  const { port } = h.server.address() as { port: number };
  const body = JSON.stringify({ query: STEPS });
  let response: http.IncomingMessage | null = null;
  let received = '';
  const ended = new Promise<void>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/graphql/stream',
        headers: {
          accept: 'text/event-stream',
          'content-type': 'application/json',
          authorization: `Bearer ${KEY_ALL}`,
        },
      },
      (res) => {
        expect(res.statusCode).toBe(200);
        response = res;
        // The client stops reading.
        res.pause();
        res.socket.pause();
        res.on('data', (c: Buffer) => (received += c.toString()));
        res.on('close', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  await untilMetric('brainql_live_refused_total{transport="sse",reason="slow_consumer"} 1');
  const pulled = await sent('sse');
  expect(pulled).toBeLessThan(RECORDS);
  await until(() => h.app.get(Slots).count === 0, 30_000, 'the slot to be freed');
  // Reading again, the client finds the stream cut short.
  response!.socket.resume();
  response!.resume();
  await ended;
  const events = received.split('event: next').length - 1;
  expect(events).toBeLessThan(RECORDS);
  expect(received).not.toContain('event: complete');
  console.log(`SSE slow consumer: ${pulled} of ${RECORDS} events pulled before the close`);
});

it('graphql-ws: closes a connection whose sessionEvents queue overflows, with the reason', async () => {
  h.live.tuning.stallMs = 60_000;
  h.live.tuning.queueCap = 3;
  const socket = new WebSocket(`${urlOf(h.server, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<[number, string]>((resolve) =>
    socket.on('close', (code, reason) => resolve([code, reason.toString()])),
  );
  // The server drops the connection once its close frame is out: the client's own close frame
  // may meet a reset (ECONNRESET, rehearsal 24), after which 'close' still has the code it read.
  socket.on('error', () => undefined);
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: KEY_ALL } })),
  );
  socket.on('message', (data: Buffer) => {
    if ((JSON.parse(data.toString()) as { type: string }).type !== 'connection_ack') return;
    // A big replay fills the socket's buffers, then the client stops reading.
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: STEPS } }));
    const events = 'subscription { sessionEvents { type sessionId } }';
    socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query: events } }));
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
  });
  await until(() => h.live.feed.listening === 2, 10_000, 'both subscriptions');
  await new Promise((r) => setTimeout(r, 1000));
  for (let i = 0; i < 6; i++) h.create(`f1f10000-0000-4000-8000-00000000000${i}`, [line(0, 'new')]);
  await until(
    () => h.app.get(Slots).count < 2,
    10_000,
    'the overflowing subscription to be closed',
  );
  expect(await metrics(h)).toContain(
    'brainql_live_refused_total{transport="ws",reason="slow_consumer"} 2',
  );
  (socket as unknown as { _socket: { resume(): void } })._socket.resume();
  expect(await closed).toEqual([4008, 'slow consumer: more than 3 events waited to be read']);
  await until(() => h.app.get(Slots).count === 0, 30_000, 'the slots to be freed');
});
