import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { HOME_INDEX } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { makeTempDir } from '../fixtures/fs-util';

/** A key the server accepts: its name, the key itself, and the flavors it may see (all if none). */
export interface CliKey {
  name: string;
  key: string;
  flavors?: string[];
}

/**
 * What the CLI specs give `--url`: a server over `home` on a free loopback port, its home index
 * caught up, with `keys` in its API_KEYS_FILE (the CLI runs in a child; the app in the test's
 * process). `env` adds to its configuration. Close the app when done.
 */
export async function serveForCli(
  home: string,
  keys: CliKey[],
  env: Record<string, string> = {},
): Promise<{ app: INestApplication; url: string }> {
  const dir = makeTempDir('brainql-cli-server-');
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify(
      keys.map((k) => ({
        name: k.name,
        sha256: hashKey(k.key).toString('hex'),
        ...(k.flavors ? { flavors: k.flavors } : {}),
      })),
    ),
  );
  const app = await createApp(
    loadConfig({
      GEMINI_HOME: home,
      CACHE_DIR: path.join(dir, 'cache'),
      API_KEYS_FILE: keysFile,
      LOG_LEVEL: 'silent',
      ...env,
    }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  await app.get<SqliteHomeIndex>(HOME_INDEX).caughtUp();
  const server = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { app, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
