import type { INestApplication } from '@nestjs/common';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { EXAMPLE_HOME } from '../../scripts/example-home';
import { startIndexedApp } from '../e2e/search-home';
import { makeTempDir } from '../fixtures/fs-util';

/**
 * The README's REST examples run as written (curl and jq, in a scratch directory), against an
 * app over the example home with the settings of `npm start` (REDACT=on); each prints the text
 * block that follows it. Only the port differs.
 */
const README = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

function examples(): { command: string; answer: string }[] {
  const start = README.indexOf('\n## REST\n');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```(sh|text)\n([\s\S]*?)```/g)];
  const out: { command: string; answer: string }[] = [];
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    expect([blocks[i][1], blocks[i + 1][1]]).toEqual(['sh', 'text']);
    out.push({ command: blocks[i][2].trim(), answer: blocks[i + 1][2].trim() });
  }
  return out;
}

let dir: string;
let app: INestApplication;
let server: http.Server;

beforeAll(async () => {
  dir = makeTempDir('brainql-readme-rest-');
  ({ app, server } = await startIndexedApp({ dir, home: EXAMPLE_HOME }, { REDACT: 'on' }));
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Asynchronous: the server answering curl runs in this process.
const run = promisify(execFile);

it('the README REST examples print what the README shows', async () => {
  const { port } = server.address() as AddressInfo;
  const all = examples();
  expect(all).toHaveLength(8);
  const printed: string[] = [];
  for (const { command } of all) {
    const local = command.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    printed.push((await run('bash', ['-c', local], { cwd: dir, encoding: 'utf8' })).stdout.trim());
  }
  expect(printed).toEqual(all.map((e) => e.answer));
});
