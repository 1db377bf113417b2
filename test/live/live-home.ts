import type { INestApplication } from '@nestjs/common';
import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { hashKey } from '../../src/auth/api-keys';
import { BrainStore } from '../../src/brain/store';
import { LiveService } from '../../src/live/live.service';
import { startAppOver } from '../e2e/harness';
import { makeTempDir, put } from '../fixtures/fs-util';

/**
 * A small brain home for the live suites, built in a temp dir: two IDE sessions and one CLI
 * session, and two API keys (one for every root, one scoped to antigravity-cli). Appends and
 * new sessions are written the way agents write them (whole lines appended to the file).
 */

export const IDE_A = 'a1a10000-0000-4000-8000-00000000000a';
export const IDE_B = 'b2b20000-0000-4000-8000-00000000000b';
export const CLI_C = 'c3c30000-0000-4000-8000-00000000000c';
/** Shares IDE_A's first four characters: "a1a1" is ambiguous. */
export const A_TWIN = 'a1a1eeee-0000-4000-8000-00000000000e';
export const KEY_ALL = 'bql_live-all-0123456789abcdefghijklmnopqrstuvwxyz';
export const KEY_CLI = 'bql_live-cli-0123456789abcdefghijklmnopqrstuvwxyz';
/** An AWS access key id: masked as [REDACTED:aws-access-key] in every answer. */
export const AWS = 'AKIAIOSFODNN7EXAMPLE';

export function line(stepIndex: number, content: string, at = '2026-06-01T10:00:00Z'): string {
  return (
    JSON.stringify({
      step_index: stepIndex,
      source: stepIndex === 0 ? 'USER_EXPLICIT' : 'MODEL',
      type: stepIndex === 0 ? 'USER_INPUT' : 'PLANNER_RESPONSE',
      status: 'DONE',
      created_at: at,
      content,
    }) + '\n'
  );
}

export interface LiveHome extends LiveTree {
  app: INestApplication;
  server: http.Server;
  live: LiveService;
  store: BrainStore;
  close(): Promise<void>;
}

export interface LiveTree {
  root: string;
  home: string;
  keysFile: string;
  transcript(id: string, flavor?: string): string;
  append(id: string, text: string, flavor?: string): void;
  create(id: string, lines: string[], flavor?: string): void;
}

/** The home of the live suites in a fresh temp dir (the caller removes `root`). */
export function buildLiveTree(): LiveTree {
  const root = makeTempDir('brainql-live-');
  const home = path.join(root, 'home');
  const transcript = (id: string, flavor = 'antigravity-ide') =>
    path.join(home, flavor, 'brain', id, '.system_generated/logs/transcript.jsonl');
  put(transcript(IDE_A), line(0, 'hello from A') + line(1, `key ${AWS} seen`));
  put(transcript(IDE_B), line(0, 'hello from B'));
  put(transcript(CLI_C, 'antigravity-cli'), line(0, 'hello from C'));
  put(transcript(A_TWIN, 'antigravity-cli'), line(0, 'hello from the twin'));
  const keysFile = path.join(root, 'keys.json');
  fs.writeFileSync(
    keysFile,
    JSON.stringify([
      { name: 'all', sha256: hashKey(KEY_ALL).toString('hex') },
      { name: 'cli', sha256: hashKey(KEY_CLI).toString('hex'), flavors: ['antigravity-cli'] },
    ]),
  );
  return {
    root,
    home,
    keysFile,
    transcript,
    append: (id, text, flavor) => fs.appendFileSync(transcript(id, flavor), text),
    create: (id, lines, flavor) => put(transcript(id, flavor), lines.join('')),
  };
}

export async function startLiveHome(env: Record<string, string> = {}): Promise<LiveHome> {
  const tree = buildLiveTree();
  const { root, home } = tree;
  const app = await startAppOver(
    home,
    { API_KEYS_FILE: tree.keysFile, REDACT: 'on', CACHE_DIR: path.join(root, 'cache'), ...env },
    { index: false },
  );
  const store = app.get(BrainStore);
  await store.refresh();
  return {
    ...tree,
    app,
    server: app.getHttpServer() as http.Server,
    live: app.get(LiveService),
    store,
    close: async () => {
      await app.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
