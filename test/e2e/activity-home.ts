import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { EXAMPLE_HOME } from '../../scripts/example-home';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { makeTempDir } from '../fixtures/brain-home';
import { buildActivitySessions } from '../fixtures/session-activity';
import { postGql, type Data } from './harness';

/**
 * The home of the activity suites: a copy of the example home (the three real sessions and the
 * generated ones) plus the activity fixtures in its IDE root, served by one app per test file.
 */

export const REAL_FULL = '9e779ff1-280b-47ed-945f-565cd870ce83';
export const REAL_B = '240ff5ee-02e7-4b54-849e-917d5042eae3';
export const REAL_A = 'a704176f-0000-4000-8000-000000000000';
export const PAIR = 'ba5e0000-0000-4000-8000-000000000001';
export const ACP = 'ac000000-0000-4000-8000-000000000017';

export interface ActivityApp {
  dir: string;
  app: INestApplication;
  server: http.Server;
  /** POST /graphql without a key; expects no errors. */
  data(query: string): Promise<Data>;
}

/**
 * Registers beforeAll/afterAll: builds the home, then starts an app with `env` (which may
 * name files under the home's directory: `env(dir)`). Read the fields inside tests only.
 */
export function useActivityApp(env: (dir: string) => Record<string, string>): ActivityApp {
  const ctx = {} as ActivityApp;
  beforeAll(async () => {
    ctx.dir = makeTempDir('brainql-activity-e2e-');
    fs.cpSync(EXAMPLE_HOME, path.join(ctx.dir, 'home'), { recursive: true });
    buildActivitySessions(path.join(ctx.dir, 'home/antigravity-ide/brain'));
    ctx.app = await createApp(
      loadConfig({
        GEMINI_HOME: path.join(ctx.dir, 'home'),
        RESCAN_MS: '3600000',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_POINTS: '100000000',
        ...env(ctx.dir),
      }),
    );
    await ctx.app.init();
    ctx.server = ctx.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => ctx.server.listen(0, '127.0.0.1', resolve));
    await ctx.app.get(BrainStore).refresh();
    ctx.data = async (query) => {
      const body = await postGql(ctx.server, query);
      expect(body.errors).toBeUndefined();
      return body.data;
    };
  });
  afterAll(async () => {
    await ctx.app?.close();
    if (ctx.dir) fs.rmSync(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}
