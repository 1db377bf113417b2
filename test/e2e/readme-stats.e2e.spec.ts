import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import supertest from 'supertest';
import { EXAMPLE_HOME } from '../../scripts/example-home';
import { makeTempDir } from '../fixtures/fs-util';
import { startIndexedApp } from './search-home';

/**
 * The README's dashboard recipes run as written: each curl's body is sent as it stands in the
 * README, to an app over the example home, and the answer is the JSON block that follows it.
 */

const README = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

function recipes(): { body: string; answer: unknown }[] {
  const start = README.indexOf('## Dashboards: stats');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```(sh|json)\n([\s\S]*?)```/g)];
  const out: { body: string; answer: unknown }[] = [];
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    const [sh, json] = [blocks[i], blocks[i + 1]];
    expect([sh[1], json[1]]).toEqual(['sh', 'json']);
    const body = /-d '(.*)'\s*$/.exec(sh[2].trim())?.[1];
    expect(body).toBeDefined();
    out.push({ body: body!, answer: JSON.parse(json[2]) });
  }
  return out;
}

let dir: string;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  dir = makeTempDir('brainql-readme-stats-');
  ({ app, server } = await startIndexedApp({ dir, home: EXAMPLE_HOME }));
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('the README has four dashboard recipes, each answered exactly as shown', async () => {
  const all = recipes();
  // Three stats panels, and the sessions by tool a Tools bar opens.
  expect(all).toHaveLength(4);
  for (const { body, answer } of all) {
    const res = await supertest(server)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.body).toEqual(answer);
  }
});
