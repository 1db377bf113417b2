import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { makeTempDir, put } from '../fixtures/fs-util';

/**
 * A brain home with one session holding the given files, served by an app with the given
 * settings, for the download and error suites that need their own configuration (redaction
 * on, small rate limits, API keys). The caller closes it.
 */

export const MINI_ID = 'f11e0000-0000-4000-8000-000000000001';
/** An API key of the keyed variant (`withKey`). */
export const MINI_KEY = 'bql_mini-home-key-0123456789abcdefghijklmnopqrstuvwxyz';

export interface MiniHome {
  app: INestApplication;
  server: http.Server;
  /** The session directory. */
  dir: string;
  close(): Promise<void>;
}

export async function startMiniHome(
  files: Record<string, string | Buffer>,
  env: Record<string, string> = {},
  opts: { withKey?: boolean } = {},
): Promise<MiniHome> {
  const root = makeTempDir('brainql-mini-');
  const dir = path.join(root, 'home/antigravity-ide/brain', MINI_ID);
  const record = {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: '2026-06-01T10:00:00Z',
    content: '<USER_REQUEST>\nhello\n</USER_REQUEST>',
  };
  put(path.join(dir, '.system_generated/logs/transcript.jsonl'), JSON.stringify(record) + '\n');
  for (const [rel, data] of Object.entries(files)) put(path.join(dir, rel), data);
  const keysFile = path.join(root, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([{ name: 'mini', sha256: hashKey(MINI_KEY).toString('hex') }]),
  );
  const app = await createApp(
    loadConfig({
      GEMINI_HOME: path.join(root, 'home'),
      RESCAN_MS: '3600000',
      LOG_LEVEL: 'silent',
      ...(opts.withKey ? { API_KEYS_FILE: keysFile } : {}),
      ...env,
    }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  const server = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    app,
    server,
    dir,
    close: async () => {
      await app.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The URL of a file of the mini session. */
export const miniFile = (rel: string): string => `/api/sessions/${MINI_ID}/files/${rel}`;
