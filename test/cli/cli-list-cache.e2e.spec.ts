import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createApp } from '../../src/app.factory';
import { BrainStore } from '../../src/brain/store';
import { loadConfig } from '../../src/config/config';
import { HOME_INDEX } from '../../src/index/home-index';
import type { SqliteHomeIndex } from '../../src/index/sqlite/sqlite-home-index';
import { makeTempDir } from '../fixtures/fs-util';
import { brainql, ensureBuilt, json } from './bin';
import { ACP_ID, GHP, makeCliHome, MASK, PLAIN_ID, SECRET_ID } from './cli-home';

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

it('sees what changed since the index was built: added, replaced and removed sessions', async () => {
  const changed = makeCliHome();
  const cache = makeTempDir('brainql-cli-index-changed-');
  const app = await createApp(
    loadConfig({ GEMINI_HOME: changed, CACHE_DIR: cache, LOG_LEVEL: 'silent' }),
  );
  await app.init();
  await app.get(BrainStore).refresh();
  await app.get<SqliteHomeIndex>(HOME_INDEX).caughtUp();
  await app.close();

  const ide = path.join(changed, 'antigravity-ide/brain');
  // Replaced by a shorter file (not an append; its inode may be reused): its first record is
  // now older than the ACP sessions'.
  const logs = path.join(ide, PLAIN_ID, '.system_generated/logs');
  for (const f of ['transcript.jsonl', 'transcript_full.jsonl']) {
    const file = path.join(logs, f);
    const text = fs
      .readFileSync(file, 'utf8')
      .replace('2026-06-02T09:00:00Z', '2026-05-01T09:00:00Z')
      .replace('Write the changelog', 'Write it');
    fs.rmSync(file);
    fs.writeFileSync(file, text);
  }
  // Added after the index was built.
  const added = 'add00000-0000-4000-8000-000000000009';
  fs.cpSync(
    path.join(changed, 'antigravity-acp/brain', ACP_ID),
    path.join(changed, 'antigravity-acp/brain', added),
    {
      recursive: true,
    },
  );
  // Removed.
  fs.rmSync(path.join(ide, SECRET_ID), { recursive: true });

  const run = (dir: string) =>
    brainql(['list', '--json'], { GEMINI_HOME: changed, CACHE_DIR: dir }).then((r) =>
      json<List>(r),
    );
  const [cached, fresh] = await Promise.all([run(cache), run(makeTempDir('brainql-cli-empty-'))]);
  expect(cached.items.map((s) => s.id)).toEqual([ACP_ID, added, PLAIN_ID]);
  expect(cached).toEqual(fresh);
});
