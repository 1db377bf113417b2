import type { INestApplication } from '@nestjs/common';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import type * as http from 'node:http';
import * as path from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { parse, validate } from 'graphql';
import { promisify } from 'node:util';
import request from 'supertest';
import { hashKey } from '../../src/auth/api-keys';
import { ConfigError, loadConfig } from '../../src/config/config';
import { EXPECTED_SESSION_COUNTS, FIXTURE_IDS as I, makeTempDir } from '../fixtures/brain-home';
import { SECRET } from '../fixtures/session-misc';
import {
  ACP_IDS,
  bearer,
  buildAttackWorld,
  everyFieldPath,
  ESCAPING,
  EXTRA,
  fullSelection,
  KEYS,
  postGql,
  raw,
  REPO,
  runNode,
  scriptArgs,
  serverArgs,
  startApp,
  writeKeysFile,
  type AttackWorld,
  type NodeRun,
  type RawResponse,
  START_DEADLINE_MS,
  START_TEST_TIMEOUT_MS,
} from './attack-setup';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are checked field by field */

/**
 * The attack suite: what someone on the team network could try against the audit server.
 * Every route but the health probes needs a key; a scoped key sees nothing of other roots,
 * not even through errors; no name a caller passes reaches a file outside its session.
 */

const execFileP = promisify(execFile);
const json = (r: RawResponse): any => JSON.parse(r.text);

/** Never a 5xx, never the secret behind the escaping symlinks. */
function expectSafe(r: RawResponse): void {
  expect(r.status).toBeLessThan(500);
  expect(r.text).not.toContain(SECRET);
}

/**
 * The real server, started with HOST=0.0.0.0 and no keys. It takes seconds to load (ts-node,
 * or dist/ when fresh), so it runs beside the other tests and one of them awaits it.
 */
let insecureStart: Promise<NodeRun>;
beforeAll(() => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '0.0.0.0',
    PORT: '0',
    GEMINI_HOME: path.join(os.tmpdir(), 'brainql-attack-no-such-home'),
  };
  delete env.API_KEYS_FILE;
  delete env.ALLOW_ANONYMOUS;
  insecureStart = runNode(serverArgs(), env, START_DEADLINE_MS);
});

describe('attack suite', () => {
  let world: AttackWorld;
  let app: INestApplication;
  let server: http.Server;

  beforeAll(async () => {
    world = buildAttackWorld();
    app = await startApp(world);
    server = app.getHttpServer() as http.Server;
  });
  afterAll(async () => {
    await app?.close();
    if (world) fs.rmSync(world.fx.dir, { recursive: true, force: true });
  });

  const gql = async (key: string | null, query: string, variables?: Record<string, unknown>) => {
    const r = await postGql(server, query, key ? bearer(key) : {}, variables);
    expectSafe(r);
    return { status: r.status, body: json(r), headers: r.headers };
  };
  /** data of a query that must succeed. */
  const data = async (key: string, query: string, variables?: Record<string, unknown>) => {
    const r = await gql(key, query, variables);
    expect(r.body.errors).toBeUndefined();
    expect(r.status).toBe(200);
    return r.body.data;
  };
  const file = (id: string, rel: string, key: string | null = KEYS.all, method = 'GET') =>
    raw(server, {
      method,
      path: `/api/sessions/${id}/files/${rel}`,
      headers: key ? bearer(key) : {},
    });

  describe('authentication', () => {
    const expect401Gql = (r: { status: number; body: any; headers: http.IncomingHttpHeaders }) => {
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors).toHaveLength(1);
      expect(r.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    };

    it('refuses every field path of the schema without a key and with a wrong key', async () => {
      const paths = everyFieldPath(app);
      // Sanity: the walk reaches deep into sessions, steps and artifacts.
      for (const p of [
        'roots.sessionCount',
        'sessions.totalCount',
        'sessions.edges.node.steps.edges.node.output.text',
        'sessions.edges.node.artifacts.versions.content',
        'session.artifact.content',
        'session.step.toolCalls.args',
        'session.files.path',
        'session.problems.message',
      ]) {
        expect(paths.map((x) => x.path)).toContain(p);
      }
      // Each query is valid (so the 401s are about the key) ...
      const schema = app.get(GraphQLSchemaHost).schema;
      for (const { path: p, query } of paths) {
        expect([p, validate(schema, parse(query))]).toEqual([p, []]);
        for (const key of [null, KEYS.wrong]) {
          const r = await gql(key, query);
          expect([p, r.status]).toEqual([p, 401]);
          expect401Gql(r);
        }
      }
      // ... and all of them at once answer with a key, and only with a key.
      const everything = fullSelection(app, 'Query');
      const ok = await gql(KEYS.all, everything);
      expect([ok.status, ok.body.errors]).toEqual([200, undefined]);
      expect(ok.body.data.session.id).toBe(I.pair);
      for (const key of [null, KEYS.wrong, KEYS.all.slice(0, -1)])
        expect401Gql(await gql(key, everything));
      // Two requests per field path, one after another: about 9 s alone, past jest's 60 s
      // beside busy loops and other test runs. It checks the answers, not their speed.
    }, 300_000);

    it('refuses GET /graphql and a batch without a key', async () => {
      const q = encodeURIComponent(`{ session(id: "${I.pair}") { id userRequest } }`);
      for (const headers of [{}, bearer(KEYS.wrong)]) {
        const get = await raw(server, {
          path: `/graphql?query=${q}`,
          headers: { ...headers, 'apollo-require-preflight': 'true' },
        });
        expect(get.status).toBe(401);
        expect(json(get).errors[0].extensions.code).toBe('UNAUTHENTICATED');
        expect(get.text).not.toContain(I.pair);
        const batch = await raw(server, {
          method: 'POST',
          path: '/graphql',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify([{ query: '{ roots { path } }' }, { query: '{ roots { path } }' }]),
        });
        expect(batch.status).toBe(401);
        expect(batch.text).not.toContain(world.fx.home);
      }
    });

    it('refuses file downloads and /metrics with 401 and WWW-Authenticate', async () => {
      for (const headers of [{}, bearer(KEYS.wrong)]) {
        for (const p of [
          `/api/sessions/${I.pair}/files/task.md`,
          `/api/sessions/${I.pair.slice(0, 8)}/files/browser/page.html`,
          `/api/sessions/${I.escapes}/files/scratch/leak.txt`,
          `/api/sessions/${I.pair}/files/..%2f..%2f..%2f..%2fetc%2fpasswd`,
          `/api/sessions/nope/files/x`,
          '/metrics',
        ]) {
          for (const method of ['GET', 'HEAD']) {
            const r = await raw(server, { method, path: p, headers });
            expect([method, p, r.status]).toEqual([method, p, 401]);
            expect(r.headers['www-authenticate']).toBe('Bearer realm="brainql"');
            expect(r.text).not.toContain('brainql_'); // no metric names
            expect(r.text).not.toContain('# Task');
            expectSafe(r);
          }
        }
      }
    });

    it('keeps /healthz and /readyz open, whatever Authorization says', async () => {
      for (const headers of [{}, bearer(KEYS.wrong), { Authorization: 'Basic Zm9vOmJhcg==' }]) {
        const h = await raw(server, { path: '/healthz', headers });
        expect([h.status, json(h)]).toEqual([200, { status: 'ok' }]);
        const r = await raw(server, { path: '/readyz', headers });
        expect(r.status).toBe(200);
      }
    });

    it('does not open protected routes through look-alikes of the open paths', async () => {
      const q = encodeURIComponent(`{ session(id: "${I.pair}") { id } }`);
      const sneaky = [
        `/healthz/../graphql?query=${q}`,
        `/readyz/%2e%2e/graphql?query=${q}`,
        `/healthz/../api/sessions/${I.pair}/files/task.md`,
        `//graphql?query=${q}`,
        `/GRAPHQL?query=${q}`,
        `/graphql/?query=${q}`,
        `/./graphql?query=${q}`,
        `/healthz?/graphql`,
        `/API/SESSIONS/${I.pair}/files/task.md`,
        `//api/sessions/${I.pair}/files/task.md`,
        `/api/sessions/${I.pair}/files/task.md?/healthz`,
        '/METRICS',
        '/metrics/',
        `http://127.0.0.1/graphql?query=${q}`,
        `http://127.0.0.1/api/sessions/${I.pair}/files/task.md`,
      ];
      for (const p of sneaky) {
        const r = await raw(server, { path: p, headers: { 'apollo-require-preflight': 'true' } });
        expectSafe(r);
        if (p !== '/healthz?/graphql') expect([p, r.status]).toEqual([p, 401]);
        expect(r.text).not.toContain(I.pair);
        expect(r.text).not.toContain('# Task');
        expect(r.text).not.toContain('brainql_');
      }
    });

    it('answers malformed Authorization headers with 401, never 500', async () => {
      const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
      const headers = [
        'Bearer',
        'Bearer ',
        `Bearer  ${KEYS.all}`,
        `Basic ${Buffer.from(`all:${KEYS.all}`).toString('base64')}`,
        `Basic ${KEYS.all}`,
        KEYS.all,
        `Token ${KEYS.all}`,
        `Bearer ${KEYS.all},Bearer ${KEYS.all}`,
        `Bearer ${KEYS.all}x`,
        `Bearer ${KEYS.all.slice(0, -1)}`,
        `Bearer ${'k'.repeat(10 * 1024)}`,
        `Bearer ${KEYS.all}${'k'.repeat(10 * 1024)}`,
        `Bearer ${utf8AsLatin1('clé-ключ-🔑')}`,
        'Bearer cl\u00e9',
        `Bearer ${utf8AsLatin1(KEYS.all.replace('a', 'а'))}`, // Cyrillic а
        'Bearer \u00ff\u00fe',
      ];
      for (const value of headers) {
        const label = JSON.stringify(value.slice(0, 60));
        const g = await postGql(server, '{ roots { path } }', { Authorization: value });
        expect([label, g.status]).toEqual([label, 401]);
        expect(json(g).errors[0].extensions.code).toBe('UNAUTHENTICATED');
        expect(g.headers['www-authenticate']).toMatch(/^Bearer /);
        for (const p of [`/api/sessions/${I.pair}/files/task.md`, '/metrics']) {
          const r = await raw(server, { path: p, headers: { Authorization: value } });
          expect([label, p, r.status]).toEqual([label, p, 401]);
          expect(r.headers['www-authenticate']).toMatch(/^Bearer /);
        }
      }
    });

    it('answers an Authorization header beyond the server header limit with 431 or 401', async () => {
      const value = `Bearer ${KEYS.all}${'k'.repeat(20 * 1024)}`;
      const r = await raw(server, { path: '/metrics', headers: { Authorization: value } });
      expect([401, 431]).toContain(r.status);
      const ok = await raw(server, { path: '/healthz' });
      expect(ok.status).toBe(200); // the server is still there
    });

    it('serves a valid key on every route', async () => {
      const roots = await data(KEYS.all, '{ roots { flavor } }');
      expect(roots.roots.map((r: any) => r.flavor).sort()).toEqual([
        'antigravity-acp',
        'antigravity-cli',
        'antigravity-ide',
        'jetski',
      ]);
      expect((await file(I.pair, 'task.md')).status).toBe(200);
      const m = await raw(server, { path: '/metrics', headers: bearer(KEYS.all) });
      expect(m.status).toBe(200);
      // Keys never show up in what the server exposes.
      expect(m.text).not.toContain(KEYS.all);
      expect(m.text).not.toContain(KEYS.wrong);
    });
  });

  describe('scopes', () => {
    /** Full id, upper case, 8 and 4 characters (`dead` is ambiguous among ACP sessions: not 4). */
    const askedAs = (id: string) => [
      id,
      id.toUpperCase(),
      id.slice(0, 8),
      ...(id === EXTRA.ideDead3 ? [] : [id.slice(0, 4)]),
    ];
    const SESSION_IDS = `{ sessions(first: 100) { totalCount edges { node { id root { flavor } } } } }`;

    it('refuses /metrics to scoped keys (its figures span every root) and serves it to the all-roots key', async () => {
      for (const key of [KEYS.acp, KEYS.jetski]) {
        const r = await raw(server, { path: '/metrics', headers: bearer(key) });
        expect(r.status).toBe(403);
        expect(r.text).not.toContain('brainql_sessions');
      }
      const ok = await raw(server, { path: '/metrics', headers: bearer(KEYS.all) });
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/^brainql_sessions \d+$/m);
      expect(ok.headers['x-powered-by']).toBeUndefined();
    });

    it('shows the ACP key only ACP roots, and the jetski key only the jetski root', async () => {
      const acp = await data(KEYS.acp, '{ roots { flavor environment sessionCount } }');
      expect(acp.roots).toEqual([
        { flavor: 'antigravity-acp', environment: 'ACP', sessionCount: ACP_IDS.length },
      ]);
      const jet = await data(KEYS.jetski, '{ roots { flavor sessionCount path } }');
      expect(jet.roots).toEqual([{ flavor: 'jetski', sessionCount: 1, path: world.fx.extraRoot }]);
    });

    it('lists only in-scope sessions, totalCount included, with and without filters', async () => {
      const acp = (await data(KEYS.acp, SESSION_IDS)).sessions;
      expect(acp.totalCount).toBe(ACP_IDS.length);
      expect(acp.edges.map((e: any) => e.node.id).sort()).toEqual(ACP_IDS);
      expect(new Set(acp.edges.map((e: any) => e.node.root.flavor))).toEqual(
        new Set(['antigravity-acp']),
      );
      const jet = (await data(KEYS.jetski, SESSION_IDS)).sessions;
      expect(jet.edges.map((e: any) => e.node.id)).toEqual([I.jetskiRun]);
      expect(jet.totalCount).toBe(1);

      const filtered = async (key: string, filter: string, order = 'NEWEST_FIRST') =>
        (
          await data(
            key,
            `{ sessions(first: 100, order: ${order}, filter: ${filter}) { totalCount edges { node { id } } } }`,
          )
        ).sessions;
      for (const filter of [
        '{ flavor: ["antigravity-ide"] }',
        '{ flavor: ["antigravity-cli", "jetski"] }',
        '{ environment: [IDE, CLI, OTHER] }',
        '{ query: "Prefix" }',
        '{ query: "IDE" }',
        '{ query: "Escapes" }',
        '{ flavor: ["antigravity-ide"], query: "" }',
      ]) {
        for (const order of ['NEWEST_FIRST', 'OLDEST_FIRST']) {
          const s = await filtered(KEYS.acp, filter, order);
          expect([filter, order, s.totalCount, s.edges]).toEqual([filter, order, 0, []]);
        }
      }
      const acpOnly = await filtered(KEYS.acp, '{ environment: [ACP], query: "" }', 'OLDEST_FIRST');
      expect(acpOnly.totalCount).toBe(ACP_IDS.length);
      const dead = await filtered(KEYS.acp, '{ query: "dead" }');
      expect(dead.edges.map((e: any) => e.node.id).sort()).toEqual([
        EXTRA.acpDead1,
        EXTRA.acpDead2,
      ]);
      // The all-roots key sees the hidden ones: the filters above are not simply broken.
      // (+1: twoRoots' IDE copy, shadowed by its CLI copy, is reached by naming its flavor.)
      expect((await filtered(KEYS.all, '{ flavor: ["antigravity-ide"] }')).totalCount).toBe(
        EXPECTED_SESSION_COUNTS['antigravity-ide'] + 2 + Object.keys(ESCAPING).length,
      );
      expect((await filtered(KEYS.all, '{ query: "dead" }')).totalCount).toBe(3);
    });

    it('pages the ACP listing without ever reaching a hidden session', async () => {
      const seen: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 20; i++) {
        const page: any = (
          await data(
            KEYS.acp,
            `query($after: String) { sessions(first: 1, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } } }`,
            { after },
          )
        ).sessions;
        expect(page.totalCount).toBe(ACP_IDS.length);
        seen.push(...page.edges.map((e: any) => e.node.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen.sort()).toEqual(ACP_IDS);
    });

    it('answers session(id) of a hidden session with null: full id, any case, 8 and 4 characters', async () => {
      for (const id of [I.pair, I.escapes, I.cliRun, I.jetskiRun, I.twoRoots, EXTRA.ideDead3]) {
        for (const asked of askedAs(id)) {
          const r = await gql(KEYS.acp, `query($id: String!) { session(id: $id) { id } }`, {
            id: asked,
          });
          expect([asked, r.status, r.body]).toEqual([asked, 200, { data: { session: null } }]);
        }
      }
      // The jetski key cannot see ACP sessions either.
      const j = await data(KEYS.jetski, `{ session(id: "${I.acpRun}") { id } }`);
      expect(j.session).toBeNull();
    });

    it('never hints at hidden sessions through prefix ambiguity', async () => {
      const lookup = (key: string, id: string) =>
        gql(key, `query($id: String!) { session(id: $id) { id } }`, { id });
      // `cafe` matches two IDE sessions and one ACP session: for the ACP key it is unique.
      for (const prefix of ['cafe', 'CAFE', 'cafe000', 'cafe0003']) {
        const r = await lookup(KEYS.acp, prefix);
        expect([prefix, r.body]).toEqual([prefix, { data: { session: { id: EXTRA.acpCafe } } }]);
      }
      // Only the hidden sessions match: null, exactly like no match at all.
      for (const prefix of [
        'cafe0001',
        'cafe000-',
        'ba5e',
        'beef0000-0000-4000-8000-000000000000-2',
      ]) {
        const r = await lookup(KEYS.acp, prefix);
        expect([prefix, r.body]).toEqual([prefix, { data: { session: null } }]);
      }
      // The IDE `beef…` exists, but for the ACP key its id is only a prefix of `beef…-3`.
      const beef = await lookup(KEYS.acp, I.prefixExact);
      expect(beef.body).toEqual({ data: { session: { id: EXTRA.acpBeef } } });
      // Ambiguous among visible sessions: the candidates list none of the hidden ones.
      for (const prefix of ['dead', 'DEAD000']) {
        const r = await lookup(KEYS.acp, prefix);
        expect(r.body.data).toEqual({ session: null });
        expect(r.body.errors).toHaveLength(1);
        const err = r.body.errors[0];
        expect(err.extensions.code).toBe('AMBIGUOUS_SESSION_ID');
        expect(err.extensions.candidates).toEqual([EXTRA.acpDead1, EXTRA.acpDead2]);
        expect(JSON.stringify(r.body)).not.toContain(EXTRA.ideDead3);
        expect(err.message).toMatch(/ 2 sessions/);
      }
      // The all-roots key does see all of them.
      const all = await lookup(KEYS.all, 'dead');
      expect(all.body.errors[0].extensions.candidates).toEqual([
        EXTRA.acpDead1,
        EXTRA.acpDead2,
        EXTRA.ideDead3,
      ]);
      const cafe = await lookup(KEYS.all, 'cafe');
      expect(cafe.body.errors[0].extensions.candidates).toEqual([
        I.prefixA,
        I.prefixB,
        EXTRA.acpCafe,
      ]);
    });

    it('answers downloads of a hidden session exactly like an unknown session', async () => {
      const unknown = await file('0000ffff-0000-4000-8000-00000000ffff', 'task.md', KEYS.acp);
      expect(unknown.status).toBe(404);
      for (const [id, rel] of [
        [I.pair, 'task.md'],
        [I.pair, 'browser/page.html'],
        [I.pair, '.system_generated/logs/transcript.jsonl'],
        [I.pair, 'no-such-file'],
        [I.escapes, 'notes.md'],
        [I.jetskiRun, '.system_generated/logs/transcript.jsonl'],
        [EXTRA.ideDead3, '.system_generated/logs/transcript.jsonl'],
      ]) {
        for (const asked of askedAs(id)) {
          const r = await file(asked, rel, KEYS.acp);
          expect([asked, rel, r.status, r.text]).toEqual([asked, rel, 404, unknown.text]);
          expect(r.headers['content-type']).toBe(unknown.headers['content-type']);
          expect(r.headers['content-length']).toBe(unknown.headers['content-length']);
          const head = await file(asked, rel, KEYS.acp, 'HEAD');
          expect(head.status).toBe(404);
        }
      }
      // `cafe` resolves to the one visible session; `dead` stays ambiguous among visible ones.
      expect((await file('cafe', '.system_generated/logs/transcript.jsonl', KEYS.acp)).status).toBe(
        200,
      );
      const dead = await file('dead', '.system_generated/logs/transcript.jsonl', KEYS.acp);
      expect([dead.status, json(dead)]).toEqual([
        409,
        {
          error: {
            code: 'AMBIGUOUS_SESSION_ID',
            message: '"dead" matches 2 sessions',
            candidates: [EXTRA.acpDead1, EXTRA.acpDead2],
          },
        },
      ]);
      // The same downloads work with the all-roots key.
      expect((await file(I.pair, 'task.md')).status).toBe(200);
      expect(
        (await file(I.acpRun, '.system_generated/logs/transcript.jsonl', KEYS.acp)).status,
      ).toBe(200);
    });
  });

  describe('traversal', () => {
    const TRAVERSALS = [
      '..',
      '../../../outside/secret.txt',
      '../../../../outside/secret.txt',
      '%2e%2e',
      '%2e%2e/%2e%2e/%2e%2e/outside/secret.txt',
      '%2E%2E/%2E%2E/%2E%2E/outside/secret.txt',
      '.%2e/.%2e/.%2e/outside/secret.txt',
      '%2f',
      '%2F',
      '%2fetc%2fpasswd',
      '%2Fetc%2Fpasswd',
      '..%2f..%2f..%2foutside%2fsecret.txt',
      '..%2F..%2F..%2Foutside%2Fsecret.txt',
      '%2e%2e%2f%2e%2e%2f%2e%2e%2foutside%2fsecret.txt',
      '%2E%2E%2F%2E%2E%2F%2E%2E%2Foutside%2Fsecret.txt',
      '..\\..\\..\\outside\\secret.txt',
      '..%5c..%5c..%5coutside%5csecret.txt',
      '..%5C..%5C..%5Coutside%5Csecret.txt',
      '/a/../../../../outside/secret.txt',
      'a/../../../../outside/secret.txt',
      'scratch/../../../../outside/secret.txt',
      'scratch/./real.txt',
      'a/./b',
      './notes.md',
      'scratch//real.txt',
      'notes.md%00',
      'notes.md%00.png',
      '%00',
      'scratch/real.txt%00/../../outside/secret.txt',
      '//etc/passwd',
      '/etc/passwd',
      '///../../outside/secret.txt',
      '%252e%252e/%252e%252e/%252e%252e/outside/secret.txt',
      '%252e%252e%252f%252e%252e%252f%252e%252e%252foutside%252fsecret.txt',
      '%25%32%65%25%32%65/outside/secret.txt',
      '%EF%BC%8E%EF%BC%8E/%EF%BC%8E%EF%BC%8E/%EF%BC%8E%EF%BC%8E/outside/secret.txt',
      '%EF%BC%8E%EF%BC%8E%EF%BC%8F%EF%BC%8E%EF%BC%8E%EF%BC%8Foutside%EF%BC%8Fsecret.txt',
      '\u2025/\u2025/\u2025/outside/secret.txt',
      '%E2%80%A5/%E2%80%A5/outside/secret.txt',
      '%C0%AE%C0%AE/%C0%AE%C0%AE/%C0%AE%C0%AE/outside/secret.txt',
      '%C0%AF',
      '%c0%2e%c0%2e/outside/secret.txt',
      '%uff0e%uff0e/outside/secret.txt',
      '%',
      '%zz',
      'a%2',
      `${'a'.repeat(300)}`,
      `scratch/${'a'.repeat(300)}`,
      Array.from({ length: 1000 }, () => 'abcd')
        .join('/')
        .slice(0, 5000),
      `${'../'.repeat(1600)}outside/secret.txt`,
      `${'%2e%2e/'.repeat(700)}outside/secret.txt`,
      'leak.md',
      'scratch/leak.txt',
      'scratch/outdir/secret.txt',
      'scratch/outdir/session-dir/.system_generated/logs/transcript.jsonl',
      '.system_generated/steps/3/output.txt',
      'scratch/outdir',
      'scratch',
      '',
      '/',
      'scratch/',
      'C:\\Windows\\win.ini',
      'C:/Windows/win.ini',
      'file:///etc/passwd',
    ];

    it('refuses every traversal on the file route with 400 or 404 (GET, HEAD and Range)', async () => {
      const all = bearer(KEYS.all);
      const cases = [
        { session: I.escapes, variants: ['GET', 'HEAD', 'bytes=0-3', 'bytes=-100'] },
        { session: I.escapes.slice(0, 8), variants: ['GET'] },
        { session: I.pair, variants: ['GET', 'bytes=0-'] },
      ];
      for (const { session, variants: names } of cases) {
        for (const rel of TRAVERSALS) {
          const label = `${session.slice(0, 8)} ${rel.slice(0, 80)}`;
          const variants = names.map((n) =>
            n.startsWith('bytes=')
              ? { method: 'GET', headers: { ...all, Range: n } }
              : { method: n, headers: all },
          );
          for (const v of variants) {
            const r = await raw(server, {
              method: v.method,
              path: `/api/sessions/${session}/files/${rel}`,
              headers: v.headers,
            });
            expectSafe(r);
            expect([label, v.method, v.headers.Range, [400, 404].includes(r.status)]).toEqual([
              label,
              v.method,
              v.headers.Range,
              true,
            ]);
            expect(r.headers['content-range']).toBeUndefined();
          }
        }
      }
    });

    it('refuses traversal through the session id segment', async () => {
      for (const id of [
        '..',
        '%2e%2e',
        '..%2f..%2foutside',
        '%2e%2e%2f%2e%2e%2foutside',
        `..%2f${I.escapedSession}`,
        I.escapedSession,
        I.escapedSession.slice(0, 8),
        `antigravity-ide%2fbrain%2f${I.pair}`,
        `${I.pair}%00`,
        `${I.pair}%2f..`,
        `%252e%252e`,
        'x'.repeat(5000),
      ]) {
        for (const rel of ['secret.txt', '.system_generated/logs/transcript.jsonl', 'task.md']) {
          const r = await file(id, rel);
          expectSafe(r);
          expect([id.slice(0, 60), rel, [400, 404].includes(r.status)]).toEqual([
            id.slice(0, 60),
            rel,
            true,
          ]);
          expect(r.text).not.toContain('Escaped session');
        }
      }
    });

    it('does not hang on a FIFO and does not serve directories', async () => {
      for (const rel of ['scratch/pipe', '.system_generated/steps/1/output.txt', 'scratch']) {
        const r = await file(I.fifo, rel);
        expect([rel, r.status]).toEqual([rel, 404]);
      }
    });

    it('still serves the files inside (the refusals above are not a broken route)', async () => {
      const real = await file(I.escapes, 'scratch/real.txt');
      expect([real.status, real.text]).toEqual([200, 'real\n']);
      const inside = await file(I.escapes, 'scratch/inside-link.txt');
      expect([inside.status, inside.text]).toEqual([200, '# Notes inside\n']);
      const step = await file(I.escapes, '.system_generated/steps/3/content.md');
      expect(step.status).toBe(200);
      const range = await raw(server, {
        path: `/api/sessions/${I.escapes}/files/scratch/real.txt`,
        headers: { ...bearer(KEYS.all), Range: 'bytes=0-1' },
      });
      expect([range.status, range.text]).toEqual([206, 're']);
      const head = await file(I.escapes, 'notes.md', KEYS.all, 'HEAD');
      expect([head.status, head.headers['content-length'], head.text]).toEqual([200, '15', '']);
    });

    const ARTIFACT_NAMES = [
      '..',
      '.',
      '../../../outside/secret.txt',
      '%2e%2e',
      '%2E%2E',
      '%2f',
      '%2F',
      '..%2f..%2f..%2foutside%2fsecret.txt',
      '%2e%2e%2f%2e%2e%2foutside%2fsecret.txt',
      '..\\..\\outside\\secret.txt',
      '..%5c..%5coutside%5csecret.txt',
      '/a/../../x',
      'a/./b',
      'a/../notes.md',
      './notes.md',
      'notes.md\u0000',
      'notes.md\u0000.png',
      '\u0000',
      'notes.md%00',
      '//etc/passwd',
      '/etc/passwd',
      'a'.repeat(300),
      `${'a'.repeat(297)}.md`,
      'a/'.repeat(2500),
      '%252e%252e',
      '\uff0e\uff0e',
      '\uff0e\uff0e\uff0foutside\uff0fsecret.txt',
      '\u2025',
      'leak.md',
      'scratch/leak.txt',
      'scratch/outdir/secret.txt',
      '.system_generated/steps/3/output.txt',
      'secret.txt',
      '',
      ' ',
      'C:\\Windows\\win.ini',
    ];

    it('refuses every traversal in artifact(name:) with BAD_USER_INPUT or null', async () => {
      const names = [...ARTIFACT_NAMES, path.join(world.fx.outside, 'secret.txt')];
      for (const session of [I.escapes, I.pair]) {
        for (const name of names) {
          const label = JSON.stringify(name.slice(0, 60));
          const r = await gql(
            KEYS.all,
            `query($id: String!, $name: String!) { session(id: $id) { artifact(name: $name) { name content size versions { content } } } }`,
            { id: session, name },
          );
          expect([label, r.status]).toEqual([label, 200]);
          if (r.body.errors) {
            expect(r.body.errors).toHaveLength(1);
            expect([label, r.body.errors[0].extensions.code]).toEqual([label, 'BAD_USER_INPUT']);
            expect(r.body.errors[0].extensions.stacktrace).toBeUndefined();
            expect(r.body.data).toEqual({ session: { artifact: null } });
          } else {
            expect([label, r.body.data]).toEqual([label, { session: { artifact: null } }]);
          }
        }
      }
      // Sanity: a plain name works.
      const ok = await data(
        KEYS.all,
        `{ session(id: "${I.escapes}") { artifact(name: "notes.md") { content } } }`,
      );
      expect(ok.session.artifact.content).toBe('# Notes inside\n');
    });

    it('never shows the secret behind the escapes session symlinks in any field', async () => {
      const s = await data(
        KEYS.all,
        `{ session(id: "${I.escapes}") {
            artifacts { name content }
            files { path }
            problems { code file }
            step(index: 3) { output { file size text(offset: 0, length: 1000) duplicatesContent } }
          } }`,
      );
      expect(s.session.artifacts.map((a: any) => a.name)).toEqual(['notes.md']);
      expect(s.session.files.map((f: any) => f.path).sort()).toEqual([
        'scratch/inside-link.txt',
        'scratch/real.txt',
      ]);
      expect(s.session.step.output).toMatchObject({
        file: 'content.md',
        text: 'Fallback content for step 3\n',
      });
      const unsafe = s.session.problems.filter((p: any) => p.code === 'UNSAFE_PATH');
      expect(unsafe.map((p: any) => p.file).sort()).toEqual([
        '.system_generated/steps/3/output.txt',
        'leak.md',
        'scratch/leak.txt',
        'scratch/outdir',
      ]);
      // The escaped session (a symlink out of its root) is not reachable at all.
      for (const id of [I.escapedSession, I.escapedSession.slice(0, 8)]) {
        const escaped = await data(KEYS.all, `{ session(id: "${id}") { id } }`);
        expect(escaped.session).toBeNull();
      }
      const listed = await data(KEYS.all, '{ sessions(first: 100) { edges { node { id } } } }');
      expect(listed.sessions.edges.map((e: any) => e.node.id)).not.toContain(I.escapedSession);
    });

    it('never follows escaping transcripts, sidecars, versions or folders (every field)', async () => {
      const selection = fullSelection(app, 'Session', {
        'Session.steps': 'first: 500',
        'Session.artifact': 'name: "plan.md"',
      });
      for (const id of [I.escapes, ...Object.values(ESCAPING)]) {
        const r = await gql(KEYS.all, `{ session(id: "${id}") ${selection} }`);
        expect([id, r.body.errors]).toEqual([id, undefined]);
        expect(r.body.data.session.id).toBe(id);
      }
      const listing = await gql(
        KEYS.all,
        `{ sessions(first: 100, filter: { createdBefore: "2026-04-05T00:00:00Z" }) { edges { node { id userRequest stepCount } } } }`,
      );
      expect(listing.body.data.sessions.edges.map((e: any) => e.node.id).sort()).toEqual(
        expect.arrayContaining(Object.values(ESCAPING)),
      );
      // The full twin is outside: `full: true` falls back to the compact value.
      const twin = await data(
        KEYS.all,
        `{ session(id: "${ESCAPING.fullLink}") { step(index: 1) { truncatedFields content(full: true) } problems { code file } } }`,
      );
      expect(twin.session.step.truncatedFields).toEqual(['content']);
      expect(twin.session.step.content).toMatch(/<truncated \d+ bytes>/);
      expect(twin.session.problems).toContainEqual({
        code: 'UNSAFE_PATH',
        file: '.system_generated/logs/transcript_full.jsonl',
      });
      for (const rel of [
        '.system_generated/logs/transcript_full.jsonl',
        'plan.md.metadata.json',
        'plan.md.resolved',
        'plan.md.resolved.1',
        'other.md',
        'media.png',
        '.system_generated/steps/1/output.txt',
        '.user_uploaded/up.txt',
        '.system_generated/click_feedback/up.txt',
        '.system_generated/tasks/task.log',
      ]) {
        const r = await file(ESCAPING.fullLink, rel);
        expectSafe(r);
        expect([rel, r.status]).toEqual([rel, 404]);
      }
      for (const [id, rel] of [
        [ESCAPING.chunkLink, '.system_generated/logs/chunks/transcript_full/00000000.jsonl'],
        [ESCAPING.compactLink, '.system_generated/logs/transcript.jsonl'],
      ]) {
        const r = await file(id, rel);
        expectSafe(r);
        expect([rel, r.status]).toEqual([rel, 404]);
      }
    });
  });

  describe('download headers', () => {
    it('sends an HTML file with nosniff and a sandboxing CSP', async () => {
      const r = await file(I.pair, 'browser/page.html');
      expect(r.status).toBe(200);
      expect(r.text).toBe('<html><body>page</body></html>\n');
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toMatch(/(^|;)\s*sandbox(\s*;|\s*$)/);
      expect(csp).toMatch(/default-src 'none'/);
      for (const [rel, type] of [
        ['task.md', /^text\/markdown/],
        ['media__1750000000001.png', /^image\/png$/],
        ['scratch/sub/data.csv', /^text\/csv/],
        ['.git/HEAD', /^application\/octet-stream$/],
      ] as const) {
        const f = await file(I.pair, rel);
        expect([rel, f.status]).toEqual([rel, 200]);
        expect(f.headers['content-type']).toMatch(type);
        expect(f.headers['x-content-type-options']).toBe('nosniff');
        expect(f.headers['content-security-policy']).toBe(csp);
      }
    });
  });

  describe('keygen', () => {
    it('prints a key and an entry holding its SHA-256; the key then works with that scope', async () => {
      // As `npm run keygen -- --name ci --flavor antigravity-acp`, and once without a flavor.
      const keygen = (args: string[]) =>
        execFileP(process.execPath, scriptArgs('src/cli/keygen.ts', args), {
          cwd: REPO,
          timeout: 30_000,
        });
      const [run, again] = await Promise.all([
        keygen(['--name', 'ci', '--flavor', 'antigravity-acp']),
        keygen(['--name', 'x']),
      ]);
      expect(run.stderr).toBe('');
      const key = /^(bql_[A-Za-z0-9_-]{43})$/m.exec(run.stdout)?.[1];
      expect(key).toBeDefined();
      const entryLine = run.stdout.split('\n').find((l) => l.startsWith('{'));
      const entry = JSON.parse(entryLine!);
      expect(entry).toEqual({
        name: 'ci',
        sha256: hashKey(key!).toString('hex'),
        flavors: ['antigravity-acp'],
      });
      expect(entryLine).not.toContain(key!);
      expect(again.stdout).not.toContain(key!);
      const other = JSON.parse(again.stdout.split('\n').find((l) => l.startsWith('{'))!);
      expect(other.name).toBe('x');
      expect(other).not.toHaveProperty('flavors');

      const keysFile = path.join(world.fx.dir, 'keygen-keys.json');
      writeKeysFile(keysFile, [entry]);
      const served = await startApp({ fx: world.fx, keysFile });
      try {
        const s = served.getHttpServer() as http.Server;
        const roots = await request(s)
          .post('/graphql')
          .set('Content-Type', 'application/json')
          .set('Authorization', `Bearer ${key}`)
          .send(JSON.stringify({ query: '{ roots { flavor } }' }));
        expect(roots.status).toBe(200);
        expect(roots.body.data.roots).toEqual([{ flavor: 'antigravity-acp' }]);
        const acp = await raw(s, {
          path: `/api/sessions/${I.acpRun}/files/.system_generated/logs/transcript.jsonl`,
          headers: bearer(key!),
        });
        expect(acp.status).toBe(200);
        const ide = await raw(s, {
          path: `/api/sessions/${I.pair}/files/task.md`,
          headers: bearer(key!),
        });
        expect(ide.status).toBe(404);
        // The keys of the main keys file mean nothing to this server.
        const old = await postGql(s, '{ roots { flavor } }', bearer(KEYS.all));
        expect(old.status).toBe(401);
        // Neither does the hash itself, presented as if it were the key.
        const hash = await postGql(s, '{ roots { flavor } }', bearer(entry.sha256));
        expect(hash.status).toBe(401);
      } finally {
        await served.close();
      }
    });
  });
});

describe('secure default configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('brainql-attack-config-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const configError = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };
  const keysFile = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    writeKeysFile(file, content);
    return file;
  };
  const good = (name = 'ok') => [{ name, sha256: hashKey(`${name}-key`).toString('hex') }];

  it('refuses a non-loopback HOST without keys, naming HOST, API_KEYS_FILE and ALLOW_ANONYMOUS', () => {
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      'example.com',
      '127.1',
      '::ffff:127.0.0.1',
    ]) {
      const err = configError({ HOST: host });
      expect(err.message).toContain('HOST');
      expect(err.message).toContain('API_KEYS_FILE');
      expect(err.message).toContain('ALLOW_ANONYMOUS');
      expect(err.message).toContain(host);
    }
    for (const anon of ['false', 'off', '0', 'yes', '2']) {
      expect(configError({ HOST: '0.0.0.0', ALLOW_ANONYMOUS: anon }).message).toContain(
        'ALLOW_ANONYMOUS',
      );
    }
  });

  it('loads with ALLOW_ANONYMOUS=true, with keys, or on loopback without keys', () => {
    for (const anon of ['true', 'on', '1', 'TRUE', ' On ']) {
      expect(loadConfig({ HOST: '0.0.0.0', ALLOW_ANONYMOUS: anon }).apiKeys).toEqual([]);
    }
    const withKeys = loadConfig({ HOST: '0.0.0.0', API_KEYS_FILE: keysFile('good.json', good()) });
    expect(withKeys.apiKeys.map((k) => k.name)).toEqual(['ok']);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      expect(loadConfig({ HOST: host }).host).toBe(host);
    }
    expect(loadConfig({}).host).toBe('127.0.0.1');
    // Introspection is off by default beyond loopback.
    expect(withKeys.introspection).toBe(false);
  });

  it('refuses an unusable keys file, naming API_KEYS_FILE, without echoing secrets', () => {
    const plainKey = 'bql_ThisIsThePlainKeyThatShouldHaveBeenHashed_0123456789';
    const cases: Record<string, string> = {
      missing: path.join(dir, 'does-not-exist.json'),
      directory: dir,
      notJson: keysFile('not-json.json', plainKey),
      truncated: keysFile('truncated.json', '[{"name":"a","sha256":"'),
      notArray: keysFile('object.json', { name: 'a', sha256: hashKey('a').toString('hex') }),
      empty: keysFile('empty.json', []),
      plainKey: keysFile('plain.json', [{ name: 'ci', sha256: plainKey }]),
      plainKeyField: keysFile('plain-field.json', [{ name: 'ci', key: plainKey }]),
      shortHash: keysFile('short.json', [{ name: 'ci', sha256: 'abc123' }]),
      duplicateNames: keysFile('dupes.json', [...good('ci'), ...good('ci')]),
      noName: keysFile('noname.json', [{ sha256: hashKey('a').toString('hex') }]),
      badFlavors: keysFile('flavors.json', [
        { name: 'a', sha256: hashKey('a').toString('hex'), flavors: 'antigravity-acp' },
      ]),
      nullEntry: keysFile('null.json', [null]),
    };
    for (const [label, file] of Object.entries(cases)) {
      for (const host of ['127.0.0.1', '0.0.0.0']) {
        const err = configError({ HOST: host, API_KEYS_FILE: file });
        expect([label, err.message]).toEqual([label, expect.stringContaining('API_KEYS_FILE')]);
        expect(err.message).not.toContain(plainKey);
      }
    }
    // Every bad variable is named in the one message.
    const both = configError({ API_KEYS_FILE: cases.missing, ALLOW_ANONYMOUS: 'maybe', PORT: 'x' });
    for (const v of ['API_KEYS_FILE', 'ALLOW_ANONYMOUS', 'PORT']) expect(both.message).toContain(v);
  });

  it(
    'stops the real server at start on HOST=0.0.0.0 without keys, with the message on stderr',
    async () => {
      const run = await insecureStart;
      expect(run.timedOut).toBe(false); // it stopped by itself
      expect(run.signal).toBeNull();
      expect(run.status).not.toBe(0);
      for (const v of ['HOST', 'API_KEYS_FILE', 'ALLOW_ANONYMOUS']) expect(run.stderr).toContain(v);
      expect(run.stderr).toContain('0.0.0.0');
      expect(run.stdout).not.toContain('GraphQL API at');
    },
    START_TEST_TIMEOUT_MS,
  );
});
