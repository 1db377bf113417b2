import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { makeTempDir } from './fixtures/brain-home';
import { REPO, serverArgs } from './security/attack-setup';

/**
 * Graceful shutdown of the real server process: on SIGTERM a response already being sent is
 * finished, new connections are refused, and the process exits on its own within the grace
 * the compose file gives it (10 s).
 */

const ID = '5d000000-0000-4000-8000-000000000001';
const BIG = 32 * 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

describe('graceful shutdown (SIGTERM)', () => {
  it('finishes the in-flight download, refuses new connections, and exits', async () => {
    const home = makeTempDir('brainql-shutdown-');
    const session = path.join(home, 'antigravity-ide/brain', ID);
    fs.mkdirSync(path.join(session, '.system_generated/logs'), { recursive: true });
    fs.writeFileSync(
      path.join(session, '.system_generated/logs/transcript.jsonl'),
      '{"step_index":0,"type":"USER_INPUT","created_at":"2026-06-01T10:00:00Z","content":"hi"}\n',
    );
    fs.writeFileSync(path.join(session, 'blob.bin'), Buffer.alloc(BIG, 7)); // binary: sent raw
    const port = await freePort();
    const child = spawn(process.execPath, serverArgs(), {
      cwd: REPO,
      env: {
        ...process.env,
        GEMINI_HOME: home,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      await waitReady(port, child);
      // Start a 32 MiB download and stop reading: the server is mid-response.
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get(
          `http://127.0.0.1:${port}/api/sessions/${ID}/files/blob.bin`,
          (res) => {
            let bytes = 0;
            res.once('data', (chunk: Buffer) => {
              bytes += chunk.length;
              res.pause();
              child.kill('SIGTERM');
              setTimeout(() => {
                // The listener is closed: a new connection is refused while the old one lives.
                const probe = net.connect(port, '127.0.0.1');
                probe.on('connect', () => reject(new Error('a new connection was accepted')));
                probe.on('error', () => {
                  res.on('data', (c: Buffer) => (bytes += c.length));
                  res.on('end', () => resolve(bytes));
                  res.resume();
                });
              }, 500);
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      });
      expect(received).toBe(BIG);
      const started = Date.now();
      const code = await exited;
      expect(Date.now() - started).toBeLessThan(10_000);
      // Nest re-raises the signal after closing (code null, signal SIGTERM) or exits 0.
      expect([0, null]).toContain(code);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
