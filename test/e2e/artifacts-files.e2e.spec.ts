import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ESCAPES_FACTS,
  FIFO_FACTS,
  FIXTURE_IDS as I,
  FIXTURE_MTIME_MS,
  PAIR_FACTS,
} from '../fixtures/brain-home';
import { PAIR_PLAN, pairFilesBeside, PNG_BYTES } from '../fixtures/session-pair';
import { Data, useE2E } from './harness';

const MTIME = new Date(FIXTURE_MTIME_MS).toISOString();
const ARTIFACT = `name kind summary updatedAt size modifiedAt content metadata
  versions { name size modifiedAt content }`;
const REAL_FULL_ONLY = '9e779ff1-280b-47ed-945f-565cd870ce83';

describe('artifacts and files (e2e)', () => {
  const e = useE2E();
  const beside = pairFilesBeside();
  const text = (rel: string): string => beside[rel].toString();
  const sidecar = (rel: string): unknown => JSON.parse(text(rel));
  const session = async (id: string, fields: string): Promise<Data> =>
    (await e.data(`query($id: String!) { session(id: $id) { ${fields} } }`, { id })).session;

  const version = (name: string) => ({
    name,
    size: Buffer.byteLength(text(name)),
    modifiedAt: MTIME,
    content: text(name),
  });
  const artifact = (
    name: string,
    summary: string | null,
    updatedAt: string | null,
    meta: unknown,
  ) => ({
    name,
    kind: PAIR_FACTS.artifacts[name],
    summary,
    updatedAt,
    size: Buffer.byteLength(text(name)),
    modifiedAt: MTIME,
    content: text(name),
    metadata: meta,
    versions: [] as unknown[],
  });
  const pairArtifacts = () => [
    {
      ...artifact(
        'implementation_plan.md',
        'Split app.ts',
        '2026-05-28T09:00:07.123456789Z',
        sidecar('implementation_plan.md.metadata.json'),
      ),
      versions: PAIR_FACTS.planVersions.map(version),
    },
    artifact('notes.md', 'Loose notes', '2026-05-28T09:00:08Z', sidecar('notes.md.metadata.json')),
    artifact(
      'task.md',
      'Refactor checklist',
      '2026-01-07T19:08:15.216541610Z',
      sidecar('task.md.metadata.json'),
    ),
    artifact('task_old.md', null, null, null), // the sidecar is not valid JSON
    artifact('walkthrough.md', null, null, null), // no sidecar
    artifact('weird.md', 'Unknown type', '2026-05-28T09:00:09Z', sidecar('weird.md.metadata.json')),
  ];

  it('lists the pair artifacts by name with kind, sidecar, raw updatedAt, content and versions', async () => {
    const s = await session(I.pair, `artifacts { ${ARTIFACT} }`);
    expect(s.artifacts).toEqual(pairArtifacts());
    const plan = s.artifacts[0];
    expect(plan.content).toBe(PAIR_PLAN);
    expect(plan.versions.map((v: Data) => v.name)).toEqual([
      'implementation_plan.md.resolved.0',
      'implementation_plan.md.resolved.1',
      'implementation_plan.md.resolved.2',
      'implementation_plan.md.resolved.10',
      'implementation_plan.md.resolved',
    ]);
    expect(plan.versions[4].content).toBe(PAIR_PLAN);
    expect(plan.metadata).toEqual({
      artifactType: 'ARTIFACT_TYPE_IMPLEMENTATION_PLAN',
      summary: 'Split app.ts',
      updatedAt: '2026-05-28T09:00:07.123456789Z',
      version: '2',
      requestFeedback: true,
      userFacing: true,
    });
    // The unknown artifactType falls back to the name rule (OTHER for weird.md).
    expect(s.artifacts.map((a: Data) => [a.name, a.kind])).toEqual([
      ['implementation_plan.md', 'IMPLEMENTATION_PLAN'],
      ['notes.md', 'OTHER'],
      ['task.md', 'TASK'],
      ['task_old.md', 'OTHER'],
      ['walkthrough.md', 'WALKTHROUGH'],
      ['weird.md', 'OTHER'],
    ]);
  });

  it('finds one artifact by name, answers null when absent', async () => {
    const one = async (name: string) =>
      (
        await e.data(
          `query($id: String!, $n: String!) { session(id: $id) { artifact(name: $n) { ${ARTIFACT} } } }`,
          {
            id: I.pair,
            n: name,
          },
        )
      ).session.artifact;
    const want = pairArtifacts();
    expect(await one('implementation_plan.md')).toEqual(want[0]);
    expect(await one('task.md')).toEqual(want[2]);
    expect(await one('walkthrough.md')).toEqual(want[4]);
    for (const absent of [
      'missing.md',
      'TASK.md',
      'implementation_plan.md.resolved',
      'implementation_plan.md.resolved.1',
      'task.md.metadata.json',
      'media__1750000000001.png',
      '.git',
    ]) {
      expect([absent, await one(absent)]).toEqual([absent, null]);
    }
  });

  it('refuses malformed artifact names with BAD_USER_INPUT', async () => {
    for (const name of [
      '',
      '../task.md',
      'scratch/test_parse.py',
      '/etc/passwd',
      'a\\b.md',
      'x\u0000.md',
      '..',
      '.',
      'a'.repeat(300) + '.md',
    ]) {
      const body = await e.gql(
        'query($id: String!, $n: String!) { session(id: $id) { id artifact(name: $n) { name } } }',
        { id: I.pair, n: name },
      );
      expect([name, body.errors?.map((x) => x.extensions?.code)]).toEqual([
        name,
        ['BAD_USER_INPUT'],
      ]);
      expect(body.errors![0].path).toEqual(['session', 'artifact']);
      expect(body.data).toEqual({ session: { id: I.pair, artifact: null } });
    }
  });

  it('shows a real walkthrough without sidecar, and no artifact where there is none', async () => {
    const file = fs.readFileSync(path.join(e.dirOf(REAL_FULL_ONLY), 'walkthrough.md'));
    expect((await session(REAL_FULL_ONLY, `artifacts { ${ARTIFACT} }`)).artifacts).toEqual([
      {
        name: 'walkthrough.md',
        kind: 'WALKTHROUGH',
        summary: null,
        updatedAt: null,
        size: file.length,
        modifiedAt: MTIME,
        content: file.toString('utf8'),
        metadata: null,
        versions: [],
      },
    ]);
    expect(await session(I.freshOnly, 'artifacts { name } files { path }')).toEqual({
      artifacts: [],
      files: [],
    });
  });

  it('lists the pair files by path with kind, size and mtime, and by kind', async () => {
    const all = Object.entries(PAIR_FACTS.files).map(([p, kind]) => ({
      path: p,
      kind,
      size: Buffer.byteLength(beside[p]),
      modifiedAt: MTIME,
    }));
    const s = await session(
      I.pair,
      `files { path kind size modifiedAt }
       SCRATCH: files(kind: SCRATCH) { path } UPLOAD: files(kind: UPLOAD) { path }
       MEDIA: files(kind: MEDIA) { path } TASK_LOG: files(kind: TASK_LOG) { path }
       OTHER: files(kind: OTHER) { path }`,
    );
    expect(s.files).toEqual(all);
    expect(s.files.map((f: Data) => f.path)).toEqual([...Object.keys(PAIR_FACTS.files)].sort());
    for (const kind of ['SCRATCH', 'UPLOAD', 'MEDIA', 'TASK_LOG', 'OTHER']) {
      expect([kind, s[kind]]).toEqual([
        kind,
        all.filter((f) => f.kind === kind).map((f) => ({ path: f.path })),
      ]);
    }
    expect(s.UPLOAD).toEqual([{ path: '.user_uploaded/media_1750000000000.png' }]);
    expect(s.MEDIA).toEqual([
      { path: '.system_generated/click_feedback/click_feedback_1750000000002.png' },
      { path: 'media__1750000000001.png' },
    ]);
    expect(all.find((f) => f.kind === 'UPLOAD')!.size).toBe(PNG_BYTES.length);
  });

  it('lists files and artifacts of the escapes session without the links leading outside', async () => {
    const s = await session(I.escapes, 'artifacts { name content } files { path kind size }');
    expect(s.artifacts).toEqual([{ name: 'notes.md', content: '# Notes inside\n' }]);
    expect(s.artifacts.map((a: Data) => a.name)).toEqual(ESCAPES_FACTS.artifacts);
    expect(s.files).toEqual(
      Object.entries(ESCAPES_FACTS.files).map(([p, kind]) => ({
        path: p,
        kind,
        size: p === 'scratch/inside-link.txt' ? 15 : 5,
      })),
    );
    expect(JSON.stringify(s)).not.toContain('TOP SECRET');
    const leak = await e.data(
      'query($id: String!) { session(id: $id) { artifact(name: "leak.md") { content } } }',
      { id: I.escapes },
    );
    expect(leak.session.artifact).toBeNull();
  });

  it('does not list FIFOs', async () => {
    const s = await session(I.fifo, 'files { path kind }');
    expect(s.files).toEqual(
      Object.entries(FIFO_FACTS.files).map(([p, kind]) => ({ path: p, kind })),
    );
  });
});
