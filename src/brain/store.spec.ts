import { userInput, jsonl, compactLine, fullLine } from '../../test/fixtures/records';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as path from 'node:path';
import {
  buildFixtureHome,
  copyRealSessions,
  CTIME_SESSIONS,
  ESCAPES_FACTS,
  EXPECTED_SESSION_COUNTS,
  expectedNewestFirst,
  FIFO_FACTS,
  FIXTURE_FACTS,
  FIXTURE_IDS as I,
  FIXTURE_MTIME_MS,
  type FixtureHome,
  makeTempDir,
  PAIR_FACTS,
  PROBLEM_FACTS,
  REAL_FACTS,
  REQUESTS,
  TWO_ROOTS_CLI_MTIME_MS,
} from '../../test/fixtures/brain-home';
import { pairFilesBeside, PAIR_PLAN, PAIR_STEP4_OUTPUT } from '../../test/fixtures/session-pair';
import { SECRET } from '../../test/fixtures/session-misc';
import { COMPACT_FILE, entryOf, fixtureStore, listedOf, measure } from '../../test/store-helpers';
import { FileAccessError, decodeUtf8 } from './files';
import { BrainStore } from './store';

/**
 * The BrainStore facade over the fixture home (+ the real sessions + BRAIN_ROOTS=extraRoot):
 * discovery, order, id resolution, step outputs, artifacts, files and containment.
 */

let fx: FixtureHome;
let realIds: string[];
let store: BrainStore;

beforeAll(async () => {
  fx = buildFixtureHome(makeTempDir('brainql-store-'));
  realIds = copyRealSessions(fx.home);
  store = fixtureStore(fx);
  await store.refresh();
});
afterAll(() => fs.rmSync(fx.dir, { recursive: true, force: true }));

const REAL_NEWEST_FIRST = Object.keys(REAL_FACTS).sort(
  (a, b) => Date.parse(REAL_FACTS[b].createdAt) - Date.parse(REAL_FACTS[a].createdAt),
);
/**
 * The fixtures and real sessions newest first: the two undated sessions sit at their oldest
 * file time (FIXTURE_MTIME_MS, ties by id), after the real sessions created later.
 */
function newestFirst(extraRoot: boolean): string[] {
  const later = (id: string) => Date.parse(REAL_FACTS[id].createdAt) > FIXTURE_MTIME_MS;
  return [
    ...REAL_NEWEST_FIRST.filter(later),
    ...[...CTIME_SESSIONS].sort(),
    ...REAL_NEWEST_FIRST.filter((id) => !later(id)),
    ...expectedNewestFirst({ extraRoot }),
  ];
}

describe('discovery', () => {
  it('lists every root with its flavor, environment and session count, sorted by path', async () => {
    const catalog = await store.catalog();
    const rootPath = (flavor: string): string => path.join(fx.home, flavor, 'brain');
    expect(
      catalog.roots.map((r) => ({
        path: r.root.path,
        realPath: r.root.realPath,
        flavor: r.root.flavor,
        environment: r.root.environment,
        sessionCount: r.sessionCount,
      })),
    ).toEqual([
      {
        path: fx.extraRoot,
        realPath: fs.realpathSync(fx.extraRoot),
        flavor: 'jetski',
        environment: 'OTHER',
        sessionCount: EXPECTED_SESSION_COUNTS.jetski,
      },
      {
        path: rootPath('antigravity-acp'),
        realPath: fs.realpathSync(rootPath('antigravity-acp')),
        flavor: 'antigravity-acp',
        environment: 'ACP',
        sessionCount: EXPECTED_SESSION_COUNTS['antigravity-acp'],
      },
      {
        path: rootPath('antigravity-cli'),
        realPath: fs.realpathSync(rootPath('antigravity-cli')),
        flavor: 'antigravity-cli',
        environment: 'CLI',
        sessionCount: EXPECTED_SESSION_COUNTS['antigravity-cli'],
      },
      {
        path: rootPath('antigravity-ide'),
        realPath: fs.realpathSync(rootPath('antigravity-ide')),
        flavor: 'antigravity-ide',
        environment: 'IDE',
        sessionCount: EXPECTED_SESSION_COUNTS['antigravity-ide'] + realIds.length,
      },
    ]);
  });

  it('orders sessions newest first, the undated ones at their oldest file time', async () => {
    const ids = (await store.catalog()).newestFirst.map((s) => s.entry.id);
    expect(ids).toEqual(newestFirst(true));
  });

  it('gives every session the createdAt of the facts (first valid created_at, else its oldest file time)', async () => {
    const catalog = await store.catalog();
    for (const s of catalog.newestFirst) {
      const id = s.entry.id;
      const want =
        REAL_FACTS[id]?.createdAt ??
        FIXTURE_FACTS[id].createdAt ??
        new Date(FIXTURE_MTIME_MS).toISOString();
      expect([id, s.createdAt.toISOString()]).toEqual([id, want]);
    }
    // Every listed session has facts, and every fact (but bigLine) is listed.
    const listed = new Set(catalog.newestFirst.map((s) => s.entry.id));
    const expected = Object.keys(FIXTURE_FACTS).filter((id) => id !== I.bigLine);
    expect([...listed].sort()).toEqual([...expected, ...realIds].sort());
  });

  it('lists the flavor of the root holding each listed copy', async () => {
    for (const [id, facts] of Object.entries(FIXTURE_FACTS)) {
      if (id === I.bigLine) continue;
      const entry = await entryOf(store, id);
      expect([id, entry.root.flavor]).toEqual([id, facts.flavor]);
    }
  });

  it('resolves a duplicate id by the latest mtime, then by the root path sorting first', async () => {
    const two = await entryOf(store, I.twoRoots);
    expect(two.dir).toBe(path.join(fx.roots.cli, I.twoRoots));
    expect(two.mtimeMs).toBe(TWO_ROOTS_CLI_MTIME_MS);
    expect((await store.summary(await listedOf(store, I.twoRoots))).userRequest).toBe(
      REQUESTS.twoRoots,
    );
    const tie = await entryOf(store, I.tieRoots);
    expect(tie.dir).toBe(path.join(fx.roots.acp, I.tieRoots));
    expect(tie.mtimeMs).toBe(FIXTURE_MTIME_MS);
    expect((await store.summary(await listedOf(store, I.tieRoots))).userRequest).toBe(
      REQUESTS.tieRoots,
    );
  });

  it('skips non-session entries and a session directory linked from outside its root', async () => {
    const byKey = (await store.catalog()).byKey;
    for (const name of [
      I.noLogs,
      I.emptyLogs,
      I.escapedSession,
      I.bigLine,
      'tempmediaStorage',
      'thread_summaries.json',
      'notes.txt',
      '.store',
      'linked-target',
    ]) {
      expect([name, byKey.has(name.toLowerCase())]).toEqual([name, false]);
    }
    const linked = await entryOf(store, I.linkInside);
    expect(linked.dir).toBe(path.join(fx.roots.ide, I.linkInside));
    expect(linked.realDir).toBe(fs.realpathSync(path.join(fx.roots.ide, '.store/linked-target')));
    expect(await store.resolve(I.escapedSession)).toEqual({ kind: 'none' });
  });

  it('lists jetskiRun only when the extra root is configured', async () => {
    const plain = fixtureStore(fx, false);
    const catalog = await plain.refresh();
    expect(catalog.roots.map((r) => r.root.flavor)).toEqual([
      'antigravity-acp',
      'antigravity-cli',
      'antigravity-ide',
    ]);
    expect(catalog.newestFirst.map((s) => s.entry.id)).toEqual(newestFirst(false));
  });

  it('answers refreshes made during a scan with one more scan, which they share', async () => {
    const fresh = fixtureStore(fx);
    expect(fresh.ready).toBe(false);
    const a = fresh.refresh();
    const b = fresh.refresh();
    const c = fresh.refresh(true);
    expect(b).toBe(c);
    expect(b).not.toBe(a);
    const [first, second] = [await a, await b];
    expect(second).not.toBe(first);
    expect(await c).toBe(second);
    expect(fresh.ready).toBe(true);
  });
});

describe('resolve', () => {
  const found = (id: string) => ({ kind: 'found', id });
  const shape = async (q: string) => {
    const r = await store.resolve(q);
    return r.kind === 'found' ? found(r.session.entry.id) : r;
  };

  it('finds the exact id, 8 characters, 4 characters', async () => {
    expect(await shape(I.pair)).toEqual(found(I.pair));
    expect(await shape('cafe0001')).toEqual(found(I.prefixA));
    expect(await shape('cafe0002')).toEqual(found(I.prefixB));
    expect(await shape('ba5e')).toEqual(found(I.pair));
    expect(await shape('7e75')).toEqual(found(I.jetskiRun));
    expect(await shape(realIds[0].slice(0, 4))).toEqual(found(realIds[0]));
  });

  it('reports ambiguous prefixes with their candidates sorted', async () => {
    expect(await shape('cafe')).toEqual({
      kind: 'ambiguous',
      candidates: [I.prefixA, I.prefixB],
    });
    expect(await shape('CAFE000')).toEqual({
      kind: 'ambiguous',
      candidates: [I.prefixA, I.prefixB],
    });
    expect(await shape('beef0000')).toEqual({
      kind: 'ambiguous',
      candidates: [I.prefixExact, I.prefixLonger],
    });
  });

  it('lets an exact id win over longer ids it is a prefix of', async () => {
    expect(await shape(I.prefixExact)).toEqual(found(I.prefixExact));
    expect(await shape(I.prefixExact.toUpperCase())).toEqual(found(I.prefixExact));
    expect(await shape(I.prefixLonger)).toEqual(found(I.prefixLonger));
    expect(await shape(I.prefixExact + '-')).toEqual(found(I.prefixLonger));
  });

  it('refuses fewer than 4 characters and returns none for unknown ids', async () => {
    for (const q of ['', 'b', 'ba', 'ba5', 'CAF'])
      expect(await shape(q)).toEqual({ kind: 'too-short' });
    expect(await shape('ffff')).toEqual({ kind: 'none' });
    expect(await shape('ba5e0000-0000-4000-8000-000000000001x')).toEqual({ kind: 'none' });
    expect(await shape(I.noLogs)).toEqual({ kind: 'none' });
  });

  it('compares case-insensitively in both directions', async () => {
    expect(await shape(I.pair.toUpperCase())).toEqual(found(I.pair));
    expect(await shape('BA5E0000')).toEqual(found(I.pair));
    expect(await shape(I.upperId.toLowerCase())).toEqual(found(I.upperId));
    expect(await shape('face')).toEqual(found(I.upperId));
    expect(await shape('FaCe0000')).toEqual(found(I.upperId));
  });
});

describe('resolve with a visibility predicate', () => {
  const shape = async (q: string, hidden: string[]) => {
    const r = await store.resolve(q, (s) => !hidden.includes(s.entry.id));
    return r.kind === 'found' ? { kind: 'found', id: r.session.entry.id } : r;
  };

  it('neither matches a hidden session nor lets it make a prefix ambiguous', async () => {
    expect(await shape(I.pair, [I.pair])).toEqual({ kind: 'none' });
    expect(await shape('ba5e', [I.pair])).toEqual({ kind: 'none' });
    expect(await shape('cafe', [I.prefixA])).toEqual({ kind: 'found', id: I.prefixB });
    expect(await shape('beef0000', [I.prefixLonger])).toEqual({
      kind: 'found',
      id: I.prefixExact,
    });
    expect(await shape('ba5', [I.pair])).toEqual({ kind: 'too-short' });
    expect(await shape(I.pair, [I.prefixA])).toEqual({ kind: 'found', id: I.pair });
  });
});

describe('step outputs', () => {
  const text = async (id: string, rel: string, offset: number, length: number) =>
    decodeUtf8(await store.readRange(await entryOf(store, id), rel, offset, length));

  it('uses output.txt, else content.md, with the file size', async () => {
    const entry = await entryOf(store, I.pair);
    const files = pairFilesBeside();
    const got: Record<number, unknown> = {};
    for (const step of PAIR_FACTS.stepIndices) {
      const { output, problems } = await store.stepOutput(entry, step);
      expect(problems).toEqual([]);
      if (output) got[step] = output;
    }
    const info = (rel: string) => ({
      file: path.basename(rel),
      relPath: rel,
      size: Buffer.byteLength(files[rel]),
    });
    expect(got).toEqual({
      4: info(PAIR_FACTS.outputs[4].file),
      9: info(PAIR_FACTS.outputs[9].file),
      11: info(PAIR_FACTS.outputs[11].file),
    });
    expect(got[4]).toEqual({
      file: 'output.txt',
      relPath: '.system_generated/steps/4/output.txt',
      size: Buffer.byteLength(PAIR_STEP4_OUTPUT),
    });
    expect((await store.stepOutput(entry, 5)).output).toBeNull();
    expect((await store.stepOutput(entry, -1)).output).toBeNull();
    expect((await store.stepOutput(entry, 1.5)).output).toBeNull();
  });

  it('reads whole outputs and byte ranges', async () => {
    const rel4 = PAIR_FACTS.outputs[4].file;
    expect(await text(I.pair, rel4, 0, 1 << 20)).toBe(PAIR_STEP4_OUTPUT);
    expect(await text(I.pair, PAIR_FACTS.outputs[9].file, 0, 1 << 20)).toBe(
      '# Example docs\n\nA fetched page.\n',
    );
    expect(await text(I.pair, PAIR_FACTS.outputs[11].file, 0, 1 << 20)).toBe('build started\n');
    expect(await text(I.pair, PAIR_FACTS.outputs[11].file, 6, 7)).toBe('started');
    expect(await text(I.pair, PAIR_FACTS.outputs[11].file, 14, 10)).toBe('');
    expect(await text(I.pair, PAIR_FACTS.outputs[11].file, 1000, 10)).toBe('');
    expect(await text(I.pair, PAIR_FACTS.outputs[11].file, 0, 0)).toBe('');
  });

  it('decodes a range cutting a multi-byte character as U+FFFD', async () => {
    const rel4 = PAIR_FACTS.outputs[4].file;
    const bytes = Buffer.from(PAIR_STEP4_OUTPUT);
    const rocket = bytes.indexOf(Buffer.from('\u{1F680}'));
    expect(rocket).toBeGreaterThan(0);
    // Starts on the rocket's 2nd byte: its 3 remaining bytes are each a U+FFFD.
    expect(await text(I.pair, rel4, rocket + 1, 12)).toBe('\uFFFD\uFFFD\uFFFD launched');
    // Ends after the rocket's 2nd byte.
    expect(await text(I.pair, rel4, rocket - 4, 6)).toBe(
      bytes.subarray(rocket - 4, rocket).toString('latin1') + '\uFFFD',
    );
    const cafe = bytes.indexOf(Buffer.from('café'));
    expect(await text(I.pair, rel4, cafe, 4)).toBe('caf\uFFFD');
    expect(await text(I.pair, rel4, cafe + 4, 3)).toBe('\uFFFD a');
    // Invalid bytes in the file itself.
    expect(await text(I.invalidUtf8, '.system_generated/steps/1/output.txt', 0, 100)).toBe(
      'out: \uFFFD\uFFFD\n',
    );
  });

  it('rejects bad ranges and paths', async () => {
    const entry = await entryOf(store, I.pair);
    const rel = PAIR_FACTS.outputs[11].file;
    await expect(store.readRange(entry, rel, -1, 10)).rejects.toThrow(RangeError);
    await expect(store.readRange(entry, rel, 0, -1)).rejects.toThrow(RangeError);
    await expect(store.readRange(entry, rel, 0.5, 1)).rejects.toThrow(RangeError);
    await expect(store.readRange(entry, 'nope.txt', 0, 1)).rejects.toMatchObject({
      refusal: 'ABSENT',
    });
    await expect(store.readRange(entry, 'scratch', 0, 1)).rejects.toMatchObject({
      refusal: 'NOT_REGULAR',
    });
  });
});

describe('artifacts', () => {
  const sidecar = (name: string): Record<string, unknown> =>
    JSON.parse(String(pairFilesBeside()[`${name}.metadata.json`]));

  it('lists root-level .md files with sidecars, kinds and versions, sorted by name', async () => {
    const entry = await entryOf(store, I.pair);
    const files = pairFilesBeside();
    const version = (name: string) => ({
      name,
      size: Buffer.byteLength(files[name]),
      modifiedAt: new Date(FIXTURE_MTIME_MS),
    });
    const art = (
      name: string,
      kind: string,
      meta: Record<string, unknown> | null,
      versions: ReturnType<typeof version>[] = [],
    ) => ({
      name,
      kind,
      summary: (meta?.summary as string | undefined) ?? null,
      updatedAt: (meta?.updatedAt as string | undefined) ?? null,
      size: Buffer.byteLength(files[name]),
      modifiedAt: new Date(FIXTURE_MTIME_MS),
      metadata: meta,
      versions,
    });
    const artifacts = await store.artifacts(entry);
    expect(artifacts).toEqual([
      art(
        'implementation_plan.md',
        'IMPLEMENTATION_PLAN',
        sidecar('implementation_plan.md'),
        PAIR_FACTS.planVersions.map(version),
      ),
      art('notes.md', 'OTHER', sidecar('notes.md')),
      art('task.md', 'TASK', sidecar('task.md')),
      art('task_old.md', 'OTHER', null),
      art('walkthrough.md', 'WALKTHROUGH', null),
      art('weird.md', 'OTHER', sidecar('weird.md')),
    ]);
    expect(Object.fromEntries(artifacts.map((a) => [a.name, a.kind]))).toEqual(
      PAIR_FACTS.artifacts,
    );
    // The raw nanosecond string survives (a Date would drop the digits).
    expect(artifacts[2].updatedAt).toBe('2026-01-07T19:08:15.216541610Z');
    expect(artifacts[0].updatedAt).toBe('2026-05-28T09:00:07.123456789Z');
    expect(artifacts[0].metadata).toEqual({
      artifactType: 'ARTIFACT_TYPE_IMPLEMENTATION_PLAN',
      summary: 'Split app.ts',
      updatedAt: '2026-05-28T09:00:07.123456789Z',
      version: '2',
      requestFeedback: true,
      userFacing: true,
    });
  });

  it('reads artifact and version contents', async () => {
    const entry = await entryOf(store, I.pair);
    const read = async (name: string) => decodeUtf8(await store.readRange(entry, name, 0, 1 << 20));
    expect(await read('implementation_plan.md')).toBe(PAIR_PLAN);
    expect(await read('task.md')).toBe('# Task\n\n- [x] refactor\n- [ ] docs\n');
    expect(await Promise.all(PAIR_FACTS.planVersions.map((v) => read(v)))).toEqual([
      '# Plan v0\n',
      '# Plan v1\n',
      '# Plan v2\n',
      '# Plan v10\n',
      PAIR_PLAN,
    ]);
  });

  it('finds one artifact by exact name, and nothing for other names', async () => {
    const entry = await entryOf(store, I.pair);
    const all = await store.artifacts(entry);
    expect(await store.artifact(entry, 'task.md')).toEqual(all.find((a) => a.name === 'task.md'));
    expect(await store.artifact(entry, 'implementation_plan.md')).toEqual(all[0]);
    for (const name of [
      'missing.md',
      'TASK.md',
      'task.md.resolved',
      'task.md.metadata.json',
      'media__1750000000001.png',
      'scratch/test_parse.py',
      '../task.md',
      '',
    ]) {
      expect([name, await store.artifact(entry, name)]).toEqual([name, null]);
    }
  });

  it('reads a real walkthrough without a sidecar', async () => {
    const id = '9e779ff1-280b-47ed-945f-565cd870ce83';
    const entry = await entryOf(store, id);
    const [a] = await store.artifacts(entry);
    const bytes = fs.readFileSync(path.join(entry.realDir, 'walkthrough.md'));
    expect(await store.artifacts(entry)).toEqual([
      {
        name: 'walkthrough.md',
        kind: 'WALKTHROUGH',
        summary: null,
        updatedAt: null,
        size: bytes.length,
        modifiedAt: new Date(FIXTURE_MTIME_MS),
        metadata: null,
        versions: [],
      },
    ]);
    expect((await store.readRange(entry, a.name, 0, bytes.length)).equals(bytes)).toBe(true);
  });
});

describe('files', () => {
  it('lists other files by kind, sorted by path, with sizes and mtimes', async () => {
    const entry = await entryOf(store, I.pair);
    const contents = pairFilesBeside();
    const files = await store.files(entry);
    expect(files).toEqual(
      Object.entries(PAIR_FACTS.files).map(([p, kind]) => ({
        path: p,
        kind,
        size: Buffer.byteLength(contents[p]),
        modifiedAt: new Date(FIXTURE_MTIME_MS),
      })),
    );
    expect((await store.files(entry, 'MEDIA')).map((f) => f.path)).toEqual([
      '.system_generated/click_feedback/click_feedback_1750000000002.png',
      'media__1750000000001.png',
    ]);
    expect((await store.files(entry, 'SCRATCH')).map((f) => f.path)).toEqual([
      'scratch/sub/data.csv',
      'scratch/test_parse.py',
    ]);
    expect((await store.files(entry, 'UPLOAD')).map((f) => f.path)).toEqual([
      '.user_uploaded/media_1750000000000.png',
    ]);
    expect((await store.files(entry, 'TASK_LOG')).map((f) => f.path)).toEqual([
      '.system_generated/tasks/task-1.log',
    ]);
    expect((await store.files(entry, 'OTHER')).map((f) => f.path)).toEqual([
      '.system_generated/messages/5d1c0000-0000-4000-8000-0000000000aa.json',
      '.system_generated/messages/read.json',
      'browser/page.html',
    ]);
    const png = await store.readRange(entry, '.user_uploaded/media_1750000000000.png', 0, 1000);
    expect(png.equals(contents['.user_uploaded/media_1750000000000.png'] as Buffer)).toBe(true);
  });

  it('lists nothing for a session that holds only its transcript', async () => {
    expect(await store.files(await entryOf(store, I.freshOnly))).toEqual([]);
    expect(await store.artifacts(await entryOf(store, I.freshOnly))).toEqual([]);
  });
});

describe('containment', () => {
  it('serves nothing through an escaping symlink and reports each one as UNSAFE_PATH', async () => {
    const entry = await entryOf(store, I.escapes);
    expect((await store.artifacts(entry)).map((a) => a.name)).toEqual(ESCAPES_FACTS.artifacts);
    expect(await store.artifact(entry, 'leak.md')).toBeNull();
    expect(Object.fromEntries((await store.files(entry)).map((f) => [f.path, f.kind]))).toEqual(
      ESCAPES_FACTS.files,
    );
    const step3 = await store.stepOutput(entry, 3);
    expect(step3.output).toEqual({
      file: 'content.md',
      relPath: ESCAPES_FACTS.step3Output.file,
      size: Buffer.byteLength(ESCAPES_FACTS.step3Output.text),
    });
    expect(step3.problems.map((p) => [p.code, p.file])).toEqual([
      ['UNSAFE_PATH', '.system_generated/steps/3/output.txt'],
    ]);
    expect(decodeUtf8(await store.readRange(entry, ESCAPES_FACTS.step3Output.file, 0, 100))).toBe(
      ESCAPES_FACTS.step3Output.text,
    );
    for (const rel of [
      'leak.md',
      'scratch/leak.txt',
      '.system_generated/steps/3/output.txt',
      'scratch/outdir/secret.txt',
    ]) {
      const err = await store.readRange(entry, rel, 0, 100).catch((e: unknown) => e);
      expect([rel, err instanceof FileAccessError, (err as FileAccessError).refusal]).toEqual([
        rel,
        true,
        'UNSAFE_PATH',
      ]);
    }
    // The link that stays inside is followed.
    expect(decodeUtf8(await store.readRange(entry, 'scratch/inside-link.txt', 0, 100))).toBe(
      '# Notes inside\n',
    );
    const problems = await store.problems(entry);
    expect(problems.map((p) => [p.code, p.file, p.line])).toEqual(
      PROBLEM_FACTS.escapes.UNSAFE_PATH.map((f) => ['UNSAFE_PATH', f, null]),
    );
    expect(JSON.stringify(problems)).not.toContain(SECRET);
  });

  it('reports escapes whatever was read before (a fresh store asked for problems first)', async () => {
    const fresh = fixtureStore(fx);
    const problems = await fresh.problems(await entryOf(fresh, I.escapes));
    expect(problems.map((p) => p.file)).toEqual(PROBLEM_FACTS.escapes.UNSAFE_PATH);
  });

  it('does not hang on FIFOs and does not list them', async () => {
    const entry = await entryOf(store, I.fifo);
    expect(await store.stepOutput(entry, 1)).toEqual({ output: null, problems: [] });
    expect(Object.fromEntries((await store.files(entry)).map((f) => [f.path, f.kind]))).toEqual(
      FIFO_FACTS.files,
    );
    for (const rel of FIFO_FACTS.fifos) {
      await expect(store.readRange(entry, rel, 0, 10)).rejects.toMatchObject({
        refusal: 'NOT_REGULAR',
      });
    }
    expect(await store.problems(entry)).toEqual([]);
  }, 5000);

  it('refuses malformed names before touching the disk', async () => {
    const entry = await entryOf(store, I.pair);
    // The gate's synchronous calls first: the last check below needs `openSync`.
    const spies = [
      ...(['openSync', 'lstatSync', 'statSync', 'readlinkSync'] as const).map((m) =>
        jest.spyOn(nodeFs, m),
      ),
      ...(['realpath', 'stat', 'lstat', 'open', 'readdir'] as const).map((m) =>
        jest.spyOn(fs.promises, m),
      ),
    ];
    try {
      for (const rel of [
        '../escapes/notes.md',
        'scratch/../../x',
        '/etc/passwd',
        'a\0b',
        'scratch\\test_parse.py',
        '',
        './task.md',
        'scratch//sub/data.csv',
      ]) {
        const err = await store.readRange(entry, rel, 0, 10).catch((e: unknown) => e);
        expect([rel, (err as FileAccessError).refusal]).toEqual([rel, 'BAD_NAME']);
      }
      for (const name of ['../task.md', 'sub/task.md', '/task.md', 'task\0.md']) {
        expect(await store.artifact(entry, name)).toBeNull();
      }
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      // The spies do see the store's calls: a good name reaches the disk.
      await store.readRange(entry, 'task.md', 0, 1);
      expect(spies[0]).toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('does not serve a transcript or a chunk folder that leads outside the session', async () => {
    const dir = makeTempDir('brainql-esc-');
    try {
      const root = path.join(dir, 'antigravity-ide/brain');
      const outsideLog = path.join(dir, 'outside.jsonl');
      fs.writeFileSync(
        outsideLog,
        '{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","content":"' +
          SECRET +
          '"}\n',
      );
      const a = path.join(root, 'aaaa0000-link-transcript');
      fs.mkdirSync(path.join(a, '.system_generated/logs'), { recursive: true });
      fs.symlinkSync(outsideLog, path.join(a, COMPACT_FILE));
      const b = path.join(root, 'bbbb0000-link-chunks');
      fs.mkdirSync(path.join(dir, 'chunks-out'));
      fs.copyFileSync(outsideLog, path.join(dir, 'chunks-out/00000000.jsonl'));
      fs.mkdirSync(path.join(b, '.system_generated/logs/chunks'), { recursive: true });
      fs.symlinkSync(
        path.join(dir, 'chunks-out'),
        path.join(b, '.system_generated/logs/chunks/transcript'),
      );
      const s = new BrainStore({
        geminiHome: dir,
        brainRoots: [],
        rescanMs: 3_600_000,
      });
      await s.refresh();
      const ea = await entryOf(s, 'aaaa0000-link-transcript');
      expect(await s.records(ea)).toEqual([]);
      expect((await s.problems(ea)).map((p) => [p.code, p.file])).toEqual([
        ['UNSAFE_PATH', COMPACT_FILE],
      ]);
      const sa = await s.summary(await listedOf(s, 'aaaa0000-link-transcript'));
      expect([sa.userRequest, sa.stepCount]).toEqual([null, 0]);
      const eb = await entryOf(s, 'bbbb0000-link-chunks');
      expect(await s.records(eb)).toEqual([]);
      const pb = await s.problems(eb);
      expect(pb.map((p) => [p.code, p.file])).toEqual([
        ['UNSAFE_PATH', '.system_generated/logs/chunks/transcript'],
      ]);
      expect(JSON.stringify(pb)).not.toContain(SECRET);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('problems of the fixture sessions', () => {
  it('reports nothing for the clean sessions', async () => {
    for (const key of [
      'pair',
      'chunksOnly',
      'noNewlineValid',
      'noUserInput',
      'empty',
      'freshOnly',
      'fullOnly',
      'noCreatedAt',
      'noValidCreatedAt',
      'linkInside',
      'acpRun',
    ] as const) {
      expect([key, await store.problems(await entryOf(store, I[key]))]).toEqual([key, []]);
    }
    for (const id of realIds) {
      expect([id, await store.problems(await entryOf(store, id))]).toEqual([id, []]);
    }
  });

  it('reports the broken lines with their line numbers', async () => {
    const codes = async (id: string) =>
      (await store.problems(await entryOf(store, id))).map((p) => [p.code, p.file, p.line]);
    const FULL = '.system_generated/logs/transcript_full.jsonl';
    expect(await codes(I.partialLast)).toEqual([['PARTIAL_LAST_LINE', COMPACT_FILE, 9]]);
    expect(await codes(I.invalidUtf8)).toEqual([['MALFORMED_LINE', COMPACT_FILE, 4]]);
    expect(await codes(I.malformed)).toEqual([
      ['MALFORMED_LINE', COMPACT_FILE, 3],
      ['MALFORMED_LINE', COMPACT_FILE, 6],
      ['MALFORMED_LINE', COMPACT_FILE, 7],
      ['MALFORMED_LINE', COMPACT_FILE, 8],
      ['MISSING_FULL_RECORD', COMPACT_FILE, 10],
      ['MALFORMED_LINE', COMPACT_FILE, 11],
      ['MALFORMED_LINE', FULL, 4],
    ]);
    expect(await codes(I.duplicates)).toEqual([['DUPLICATE_STEP_INDEX', COMPACT_FILE, 4]]);
  });

  it('keeps a problem list complete however it was reached', async () => {
    const fresh = fixtureStore(fx);
    const entry = await entryOf(fresh, I.malformed);
    const cold = await fresh.problems(entry);
    await fresh.records(entry);
    await fresh.summary(await listedOf(fresh, I.malformed));
    expect(await fresh.problems(entry)).toEqual(cold);
    expect(cold).toHaveLength(7);
  });
});

describe('laziness of the facade', () => {
  it('lists a page of sessions without opening any full transcript', async () => {
    const fresh = fixtureStore(fx);
    const m = await measure(() => fresh.refresh());
    expect(m.opens.filter((o) => o.includes('transcript_full'))).toEqual(
      // only the sessions whose compact view IS the full file
      [
        `.system_generated/logs/transcript_full.jsonl`,
        `.system_generated/logs/transcript_full.jsonl`,
      ],
    );
  });
});

describe('summary freshness', () => {
  it('re-reads a truncated USER_INPUT once its full twin arrives after the compact line', async () => {
    const root = path.join(makeTempDir('brainql-twin-late-'), 'antigravity-ide', 'brain');
    const logs = path.join(root, 'aaaa1111-0000-4000-8000-000000000001', '.system_generated/logs');
    fs.mkdirSync(logs, { recursive: true });
    const request = `Please ${'refactor '.repeat(600)}now`;
    const rec = userInput(0, '2026-06-01T10:00:00Z', {
      request,
      localTime: '2026-06-01T12:00:00+02:00',
    });
    fs.writeFileSync(path.join(logs, 'transcript.jsonl'), jsonl([compactLine(rec)]));
    fs.writeFileSync(path.join(logs, 'transcript_full.jsonl'), ''); // the writer is behind
    const s = new BrainStore({ geminiHome: null, brainRoots: [root], rescanMs: 3_600_000 });
    await s.refresh();
    const listed = (await s.catalog()).newestFirst[0];
    const before = (await s.summary(listed)).userRequest;
    expect(before).toContain('<truncated ');
    fs.appendFileSync(path.join(logs, 'transcript_full.jsonl'), jsonl([fullLine(rec)]));
    expect((await s.summary(listed)).userRequest).toBe(request);
  });
});
