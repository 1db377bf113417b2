import * as http from 'node:http';
import WebSocket from 'ws';
import { urlOf } from './clients';
import { IDE_B, KEY_ALL, startLiveHome, type LiveHome } from './live-home';

/**
 * Idle live connections are kept alive (proxies drop silent ones): graphql-ws pings every
 * 12 s, SSE sends a comment line every 12 s.
 */

const STEPS = `subscription { steps(sessionId: "${IDE_B}") { position } }`;

let h: LiveHome;
beforeAll(async () => {
  h = await startLiveHome();
});
afterAll(() => h?.close());

it('pings an idle graphql-ws connection and writes comments to an idle SSE stream', async () => {
  const socket = new WebSocket(`${urlOf(h.server, 'ws')}/graphql`, 'graphql-transport-ws');
  const pinged = new Promise<number>((resolve) => socket.on('ping', () => resolve(Date.now())));
  // The 12 s count from the open connection: connecting can take a while on a busy machine.
  let opened = 0;
  socket.on('open', () => {
    opened = Date.now();
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: KEY_ALL } }));
  });
  let sse = '';
  const { port } = h.server.address() as { port: number };
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/graphql/stream',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${KEY_ALL}`,
    },
  });
  req.on('response', (res) => res.on('data', (c: Buffer) => (sse += c.toString())));
  req.end(JSON.stringify({ query: STEPS }));
  const at = await pinged;
  expect(at - opened).toBeGreaterThan(11_000);
  expect(at - opened).toBeLessThan(14_000);
  // The first comment opens the stream, the event is the replay, the second comment is 12 s on
  // (the SSE stream may have started a little after the socket on a loaded machine).
  const comments = () => sse.split('\n\n').filter((m) => m === ':');
  for (let waited = 0; comments().length < 2 && waited < 4000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(comments()).toHaveLength(2);
  socket.close();
  req.destroy();
}, 30_000);
