import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { HOME_INDEX, type HomeIndex } from '../../src/index/home-index';
import { makeTempDir } from '../fixtures/brain-home';
import { postGql, rawGet, startAppOver } from '../e2e/harness';

/**
 * Issue 19 review (REDACT=on): secrets a caller or a folder name brings in must not come back
 * out through /metrics, session ids or error messages.
 */

const ID = '10990000-0000-4000-8000-000000000002';
const STRIPE_OP = ['sk_live_', 'PlantStr1pe0aB1cD2eF3gH4iJ5'].join('');
/** A valid ghp_ token as a session folder name. */
const GHP_DIR = ['ghp_', 'SessIdPl4nta1B2c3D4e5F6g7H8i9J0k1L2m'].join('');
const LINE = (text: string) =>
  `{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z","content":"${text}"}\n`;

let dir: string;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  dir = makeTempDir('brainql-echoed-');
  for (const [id, text] of [
    [ID, 'hi plainneedle'],
    [GHP_DIR, 'hi plainneedle'],
  ]) {
    const logs = path.join(dir, 'home/antigravity-ide/brain', id, '.system_generated/logs');
    fs.mkdirSync(logs, { recursive: true });
    fs.writeFileSync(path.join(logs, 'transcript.jsonl'), LINE(text));
  }
  app = await startAppOver(path.join(dir, 'home'), {
    REDACT: 'on',
    CACHE_DIR: path.join(dir, 'cache'),
  });
  server = app.getHttpServer() as http.Server;
  await app.get(BrainStore).refresh();
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('/metrics operation labels', () => {
  it('never labels an operation by a name holding a secret', async () => {
    const body = await postGql(server, `query ${STRIPE_OP} { roots { flavor } }`);
    expect(body.errors).toBeUndefined();
    await postGql(server, 'query Plain { roots { flavor } }');
    const metrics = (await rawGet(server, '/metrics')).body.toString('utf8');
    expect(metrics).not.toContain('sk_live_');
    const labels = [...metrics.matchAll(/^brainql_requests_total\{operation="(graphql:[^"]*)"/gm)]
      .map((m) => m[1])
      .sort();
    expect(labels).toEqual(['graphql:Plain', 'graphql:other']);
  });
});

describe('a session folder named like a token (REDACT=on)', () => {
  it('is not served on any route, and is counted on /metrics', async () => {
    await app.get<HomeIndex>(HOME_INDEX).caughtUp();
    const gql = await postGql(
      server,
      '{ sessions { edges { node { id } } } roots { sessionCount } search(query: "plainneedle") { edges { node { session { id } } } } }',
    );
    expect(gql.errors).toBeUndefined();
    const data = gql.data as {
      sessions: { edges: { node: { id: string } }[] };
      roots: { sessionCount: number }[];
      search: { edges: { node: { session: { id: string } } }[] };
    };
    expect(data.sessions.edges.map((e) => e.node.id)).toEqual([ID]);
    expect(data.roots.map((r) => r.sessionCount)).toEqual([1]);
    expect([...new Set(data.search.edges.map((e) => e.node.session.id))]).toEqual([ID]);
    const bodies = await Promise.all(
      [
        '/api/sessions',
        '/api/search?q=plainneedle',
        `/api/sessions/${GHP_DIR}`,
        `/api/sessions/${GHP_DIR}/export?format=markdown`,
        `/api/sessions/${GHP_DIR.slice(0, 8)}`,
      ].map((p) => rawGet(server, p)),
    );
    expect(bodies.map((b) => b.status)).toEqual([200, 200, 404, 404, 404]);
    for (const b of bodies) {
      expect(b.body.toString('utf8')).not.toContain('SessIdPl4nta');
      expect(JSON.stringify(b.headers)).not.toContain('SessIdPl4nta');
    }
    const metrics = (await rawGet(server, '/metrics')).body.toString('utf8');
    expect(metrics).toMatch(/^brainql_sessions_withheld 1$/m);
    expect(metrics).toMatch(/^brainql_sessions 1$/m);
  });
});

describe('error messages quoting what the caller sent (REDACT=on)', () => {
  const GHP_OP = ['ghp_', 'Unkn0wnOp3r4t10nAbCdEfGhIjKlMnOpQrSt'].join('');
  const post = async (body: unknown) => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { errors: { message: string }[] };
  };

  it('masks GraphQL error messages', async () => {
    const unknown = await post({ query: 'query A { __typename }', operationName: GHP_OP });
    const variable = await post({
      query: 'query Q($q: Int!) { sessions(first: $q) { totalCount } }',
      variables: { q: STRIPE_OP },
    });
    const field = await post({ query: `{ nosuchfield_${STRIPE_OP} }` });
    expect(field.errors[0].message).toBe(
      'Cannot query field "nosuchfield_[REDACTED:stripe-key]" on type "Query".',
    );
    expect([unknown.errors[0].message, variable.errors[0].message]).toEqual([
      'Unknown operation named "[REDACTED:github-token]".',
      'Variable "$q" got invalid value "[REDACTED:stripe-key]"; Int cannot represent non-integer value: "[REDACTED:stripe-key]"',
    ]);
  });

  it('masks REST error bodies', async () => {
    const res = await rawGet(server, `/api/sessions?first=${STRIPE_OP}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString('utf8'))).toEqual({
      error: {
        code: 'BAD_USER_INPUT',
        message: '"first" must be an integer; got "[REDACTED:stripe-key]".',
      },
    });
  });
});
