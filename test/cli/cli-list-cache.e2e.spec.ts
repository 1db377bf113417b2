import Database from 'better-sqlite3';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { HOME_INDEX } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json } from './bin';
import { GHP, makeCliHome, MASK, SECRET_ID } from './cli-home';

/**
 * `list` reuses the index file an earlier run left (read-only), only when it was built with the
 * same redaction settings, and lists the same whether it can open it or a server holds it.
 */

type List = { items: { id: string; userRequest: string | null }[]; totalCount: number };

let home: string;
let cacheDir: string;

/** Runs the app over the home until its index is complete, keeping it open when `keep`. */
async function buildIndex(keep: boolean) {
  const app = await createApp(
    loadConfig({ GEMINI_HOME: home, CACHE_DIR: cacheDir, LOG_LEVEL: 'silent' }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  await app.get<SqliteHomeIndex>(HOME_INDEX).caughtUp();
  if (!keep) await app.close();
  return app;
}

const list = (env: Record<string, string> = {}) =>
  brainql(['list', '--json'], { GEMINI_HOME: home, CACHE_DIR: cacheDir, ...env }).then((r) =>
    json<List>(r),
  );

beforeAll(async () => {
  ensureBuilt();
  home = makeCliHome();
  cacheDir = makeTempDir('brainql-cli-index-');
  await buildIndex(false);
}, 180_000);

it('reads summaries from the index file (a summary changed in it shows)', async () => {
  const plain = await list({ CACHE_DIR: makeTempDir('brainql-cli-empty-') });
  expect(plain.items[0].userRequest).toBe(`Deploy with the token ${MASK} please`);
  expect(await list()).toEqual(plain);

  // Proof of reuse: the stored summary, edited, is what list prints (its files did not change).
  const db = new Database(path.join(cacheDir, 'index.sqlite'));
  const dir = path.join(home, 'antigravity-ide/brain', SECRET_ID);
  const row = db.prepare('SELECT summary FROM sessions WHERE dir = ?').get(dir) as {
    summary: string;
  };
  const stored = JSON.parse(row.summary) as { served: { userRequest: string } };
  stored.served.userRequest = 'from the index';
  db.prepare('UPDATE sessions SET summary = ? WHERE dir = ?').run(JSON.stringify(stored), dir);
  db.close();
  expect((await list()).items[0].userRequest).toBe('from the index');

  // Built with other redaction settings: not used (and the secret shows, as REDACT=off asks).
  expect((await list({ REDACT: 'off' })).items[0].userRequest).toBe(
    `Deploy with the token ${GHP} please`,
  );
});

it('lists the same while a server holds the index file', async () => {
  const fresh = await list({ CACHE_DIR: makeTempDir('brainql-cli-empty-') });
  cacheDir = makeTempDir('brainql-cli-index-held-');
  const app = await buildIndex(true);
  try {
    expect(await list()).toEqual(fresh);
  } finally {
    await app.close();
  }
});
