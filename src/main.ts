import './production';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { BrainStore } from './brain/store';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { StoreSource } from './store/store.module';

/** How long in-flight requests get after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 8000;

async function bootstrap(config: AppConfig): Promise<void> {
  // Nest's own start-up chatter is off: the first line an operator reads says what is served.
  const app = await createApp(config, { nestLogs: true });
  const log = new Logger('brainql');
  const source = app.get(StoreSource);
  if (source.isExample) {
    log.warn(
      `Serving the EXAMPLE brain home ${source.geminiHome}: no brain root exists under ` +
        `GEMINI_HOME=${config.geminiHome}` +
        (config.brainRoots.length ? ` or BRAIN_ROOTS=${config.brainRoots.join(',')}` : '') +
        '. Point GEMINI_HOME at a folder holding <flavor>/brain/ to serve your own sessions.',
    );
  } else {
    const extra = source.brainRoots.length ? ` and BRAIN_ROOTS=${source.brainRoots.join(',')}` : '';
    log.log(`Serving the brain roots of GEMINI_HOME=${source.geminiHome}${extra}`);
  }
  await app.listen(config.port, config.host);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.log(`GraphQL API at http://${host}:${config.port}/graphql`);

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
}

let config: AppConfig;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
bootstrap(config).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
