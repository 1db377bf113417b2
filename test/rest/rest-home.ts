import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import supertest from 'supertest';
import type { Data, GqlBody } from '../e2e/harness';
import { ask, buildSearchHome, KEYS, startIndexedApp, type SearchHome } from '../e2e/search-home';

/**
 * The REST suites' setup: the search home (four sessions sharing the prefix `5eaf`, secrets in
 * `acp`, a truncated step and an output in `ide`), keys scoped to ide / acp / all, REDACT=on,
 * fully indexed. `get` sends a REST request as a key; `gql` the same as GraphQL, so the suites
 * can compare the two answers.
 */
export interface RestCtx {
  sh: SearchHome;
  app: INestApplication;
  server: http.Server;
  get(path: string, key?: string | null): Promise<supertest.Response>;
  gql(query: string, variables?: Record<string, unknown>, key?: string): Promise<Data>;
}

/** `extend` may add sessions to the home before the app starts. */
export function useRest(
  env: Record<string, string> = {},
  extend: (sh: SearchHome) => void = () => undefined,
): RestCtx {
  const ctx = {} as RestCtx;
  beforeAll(async () => {
    ctx.sh = buildSearchHome();
    extend(ctx.sh);
    ({ app: ctx.app, server: ctx.server } = await startIndexedApp(ctx.sh, {
      API_KEYS_FILE: ctx.sh.keysFile,
      REDACT: 'on',
      ...env,
    }));
    ctx.get = (path, key = KEYS.all) => {
      const req = supertest(ctx.server).get(path);
      return key === null ? req : req.set('Authorization', `Bearer ${key}`);
    };
    ctx.gql = async (query, variables = {}, key = KEYS.all) => {
      const body: GqlBody = await ask(ctx.server, query, variables, key);
      expect(body.errors).toBeUndefined();
      return body.data;
    };
  });
  afterAll(async () => {
    await ctx.app?.close();
    if (ctx.sh) fs.rmSync(ctx.sh.dir, { recursive: true, force: true });
  });
  return ctx;
}

/** A REST page from a GraphQL connection, as the routes shape it. */
export const pageOf = (c: Data) => ({
  items: c.edges.map((e: Data) => e.node),
  totalCount: c.totalCount,
  nextCursor: c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null,
});
