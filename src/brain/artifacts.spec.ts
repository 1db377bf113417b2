import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { artifactKind, getArtifact, listArtifacts, MAX_SIDECAR_BYTES } from './artifacts';

let tmp: string;
let dir: string;

function write(rel: string, text: string | Buffer = 'x'): void {
  const full = path.join(dir, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}
function link(target: string, rel: string): void {
  fs.symlinkSync(target, path.join(dir, rel));
}
const T = new Date('2026-01-07T19:08:15.000Z');

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-artifacts-')));
  dir = path.join(tmp, 'session');
  fs.mkdirSync(dir);
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'outside/secret.md'), 'secret');

  write('task.md', '# Task\n');
  write(
    'task.md.metadata.json',
    JSON.stringify({
      artifactType: 'ARTIFACT_TYPE_IMPLEMENTATION_PLAN',
      summary: 'The plan',
      updatedAt: '2026-01-07T19:08:15.216541610Z',
      version: '2',
    }),
  );
  write('walkthrough.md', 'walk');
  write('walkthrough.md.metadata.json', '{"artifactType":"ARTIFACT_TYPE_FUTURE","summary":7}');
  write('notes.md', 'n');
  for (const v of ['resolved', 'resolved.10', 'resolved.2', 'resolved.0']) {
    write(`notes.md.${v}`, v);
  }
  link(path.join(tmp, 'outside/secret.md'), 'notes.md.resolved.5');
  write('bad.md', 'b');
  write('bad.md.metadata.json', '{"artifactType": "ARTIFACT_TYPE_TASK",');
  write('arr.md', 'a');
  write('arr.md.metadata.json', '["ARTIFACT_TYPE_TASK"]');
  write('big.md', 'g');
  write('big.md.metadata.json', `{"summary":"${'s'.repeat(MAX_SIDECAR_BYTES)}"}`);
  write('other.md', 'o');
  link(path.join(tmp, 'outside/secret.md'), 'other.md.metadata.json');
  link('notes.md', 'implementation_plan.md');
  link(path.join(tmp, 'outside/secret.md'), 'escape.md');
  fs.mkdirSync(path.join(dir, 'dir.md'));
  write('readme.txt');
  write('scratch/inner.md');
  for (const f of fs.readdirSync(dir)) fs.lutimesSync(path.join(dir, f), T, T);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const unsafe = (file: string) => ({
  code: 'UNSAFE_PATH',
  message: `${file} resolves outside the session directory`,
  file,
  line: null,
});

describe('artifactKind', () => {
  it('prefers a known sidecar type, then the name, then OTHER', () => {
    expect(artifactKind('x.md', { artifactType: 'ARTIFACT_TYPE_WALKTHROUGH' })).toBe('WALKTHROUGH');
    expect(artifactKind('task.md', { artifactType: 'ARTIFACT_TYPE_OTHER' })).toBe('OTHER');
    expect(artifactKind('task.md', { artifactType: 'toString' })).toBe('TASK');
    expect(artifactKind('implementation_plan.md', null)).toBe('IMPLEMENTATION_PLAN');
    expect(artifactKind('constructor', null)).toBe('OTHER');
    expect(artifactKind('Task.md', null)).toBe('OTHER');
  });
});

describe('listArtifacts', () => {
  it('lists root-level .md files with sidecars and versions, sorted by name', async () => {
    const { artifacts, problems } = await listArtifacts(dir);

    expect(artifacts.map((a) => [a.name, a.kind, a.summary, a.updatedAt, a.size])).toEqual([
      ['arr.md', 'OTHER', null, null, 1],
      ['bad.md', 'OTHER', null, null, 1],
      ['big.md', 'OTHER', null, null, 1],
      ['implementation_plan.md', 'IMPLEMENTATION_PLAN', null, null, 1],
      ['notes.md', 'OTHER', null, null, 1],
      ['other.md', 'OTHER', null, null, 1],
      ['task.md', 'IMPLEMENTATION_PLAN', 'The plan', '2026-01-07T19:08:15.216541610Z', 7],
      ['walkthrough.md', 'WALKTHROUGH', null, null, 4],
    ]);
    const task = artifacts[6];
    expect(task.modifiedAt).toEqual(T);
    expect(task.metadata).toEqual({
      artifactType: 'ARTIFACT_TYPE_IMPLEMENTATION_PLAN',
      summary: 'The plan',
      updatedAt: '2026-01-07T19:08:15.216541610Z',
      version: '2',
    });
    expect(task.versions).toEqual([]);
    expect(artifacts[7].metadata).toEqual({ artifactType: 'ARTIFACT_TYPE_FUTURE', summary: 7 });
    expect(artifacts[0].metadata).toBeNull();
    expect(artifacts[1].metadata).toBeNull();
    expect(artifacts[2].metadata).toBeNull();
    expect(artifacts[4].versions).toEqual([
      { name: 'notes.md.resolved.0', size: 10, modifiedAt: T },
      { name: 'notes.md.resolved.2', size: 10, modifiedAt: T },
      { name: 'notes.md.resolved.10', size: 11, modifiedAt: T },
      { name: 'notes.md.resolved', size: 8, modifiedAt: T },
    ]);
    // A symlinked artifact is listed under its own name; versions are looked up by that name.
    expect(artifacts[3].versions).toEqual([]);
    expect(problems).toEqual([
      unsafe('escape.md'),
      unsafe('notes.md.resolved.5'),
      unsafe('other.md.metadata.json'),
    ]);
  });

  it('returns nothing for a missing directory', async () => {
    expect(await listArtifacts(path.join(tmp, 'gone'))).toEqual({ artifacts: [], problems: [] });
  });
});

describe('getArtifact', () => {
  it('returns one artifact by exact name', async () => {
    const { artifact, problems } = await getArtifact(dir, 'notes.md');
    expect(artifact?.versions.map((v) => v.name)).toEqual([
      'notes.md.resolved.0',
      'notes.md.resolved.2',
      'notes.md.resolved.10',
      'notes.md.resolved',
    ]);
    expect(artifact?.size).toBe(1);
    expect(problems).toEqual([unsafe('notes.md.resolved.5')]);
    expect((await getArtifact(dir, 'task.md')).artifact?.updatedAt).toBe(
      '2026-01-07T19:08:15.216541610Z',
    );
  });

  it.each(['../outside/secret.md', 'scratch/inner.md', 'readme.txt', 'missing.md', 'dir.md', ''])(
    'returns null for %j',
    async (name) => {
      expect(await getArtifact(dir, name)).toEqual({ artifact: null, problems: [] });
    },
  );

  it('reports an escaping artifact', async () => {
    expect(await getArtifact(dir, 'escape.md')).toEqual({
      artifact: null,
      problems: [unsafe('escape.md')],
    });
  });
});
