import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { makeTempDir, put } from '../fixtures/fs-util';

/**
 * A home for the browser pages' suites: three roots of one session each, two of them with
 * flavors that must not reach a page as written (markup, and a GitLab token the redactor
 * masks), served with optional API keys: FULL_KEY reads every root, IDE_KEY only
 * antigravity-ide.
 */

export const FULL_KEY = 'bql_web-home-full-key-0123456789abcdefghijklmnopqrstuvwxyz';
export const IDE_KEY = 'bql_web-home-ide-key-0123456789abcdefghijklmnopqrstuvwxyz';
export const MARKUP_FLAVOR = `a<b x="1">&'c`;
export const SECRET_FLAVOR = 'team-glpat-0123456789abcdefghij';
export const IDS = {
  ide: 'eb000000-0000-4000-8000-000000000001',
  markup: 'eb000000-0000-4000-8000-000000000002',
  secret: 'eb000000-0000-4000-8000-000000000003',
};

export interface WebHome {
  app: INestApplication;
  server: http.Server;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The folder holding everything (home, extra roots, keys). */
  dir: string;
  close(): Promise<void>;
}

function writeSession(brain: string, id: string, request: string): void {
  const record = {
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: '2026-06-01T10:00:00Z',
    content: `<USER_REQUEST>\n${request}\n</USER_REQUEST>`,
  };
  put(
    path.join(brain, id, '.system_generated/logs/transcript.jsonl'),
    JSON.stringify(record) + '\n',
  );
}

export async function startWebHome(
  env: Record<string, string> = {},
  { withKeys = false }: { withKeys?: boolean } = {},
): Promise<WebHome> {
  const dir = makeTempDir('brainql-web-');
  const home = path.join(dir, 'home');
  const markupRoot = path.join(dir, 'extra', MARKUP_FLAVOR, 'brain');
  const secretRoot = path.join(dir, 'extra', SECRET_FLAVOR, 'brain');
  writeSession(path.join(home, 'antigravity-ide', 'brain'), IDS.ide, 'ide work');
  writeSession(markupRoot, IDS.markup, 'markup work');
  writeSession(secretRoot, IDS.secret, 'secret work');
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      { name: 'full', sha256: hashKey(FULL_KEY).toString('hex') },
      { name: 'ide', sha256: hashKey(IDE_KEY).toString('hex'), flavors: ['antigravity-ide'] },
    ]),
  );
  const app = await createApp(
    loadConfig({
      GEMINI_HOME: home,
      BRAIN_ROOTS: `${markupRoot},${secretRoot}`,
      RESCAN_MS: '3600000',
      LOG_LEVEL: 'silent',
      ...(withKeys ? { API_KEYS_FILE: keysFile } : {}),
      ...env,
    }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  const server = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    server,
    origin: `http://127.0.0.1:${port}`,
    dir,
    close: async () => {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
