import { spawn } from 'node:child_process';
import { makeTempDir } from '../fixtures/fs-util';
import { BIN, ensureBuilt, EXAMPLE_HOME } from './bin';

/** `brainql serve` starts the server as `npm start` does, and stops on SIGTERM. */

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
  } finally {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect([0, null]).toContain(await exited);
  }
});
