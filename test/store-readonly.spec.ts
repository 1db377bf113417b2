import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeUtf8 } from '../src/brain/files';
import { BrainStore } from '../src/brain/store';
import { HOME_INDEX } from '../src/index/home-index';
import type { SqliteHomeIndex } from '../src/index/sqlite/sqlite-home-index';
import type { StepRecord, TruncatedField } from '../src/brain/types';
import {
  buildFixtureHome,
  copyRealSessions,
  FIXTURE_IDS as I,
  type FixtureHome,
  makeTempDir,
} from './fixtures/brain-home';
import { postGql, startAppOver } from './e2e/harness';

/**
 * The store and the home index never write: over a read-only fixture home (plus the real sessions) every read
 * path of the store runs, and afterwards every file's bytes, size, mode and times, every
 * symlink's target and every directory's listing are as they were. Tests run as root, for
 * whom `chmod a-w` stops nothing, so the proof is the before/after comparison, not EACCES.
 */

interface Node {
  kind: 'dir' | 'file' | 'link' | 'fifo' | 'other';
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** sha256 of a file, target of a link, sorted entries of a directory. */
  detail: string;
}

/** Everything under `root`, never following a symlink and never opening a FIFO. */
function snapshot(root: string): Map<string, Node> {
  const out = new Map<string, Node>();
  const visit = (rel: string): void => {
    const p = path.join(root, rel);
    const st = fs.lstatSync(p);
    const base = { mode: st.mode, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    if (st.isSymbolicLink()) {
      out.set(rel, { kind: 'link', ...base, detail: fs.readlinkSync(p) });
    } else if (st.isFIFO()) {
      out.set(rel, { kind: 'fifo', ...base, detail: '' });
    } else if (st.isFile()) {
      const sha = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
      out.set(rel, { kind: 'file', ...base, detail: sha });
    } else if (st.isDirectory()) {
      const names = fs.readdirSync(p).sort();
      out.set(rel, { kind: 'dir', ...base, detail: names.join('\n') });
      for (const name of names) visit(rel ? `${rel}/${name}` : name);
    } else {
      out.set(rel, { kind: 'other', ...base, detail: '' });
    }
  };
  visit('');
  return out;
}

let fx: FixtureHome;
let before: Map<string, Node>;

beforeAll(() => {
  fx = buildFixtureHome(makeTempDir('brainql-readonly-'));
  copyRealSessions(fx.home);
  execFileSync('chmod', ['-R', 'a-w', fx.dir]);
  before = snapshot(fx.dir);
});

afterAll(() => {
  execFileSync('chmod', ['-R', 'u+w', fx.dir]);
  fs.rmSync(fx.dir, { recursive: true, force: true });
});

it('reads the whole fixture home through the store and changes nothing on disk', async () => {
  const kinds = new Set([...before.values()].map((n) => n.kind));
  expect([...kinds].sort()).toEqual(['dir', 'fifo', 'file', 'link']);
  expect(before.size).toBeGreaterThan(150);

  const store = new BrainStore({
    geminiHome: fx.home,
    brainRoots: [fx.extraRoot],
    rescanMs: 3_600_000,
  });
  const catalog = await store.refresh();
  const seen = { sessions: 0, records: 0, fullFields: 0, outputs: 0, artifacts: 0, files: 0 };
  const problemCodes = new Set<string>();

  for (const listed of catalog.newestFirst) {
    const entry = listed.entry;
    seen.sessions++;
    await store.summary(listed);
    await store.views(entry);
    const records = await store.records(entry);
    seen.records += records.length;
    for (const record of records) {
      for (const field of record.truncatedFields) {
        await store.fullField(entry, record, field);
        seen.fullFields++;
      }
      await store.fullField(entry, record, 'content');
      const { output } = await store.stepOutput(entry, record.index);
      if (output) {
        seen.outputs++;
        decodeUtf8(await store.readRange(entry, output.relPath, 0, output.size));
        decodeUtf8(await store.readRange(entry, output.relPath, 1, 3));
      }
    }
    for (const artifact of await store.artifacts(entry)) {
      seen.artifacts++;
      await store.artifact(entry, artifact.name);
      await store.readRange(entry, artifact.name, 0, artifact.size);
      for (const v of artifact.versions) await store.readRange(entry, v.name, 0, v.size);
    }
    for (const file of await store.files(entry)) {
      seen.files++;
      await store.readRange(entry, file.path, 0, file.size);
    }
    for (const p of await store.problems(entry)) problemCodes.add(p.code);
    await store.resolve(entry.id.slice(0, 8));
  }

  // Refused reads: escapes, FIFOs, bad names.
  const escapes = (await store.resolve(I.escapes)).kind === 'found';
  expect(escapes).toBe(true);
  const escEntry = catalog.byKey.get(I.escapes)!.entry;
  const fifoEntry = catalog.byKey.get(I.fifo)!.entry;
  for (const [entry, rel] of [
    [escEntry, 'leak.md'],
    [escEntry, 'scratch/outdir/secret.txt'],
    [fifoEntry, 'scratch/pipe'],
    [fifoEntry, '../' + I.pair + '/task.md'],
  ] as const) {
    await expect(store.readRange(entry, rel, 0, 10)).rejects.toThrow();
  }

  // The batch forms, over every session at once.
  const entries = catalog.newestFirst.map((l) => l.entry);
  await store.summaries(catalog.newestFirst);
  const all = await store.recordsOf(entries);
  await store.artifactsOf(entries);
  await store.filesOf(entries);
  await store.problemsOf(entries);
  await store.stepOutputs(
    entries.flatMap((entry, i) => all[i].map((r) => ({ entry, index: r.index }))),
  );
  await store.fullFields(
    entries.flatMap((entry, i) =>
      all[i].flatMap((record: StepRecord) =>
        record.truncatedFields.map((field: TruncatedField) => ({ entry, record, field })),
      ),
    ),
  );
  await store.refresh();

  // The walk really went everywhere.
  expect(seen.sessions).toBe(29);
  expect(seen.fullFields).toBeGreaterThanOrEqual(10);
  expect(seen.outputs).toBeGreaterThanOrEqual(5);
  expect(seen.artifacts).toBeGreaterThanOrEqual(8);
  expect(seen.files).toBeGreaterThanOrEqual(12);
  expect([...problemCodes].sort()).toEqual([
    'DUPLICATE_STEP_INDEX',
    'MALFORMED_LINE',
    'MISSING_FULL_RECORD',
    'PARTIAL_LAST_LINE',
    'UNSAFE_PATH',
  ]);

  const after = snapshot(fx.dir);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [rel, node] of before) {
    expect([rel, after.get(rel)]).toEqual([rel, node]);
  }
});

it('runs the app, its index built and searched, over the read-only home and changes nothing on disk', async () => {
  const cacheDir = makeTempDir('brainql-readonly-cache-');
  const app = await startAppOver(fx.home, {
    BRAIN_ROOTS: fx.extraRoot,
    CACHE_DIR: cacheDir,
    REDACT: 'on',
  });
  try {
    const index = app.get<SqliteHomeIndex>(HOME_INDEX);
    await index.caughtUp();
    expect(index.file).toBe(path.join(cacheDir, 'index.sqlite'));
    const catalog = await app.get(BrainStore).catalog();
    const dirs = [...catalog.newestFirst, ...catalog.shadowed].map((l) => l.entry.realDir);
    expect(index.status(dirs)).toMatchObject({
      state: 'READY',
      sessionsIndexed: 31,
      sessionsTotal: 31,
    });
    for (const terms of [['user_request'], ['run_command'], ['task']]) {
      const page = index.search({
        terms,
        dirs,
        fields: null,
        order: 'NEWEST_FIRST',
        first: 20,
        after: null,
      });
      expect([terms, page.totalCount > 0]).toEqual([terms, true]);
    }
    index.secrets(dirs);
    const listing = await postGql(
      app.getHttpServer(),
      '{ sessions(first: 50) { totalCount edges { node { id userRequest stepCount } } } }',
    );
    expect(listing.errors).toBeUndefined();
    expect(listing.data.sessions.totalCount).toBe(29);
  } finally {
    await app.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }

  const after = snapshot(fx.dir);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [rel, node] of before) {
    expect([rel, after.get(rel)]).toEqual([rel, node]);
  }
});
