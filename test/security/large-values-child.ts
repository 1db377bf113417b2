import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';

/**
 * A server in a child process (`node --expose-gc -r ts-node/register/transpile-only`), so its
 * RSS is the server's alone; see large-values.spec.ts. Serves GEMINI_HOME=HOME; prints `{"port":N}` once
 * ready, samples RSS every 5 ms, and on a line on stdin prints `{"startMiB","maxMiB"}` and
 * exits.
 *
 *   HOME CACHE_MAX_MB
 */

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc!;

async function main(home: string, cacheMb: string): Promise<void> {
  const app = await createApp(
    loadConfig({
      GEMINI_HOME: home,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      RESCAN_MS: '3600000',
      CACHE_MAX_MB: cacheMb,
      RATE_LIMIT_POINTS: '100000000',
    }),
  );
  await app.listen(0, '127.0.0.1');
  await app.get(BrainStore).refresh();
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startRss = process.memoryUsage().rss;
  let maxRss = startRss;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }, 5);
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  process.stdout.write(JSON.stringify({ port }) + '\n');
  process.stdin.once('data', () => {
    clearInterval(sampler);
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
    process.stdout.write(JSON.stringify({ startMiB: startRss / MiB, maxMiB: maxRss / MiB }) + '\n');
    process.exit(0);
  });
}

const [home, cacheMb] = process.argv.slice(2);
main(home, cacheMb).catch((err: unknown) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});
