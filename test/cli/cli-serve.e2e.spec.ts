import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../src/ops/node-flags';
import { makeTempDir } from '../fixtures/fs-util';
import { BIN, ensureBuilt, EXAMPLE_HOME } from './bin';

/**
 * `brainql serve` starts the server as `npm start` does (a child Node with the server's flags),
 * stops on SIGTERM, and leaves no server behind when it is killed outright.
 */

beforeAll(() => ensureBuilt(), 180_000);

/** `brainql serve` on a free port: the wrapper, its URL and the server's pid. */
async function serve(): Promise<{
  child: ChildProcessWithoutNullStreams;
  url: string;
  server: number;
}> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      GEMINI_HOME: EXAMPLE_HOME,
      CACHE_DIR: makeTempDir('brainql-cli-serve-'),
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
  const server = Number(
    execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim(),
  );
  return { child, url, server };
}

/** Running: a zombie (exited, not yet reaped by whoever adopted it) counts as gone. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

it('serves /healthz on the port it names, and stops on SIGTERM', async () => {
  const { child, url, server } = await serve();
  try {
    const res = await fetch(`${url}/healthz`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
    const argv = fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0').slice(1, -1);
    expect(argv).toEqual([...SERVER_NODE_FLAGS, path.join(path.dirname(BIN), '..', 'main.js')]);
  } finally {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBeNull(); // ended by SIGTERM, as the server itself does
  }
  expect(alive(server)).toBe(false);
});

it('the server stops when brainql serve is killed outright (SIGKILL)', async () => {
  const { child, url, server } = await serve();
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  for (let i = 0; i < 100 && alive(server); i++) await new Promise((r) => setTimeout(r, 100));
  const gone = !alive(server);
  if (!gone) process.kill(server, 'SIGKILL');
  expect(gone).toBe(true);
  await expect(fetch(`${url}/healthz`)).rejects.toThrow();
});
