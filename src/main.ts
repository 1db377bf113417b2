import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { BrainStore } from './brain/store';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { StoreSource } from './store/store.module';

async function bootstrap(config: AppConfig): Promise<void> {
  const app = await createApp(config, ['log', 'warn', 'error']);
  const log = new Logger('brainql');
  const source = app.get(StoreSource);
  if (source.isExample) {
    log.warn(
      `Serving the EXAMPLE brain home ${source.geminiHome}: no brain root found under GEMINI_HOME=${config.geminiHome}` +
        (config.brainRoots.length ? ` or BRAIN_ROOTS=${config.brainRoots.join(',')}` : ''),
    );
  } else {
    log.log(
      `Serving brain roots under ${source.geminiHome}${source.brainRoots.length ? ` and ${source.brainRoots.join(',')}` : ''}`,
    );
  }
  await app.listen(config.port, config.host);
  const store = app.get(BrainStore);
  const started = Date.now();
  store.refresh().then(
    (catalog) =>
      log.log(
        `Scanned ${catalog.newestFirst.length} sessions in ${catalog.roots.length} roots (${Date.now() - started} ms): ready`,
      ),
    (err: unknown) => log.error(`First scan failed: ${String(err)}`),
  );
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.log(`GraphQL API at http://${host}:${config.port}/graphql`);
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
