import type { INestApplication } from '@nestjs/common';
import * as http from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startAppOver } from '../e2e/harness';

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status and the error code (GraphQL's extensions.code or REST's error.code). */
  expect: [number, string];
}

/** A JSON POST to /graphql that the server refuses as the client's fault. */
const graphqlRefusal = (body: string): Probe => ({
  method: 'POST',
  path: '/graphql',
  headers: { 'Content-Type': 'application/json' },
  body,
  expect: [400, 'BAD_USER_INPUT'],
});

/** Requests a server refuses in every way it can: parsers, routes, Apollo, SSE, files. */
const PROBES: Probe[] = [
  graphqlRefusal('{"query": '),
  graphqlRefusal('{"query": "{ roots { flavor } }", "operationName": "NewestSessions"}'),
  graphqlRefusal('{"query": "{ nosuch }"}'),
  graphqlRefusal('{"query": "mutation { x }"}'),
  graphqlRefusal('{"query": "subscription { sessionEvents { type } }"}'),
  graphqlRefusal('[{"query": "{ roots { flavor } }"}]'),
  {
    method: 'POST',
    path: '/graphql',
    headers: { 'Content-Type': 'text/plain' },
    body: '{ roots { flavor } }',
    expect: [400, 'BAD_USER_INPUT'],
  },
  { method: 'GET', path: '/graphql?query=%7B%20roots', expect: [400, 'BAD_USER_INPUT'] },
  {
    method: 'POST',
    path: '/graphql/stream',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: '{"query": ',
    expect: [400, 'BAD_USER_INPUT'],
  },
  {
    method: 'GET',
    path: '/graphql/stream?query=subscription%20%7B%20nosuch%20%7D',
    headers: { Accept: 'text/event-stream' },
    expect: [400, 'BAD_USER_INPUT'],
  },
  { method: 'GET', path: '/api/sessions/%E0%A4%A', expect: [400, 'BAD_USER_INPUT'] },
  { method: 'GET', path: '/api/sessions?first=abc', expect: [400, 'BAD_USER_INPUT'] },
  {
    method: 'GET',
    path: '/api/sessions/nosuch/files/..%2f..%2fetc%2fpasswd',
    expect: [400, 'BAD_USER_INPUT'],
  },
  { method: 'GET', path: '/api/search?q=', expect: [400, 'BAD_USER_INPUT'] },
  {
    method: 'POST',
    path: '/api/sessions',
    headers: { 'Content-Type': 'application/json' },
    body: '{',
    expect: [400, 'BAD_USER_INPUT'],
  },
  { method: 'GET', path: '/nosuch', expect: [404, 'NOT_FOUND'] },
  { method: 'GET', path: '/ui/nosuch.js', expect: [404, 'NOT_FOUND'] },
];

function send(server: Server, p: Probe): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: p.method, path: p.path, headers: p.headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(p.body);
  });
}

/**
 * No answer on any route carries a stack trace or a server file path, with NODE_ENV as
 * `npm start` sets it (production) and unset (a plain `node dist/main.js`): Express's own
 * error page shows stacks unless NODE_ENV is production.
 */
describe.each([['production'], ['development']])('no stack in any answer (NODE_ENV=%s)', (env) => {
  let app: INestApplication;
  const saved = process.env.NODE_ENV;
  beforeAll(async () => {
    process.env.NODE_ENV = env;
    app = await startAppOver(path.join(__dirname, '..', '..', 'example-home'));
  });
  afterAll(async () => {
    await app?.close();
    process.env.NODE_ENV = saved;
  });

  it.each(PROBES.map((p) => [`${p.method} ${p.path}`, p]))('%s', async (_name, probe) => {
    const { status, body } = await send(app.getHttpServer() as Server, probe);
    const json = JSON.parse(body) as {
      errors?: { extensions?: { code?: string } }[];
      error?: { code?: string };
    };
    expect([status, json.error?.code ?? json.errors?.[0]?.extensions?.code]).toEqual(probe.expect);
    expect(body).not.toMatch(/stack|\bat \S+ \(|\.[jt]s:\d+|node_modules|\/work\//i);
  });
});
