import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { startAppOver } from '../e2e/harness';
import { makeTempDir } from '../fixtures/brain-home';
import { KEYS, send, startCollector, type Collector } from './ingest-server';

/** Pushed sessions are masked like mounted ones; without a push key the routes do not exist. */

const ID = '5ec00000-0000-4000-8000-00000000000a';
const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const T = '.system_generated/logs/transcript.jsonl';
let dir: string;
let c: Collector;

beforeAll(async () => {
  dir = makeTempDir('brainql-ingest-redaction-');
  fs.mkdirSync(path.join(dir, 'home', 'antigravity-ide', 'brain'), { recursive: true });
  c = await startCollector(dir, path.join(dir, 'home'), { REDACT: 'on' });
  const record = {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    content: `use ${SECRET}`,
  };
  const put = await send(
    c.server,
    'PUT',
    `/api/ingest/sessions/antigravity-ide/${ID}/files/${T}?offset=0`,
    KEYS.ci,
    `${JSON.stringify(record)}\n`,
  );
  expect(put.status).toBe(200);
  await c.store.refresh();
});
afterAll(async () => {
  await c.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('masks a pushed secret in GraphQL and in the file download, as for a mounted root', async () => {
  const q = JSON.stringify({
    query: `{ session(id: "${ID}") { source steps { edges { node { content } } } } }`,
  });
  const a = await send(c.server, 'POST', '/graphql', KEYS.all, q, {
    'content-type': 'application/json',
  });
  const session = (
    a.json as {
      data: { session: { source: string; steps: { edges: { node: { content: string } }[] } } };
    }
  ).data.session;
  expect(session.source).toBe('ci-runner');
  expect(session.steps.edges[0].node.content).toBe('use [REDACTED:github-token]');
  const file = await send(c.server, 'GET', `/api/sessions/${ID}/files/${T}`, KEYS.all);
  expect(file.text).not.toContain(SECRET);
  expect(file.text).toContain('[REDACTED:github-token]');
});

it('has no ingest routes when no key may push', async () => {
  const app = await startAppOver(path.join(dir, 'home'), {});
  try {
    const server = app.getHttpServer() as http.Server;
    const a = await send(
      server,
      'PUT',
      `/api/ingest/sessions/antigravity-ide/${ID}/files/x?offset=0`,
      null,
      'x',
    );
    expect([a.status, a.json]).toEqual([
      404,
      {
        error: {
          code: 'NOT_FOUND',
          message: `No route for PUT /api/ingest/sessions/antigravity-ide/${ID}/files/x.`,
        },
      },
    ]);
    const doc = (await send(server, 'GET', '/api/openapi.json', null)).json as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/ingest'))).toEqual([]);
    const withPush = (await send(c.server, 'GET', '/api/openapi.json', KEYS.all)).json as {
      paths: Record<string, unknown>;
    };
    expect(
      Object.keys(withPush.paths)
        .filter((p) => p.startsWith('/api/ingest'))
        .sort(),
    ).toEqual([
      '/api/ingest/sessions/{flavor}/{id}',
      '/api/ingest/sessions/{flavor}/{id}/files/{path}',
    ]);
  } finally {
    await app.close();
  }
});
