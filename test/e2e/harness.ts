import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { undatedCreatedAt } from '../../src/brain/catalog';
import { loadConfig } from '../../src/config/config';
import { HOME_INDEX } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import {
  buildFixtureHome,
  copyRealSessions,
  CTIME_SESSIONS,
  expectedNewestFirst,
  FIXTURE_FACTS,
  FixtureHome,
  makeTempDir,
  REAL_FACTS,
} from '../fixtures/brain-home';

/**
 * Shared setup of the end-to-end suites: one generated brain home (fixtures + the three real
 * sessions, BRAIN_ROOTS = the extra jetski root) and one real application per test file,
 * listening on an ephemeral loopback port so raw HTTP requests can be sent as well.
 */

/**
 * A GraphQL response value: JSON whose shape the query decides, read freely by the tests
 * (the type-aware unsafe-* rules are off for tests; this is the one place `Data` is named).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Data = any;

export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

export interface GqlBody<T = Data> {
  data?: T | null;
  errors?: GqlError[];
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface E2E {
  fx: FixtureHome;
  realIds: string[];
  app: INestApplication;
  store: BrainStore;
  server: http.Server;
  /** POST /graphql; the whole response body. */
  gql<T = Data>(query: string, variables?: Record<string, unknown>): Promise<GqlBody<T>>;
  /** POST /graphql and expect no errors; `data`. */
  data<T = Data>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** POST /graphql and expect exactly one error; that error. */
  error(query: string, variables?: Record<string, unknown>): Promise<GqlError>;
  /** GET with the path sent byte for byte (no URL normalisation by a client library). */
  rawGet(rawPath: string, headers?: http.OutgoingHttpHeaders): Promise<RawResponse>;
  /** Absolute directory of a listed session (fixture or real). */
  dirOf(id: string): string;
}

export interface E2EOptions {
  /** Run the home index's background passes (default true). */
  index?: boolean;
  /** Scan the roots before the tests (default true). */
  refresh?: boolean;
}

/** A fresh app over `fx` (not refreshed); the caller closes it. */
export function startApp(fx: FixtureHome, index = true): Promise<INestApplication> {
  return startAppOver(fx.home, { BRAIN_ROOTS: fx.extraRoot }, { index });
}

/**
 * A fresh app over the brain home `home` (not refreshed), listening on an ephemeral loopback
 * port, with the settings the suites share; `env` adds or overrides. The caller closes it.
 */
export async function startAppOver(
  home: string,
  env: Record<string, string> = {},
  { index = true }: { index?: boolean } = {},
): Promise<INestApplication> {
  const config = loadConfig({
    GEMINI_HOME: home,
    // No background rescans in the middle of a test: each test refreshes when it needs to.
    RESCAN_MS: '3600000',
    LOG_LEVEL: 'silent',
    // The suites send many large queries from one address within a minute, on purpose.
    RATE_LIMIT_POINTS: '100000000',
    // These suites compare answers with the raw files byte for byte; masking has its own
    // suite (test/security/redaction.e2e.spec.ts).
    REDACT: 'off',
    ...env,
  });
  const app = await createApp(config);
  await app.init();
  // Suites that count file reads or measure time keep the background indexer out of it.
  if (!index) await app.get<SqliteHomeIndex>(HOME_INDEX).pause();
  await new Promise<void>((resolve) => app.getHttpServer().listen(0, '127.0.0.1', resolve));
  return app;
}

export function rawGet(
  server: http.Server,
  rawPath: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'GET', path: rawPath, headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export async function postGql(
  server: http.Server,
  query: string,
  variables?: Record<string, unknown>,
): Promise<GqlBody> {
  const res = await request(server)
    .post('/graphql')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ query, variables }));
  return res.body as GqlBody;
}

/**
 * Registers beforeAll/afterAll for a test file and returns the context they fill. Read its
 * fields inside tests only.
 */
export function useE2E(opts: E2EOptions = {}): E2E {
  const ctx = {} as E2E;
  beforeAll(async () => {
    ctx.fx = buildFixtureHome(makeTempDir('brainql-e2e-'));
    ctx.realIds = copyRealSessions(ctx.fx.home);
    ctx.app = await startApp(ctx.fx, opts.index !== false);
    ctx.store = ctx.app.get(BrainStore);
    ctx.server = ctx.app.getHttpServer() as http.Server;
    if (opts.refresh !== false) await ctx.store.refresh();
    ctx.gql = (query, variables) => postGql(ctx.server, query, variables);
    ctx.data = async (query, variables) => {
      const body = await ctx.gql(query, variables);
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    ctx.error = async (query, variables) => {
      const body = await ctx.gql(query, variables);
      expect(body.errors).toHaveLength(1);
      return body.errors![0];
    };
    ctx.rawGet = (rawPath, headers) => rawGet(ctx.server, rawPath, headers);
    ctx.dirOf = (id) => sessionDir(ctx.fx, id);
  });
  afterAll(async () => {
    await ctx.app?.close();
    if (ctx.fx) fs.rmSync(ctx.fx.dir, { recursive: true, force: true });
  });
  return ctx;
}

/** Where a listed session lives (the winning copy for twoRoots / tieRoots). */
export function sessionDir(fx: FixtureHome, id: string): string {
  const facts = FIXTURE_FACTS[id];
  if (!facts) return path.join(fx.roots.ide, id); // a real session
  if (facts.flavor === 'jetski') return path.join(fx.extraRoot, id);
  return path.join(fx.home, facts.flavor, 'brain', id);
}

/** createdAt of a session no record dates (its oldest file time, as the store sees it). */
export function undatedCreatedAtOf(fx: FixtureHome, id: string): string {
  const dir = sessionDir(fx, id);
  return undatedCreatedAt({
    realDir: fs.realpathSync(dir),
    mtimeMs: fs.statSync(dir).mtimeMs,
  }).toISOString();
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every listed session of the e2e home, newest first (createdAt descending, ties by id): the
 * two undated sessions sit at their oldest file time (FIXTURE_MTIME_MS), among the others.
 */
export function allNewestFirst(fx: FixtureHome): string[] {
  const ids = [
    ...CTIME_SESSIONS,
    ...Object.keys(REAL_FACTS),
    ...expectedNewestFirst({ extraRoot: true }),
  ];
  return ids.sort((a, b) => createdAtOf(fx, b).localeCompare(createdAtOf(fx, a)) || byId(a, b));
}

/** createdAt (ISO) of every listed session of the e2e home. */
export function createdAtOf(fx: FixtureHome, id: string): string {
  if (CTIME_SESSIONS.includes(id)) return undatedCreatedAtOf(fx, id);
  if (REAL_FACTS[id]) return REAL_FACTS[id].createdAt;
  return FIXTURE_FACTS[id].createdAt!;
}

/** OLDEST_FIRST of the same sessions: createdAt ascending, ties by id ascending. */
export function allOldestFirst(fx: FixtureHome): string[] {
  return allNewestFirst(fx).sort(
    (a, b) => createdAtOf(fx, a).localeCompare(createdAtOf(fx, b)) || byId(a, b),
  );
}

/**
 * Pages through `sessions` with `first` until hasNextPage is false (order and filter optional);
 * every page's ids and totalCount. Each page's endCursor must be its last edge's cursor.
 */
export async function pageAll(
  e: E2E,
  first: number,
  args: { order?: string; filter?: Record<string, unknown> } = {},
): Promise<{ pages: string[][]; totals: number[] }> {
  const pages: string[][] = [];
  const totals: number[] = [];
  let after: string | null = null;
  const decl = ['$first: Int', '$after: String'];
  const pass = ['first: $first', 'after: $after'];
  if (args.order) {
    decl.push('$order: SessionOrder');
    pass.push('order: $order');
  }
  if (args.filter) {
    decl.push('$filter: SessionFilter');
    pass.push('filter: $filter');
  }
  const query = `query(${decl.join(', ')}) { sessions(${pass.join(', ')}) {
    totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;
  for (let guard = 0; guard < 100; guard++) {
    const d: Data = await e.data(query, { first, after, ...args });
    const c = d.sessions;
    pages.push(c.edges.map((x: Data) => x.node.id));
    totals.push(c.totalCount);
    expect(c.pageInfo.endCursor).toBe(c.edges.length ? c.edges[c.edges.length - 1].cursor : null);
    if (!c.pageInfo.hasNextPage) return { pages, totals };
    after = c.pageInfo.endCursor;
  }
  throw new Error('paging never ended');
}
