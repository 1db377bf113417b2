import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/ops/node-flags';
import { makeTempDir } from '../fixtures/fs-util';
import { BIN, ensureBuilt, EXAMPLE_HOME } from './bin';

/**
 * `brainql serve` starts the server as `npm start` does (a child Node with the server's flags),
 * and stops on SIGTERM.
 */

beforeAll(() => ensureBuilt(), 180_000);

it('serves /healthz on the port it names, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      GEMINI_HOME: EXAMPLE_HOME,
      CACHE_DIR: makeTempDir('brainql-cli-serve-'),
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no address in: ${out}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /GraphQL API at (http:\/\/127\.0\.0\.1:\d+)\/graphql/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const res = await fetch(`${url}/healthz`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
    const server = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim();
    const argv = fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0').slice(1, -1);
    expect(argv).toEqual([...SERVER_NODE_FLAGS, path.join(path.dirname(BIN), '..', 'main.js')]);
  } finally {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBeNull(); // ended by SIGTERM, as the server itself does
  }
});
