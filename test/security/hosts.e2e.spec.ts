import type { INestApplication } from '@nestjs/common';
import type * as http from 'node:http';
import * as fs from 'node:fs';
import { bearer, buildAttackWorld, KEYS, raw, startApp, type AttackWorld } from './attack-setup';

/** DNS rebinding: a Host this server does not answer to gets 421 before authentication. */

const MISDIRECTED = {
  error: {
    code: 'MISDIRECTED_REQUEST',
    message:
      'this server does not answer to that Host; add the name to ALLOWED_HOSTS if it is meant to',
  },
};

describe('Host check', () => {
  let world: AttackWorld;
  let app: INestApplication;
  let server: http.Server;

  beforeAll(async () => {
    world = buildAttackWorld();
    app = await startApp(world, { ALLOWED_HOSTS: 'brainql.team.example,*.corp.example' });
    server = app.getHttpServer() as http.Server;
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(world.fx.dir, { recursive: true, force: true });
  });

  const get = (path: string, host: string, key: string | null = KEYS.all) =>
    raw(server, { path, headers: { Host: host, ...(key ? bearer(key) : {}) } });

  it('answers 421 in the one error shape for a rebinding name, before auth', async () => {
    for (const [path, key] of [
      ['/graphql?query=%7Broots%7Bflavor%7D%7D', KEYS.all],
      ['/graphql?query=%7Broots%7Bflavor%7D%7D', null],
      ['/metrics', KEYS.all],
      ['/api/sessions/x/files/y', null],
    ] as const) {
      const res = await get(path, 'evil.example:3000', key);
      expect([res.status, res.headers['content-type'], JSON.parse(res.text)]).toEqual([
        421,
        'application/json; charset=utf-8',
        MISDIRECTED,
      ]);
    }
  });

  it('answers loopback names, ALLOWED_HOSTS names and their subdomains', async () => {
    const statuses = [];
    for (const host of [
      'localhost:3000',
      '127.0.0.1',
      '[::1]:3000',
      'brainql.team.example',
      'BRAINQL.TEAM.EXAMPLE:443',
      'dash.corp.example',
      'corp.example',
      'team.example',
    ]) {
      statuses.push((await get('/metrics', host)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 421, 421]);
  });

  it('keeps health probes open to any Host (orchestrators probe by address)', async () => {
    expect((await get('/healthz', '10.1.2.3:3000', null)).status).toBe(200);
    expect((await get('/readyz', '10.1.2.3:3000', null)).status).toBe(200);
  });
});
