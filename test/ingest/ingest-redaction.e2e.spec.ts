import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
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

it('counts the [REDACTED:kind] markers of a session pushed with --redact as its findings', async () => {
  // What `brainql push --redact` sends: the secrets masked on the laptop, markers in their place.
  const masked = '7ed00000-0000-4000-8000-00000000000b';
  const mounted = '7ed00000-0000-4000-8000-00000000000c';
  const record = {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: '2026-06-16T10:44:34Z',
    content: 'use [REDACTED:github-token] and [REDACTED:github-token] with [REDACTED:jwt]',
  };
  const line = `${JSON.stringify(record)}\n`;
  for (const [rel, body] of [
    ['task.md', '# Task\nkey [REDACTED:aws-access-key]\n'],
    [T, line],
  ]) {
    const put = await send(
      c.server,
      'PUT',
      `/api/ingest/sessions/antigravity-ide/${masked}/files/${rel}?offset=0`,
      KEYS.laptop,
      body,
    );
    expect(put.status).toBe(200);
  }
  // The same words in a mounted session are text its agent wrote: no finding.
  const logs = path.join(
    dir,
    'home',
    'antigravity-ide',
    'brain',
    mounted,
    '.system_generated',
    'logs',
  );
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(logs, 'transcript.jsonl'), line);
  await c.store.refresh();
  await c.app.get<HomeIndex>(HOME_INDEX).caughtUp();
  const q = JSON.stringify({
    query: `{
      secretExposures(first: 10) { edges { node {
        session { id source } kinds count findings { kind count field artifact }
      } } }
      pushed: session(id: "${masked}") { secrets { kind count field artifact } }
      mounted: session(id: "${mounted}") { secrets { kind count } }
    }`,
  });
  const a = await send(c.server, 'POST', '/graphql', KEYS.all, q, {
    'content-type': 'application/json',
  });
  const data = (a.json as { data: Record<string, unknown> }).data;
  const findings = [
    { kind: 'github-token', count: 2, field: 'USER_REQUEST', artifact: null },
    { kind: 'jwt', count: 1, field: 'USER_REQUEST', artifact: null },
    // The request's markers are in step 0's CONTENT too: counted once (review 9, item 5).
    { kind: 'aws-access-key', count: 1, field: 'ARTIFACT', artifact: 'task.md' },
  ];
  expect(data.pushed).toEqual({ secrets: findings });
  expect(data.mounted).toEqual({ secrets: [] });
  const exposures = (
    data.secretExposures as { edges: { node: { session: { id: string } } }[] }
  ).edges.map((e) => e.node);
  expect(exposures.find((n) => n.session.id === masked)).toEqual({
    session: { id: masked, source: 'laptop' },
    kinds: ['aws-access-key', 'github-token', 'jwt'],
    count: 4,
    findings,
  });
  expect(exposures.some((n) => n.session.id === mounted)).toBe(false);
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
