import './production';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.factory';
import { BrainStore } from './brain/store';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { StoreSource } from './config/brain-source';
import { listenFailure, probeListen } from './ops/listen-failure';
import { startupReport } from './ops/startup-report';

/** How long in-flight requests get after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 8000;

async function bootstrap(config: AppConfig): Promise<void> {
  await probeListen(config.host, config.port);
  // Nest's own start-up chatter is off: the first line an operator reads says what is served.
  const app = await createApp(config, { nestLogs: true });
  const log = new Logger('brainql');
  for (const line of startupReport(config, app.get(StoreSource))) log[line.level](line.message);
  await app.listen(config.port, config.host);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // PORT=0 picks a free port: say which.
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  log.log(`GraphQL API at http://${host}:${port}/graphql`);

  const store = app.get(BrainStore);
  const started = Date.now();
  store.refresh().then(
    (c) =>
      log.log(
        `Scanned ${c.newestFirst.length} sessions in ${c.roots.length} roots in ${Date.now() - started} ms: ready`,
      ),
    (err: unknown) => log.error(`The first scan of the brain roots failed: ${String(err)}`),
  );

  process.once('SIGTERM', () => {
    log.log('SIGTERM: finishing in-flight requests, refusing new ones');
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
  });
  // Started by `brainql serve` (over an IPC channel): stop when it is gone, even by SIGKILL,
  // instead of holding the port as an orphan.
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/**
 * A configuration mistake, or an address that cannot be listened on (a busy port), is one
 * readable line and exit code 1, never a stack trace.
 */
function fail(err: unknown, where?: { host: string; port: number }): never {
  const listen = where ? listenFailure(err, where.host, where.port) : null;
  console.error(err instanceof ConfigError ? err.message : (listen ?? err));
  process.exit(1);
}

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  fail(err);
}
bootstrap(config).catch((err: unknown) => fail(err, config));
