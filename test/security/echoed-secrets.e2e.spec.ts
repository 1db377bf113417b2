import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { makeTempDir } from '../fixtures/brain-home';
import { postGql, rawGet, startAppOver } from '../e2e/harness';

/**
 * Issue 19 review (REDACT=on): secrets a caller or a folder name brings in must not come back
 * out through /metrics, session ids or error messages.
 */

const ID = '10990000-0000-4000-8000-000000000002';
const STRIPE_OP = ['sk_live_', 'PlantStr1pe0aB1cD2eF3gH4iJ5'].join('');

let dir: string;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  dir = makeTempDir('brainql-echoed-');
  const logs = path.join(dir, 'home/antigravity-ide/brain', ID, '.system_generated/logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(
    path.join(logs, 'transcript.jsonl'),
    '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z","content":"hi"}\n',
  );
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
