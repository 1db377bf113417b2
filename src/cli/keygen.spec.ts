import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { hashKey, loadApiKeys } from '../auth/api-keys';

/** keygen --write appends to a keys file the server then loads; it never damages one. */

const run = promisify(execFile);
const KEYGEN = path.join(__dirname, 'keygen.ts');

async function keygen(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [
      '-r',
      'ts-node/register/transpile-only',
      KEYGEN,
      ...args,
    ]);
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const keyOf = (stdout: string) => /^(bql_[A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1] ?? '';

describe('keygen --write', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-keygen-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates the file (mode 600), then appends; the server loads both keys', async () => {
    const file = path.join(dir, 'keys.json');
    const first = await keygen(['--name', 'alice', '--write', file]);
    const second = await keygen(['--name', 'ci', '--flavor', 'antigravity-acp', '--write', file]);
    expect([first.code, first.stderr, second.code, second.stderr]).toEqual([0, '', 0, '']);
    expect(first.stdout.split('\n').slice(-2)).toEqual([
      `added "alice" to ${file} (1 keys); restart the server to load it`,
      '',
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([
      { name: 'alice', sha256: hashKey(keyOf(first.stdout)).toString('hex') },
      {
        name: 'ci',
        sha256: hashKey(keyOf(second.stdout)).toString('hex'),
        flavors: ['antigravity-acp'],
      },
    ]);
    const loaded = loadApiKeys(file);
    expect('keys' in loaded && loaded.keys.map((k) => k.name)).toEqual(['alice', 'ci']);
    expect(fs.readdirSync(dir)).toEqual(['keys.json']); // no temporary file left behind
  });

  it('refuses a duplicate name or a broken file and leaves the file as it was', async () => {
    const file = path.join(dir, 'keys.json');
    await keygen(['--name', 'alice', '--write', file]);
    const before = fs.readFileSync(file, 'utf8');
    const dup = await keygen(['--name', 'alice', '--write', file]);
    expect([dup.code, dup.stdout, dup.stderr]).toEqual([
      1,
      '',
      `${file} already has a key named "alice"\n`,
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);

    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, '{"name":');
    const bad = await keygen(['--name', 'bob', '--write', broken]);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([
      1,
      '',
      `${broken} is not a usable keys file: not valid JSON\n`,
    ]);
    expect(fs.readFileSync(broken, 'utf8')).toBe('{"name":');
  });

  it('answers usage with exit 2 when --name is missing', async () => {
    expect(await keygen(['--write', path.join(dir, 'k.json')])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'usage: keygen --name NAME [--flavor FLAVOR ...] [--source SOURCE ...] [--write FILE]\n' +
        '       keygen --name SOURCE --push [--write FILE]   (a push key: brainql push, nothing else)\n',
    });
  });

  it('--push writes "push": true; --source scopes a read key; the server loads both', async () => {
    const file = path.join(dir, 'keys.json');
    const push = await keygen(['--name', 'ci-runner', '--push', '--write', file]);
    const read = await keygen(['--name', 'audit', '--source', 'ci-runner', '--write', file]);
    expect([push.code, push.stderr, read.code, read.stderr]).toEqual([0, '', 0, '']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([
      { name: 'ci-runner', sha256: hashKey(keyOf(push.stdout)).toString('hex'), push: true },
      {
        name: 'audit',
        sha256: hashKey(keyOf(read.stdout)).toString('hex'),
        sources: ['ci-runner'],
      },
    ]);
    const loaded = loadApiKeys(file);
    expect(
      'keys' in loaded && loaded.keys.map((k) => [k.name, k.push, k.sources && [...k.sources]]),
    ).toEqual([
      ['ci-runner', true, null],
      ['audit', false, ['ci-runner']],
    ]);
  });

  it('refuses a push key whose name cannot be a source folder, writing nothing', async () => {
    const file = path.join(dir, 'keys.json');
    const bad = await keygen(['--name', '../up', '--push', '--write', file]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.split('\n')[0]).toBe(
      "a push key's name is its source folder: 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit",
    );
    expect(fs.existsSync(file)).toBe(false);
  });

  it('--help and -h print the options on stdout with exit 0, making no key', async () => {
    const [long, short] = await Promise.all([keygen(['--help']), keygen(['-h'])]);
    expect([long.code, long.stderr, short.code, short.stderr]).toEqual([0, '', 0, '']);
    expect(short.stdout).toBe(long.stdout);
    const lines = long.stdout.split('\n');
    expect(lines[0]).toBe(
      'usage: keygen --name NAME [--flavor FLAVOR ...] [--source SOURCE ...] [--write FILE]',
    );
    expect(lines.filter((l) => /^ {2}-/.test(l)).map((l) => l.trim().split(/\s+/)[0])).toEqual([
      '--name',
      '--flavor',
      '--source',
      '--push',
      '--write',
      '-h,',
    ]);
    expect(keyOf(long.stdout)).toBe('');
  });

  it('says a flavor Antigravity does not write, and still makes the key (a root may be named so)', async () => {
    const file = path.join(dir, 'keys.json');
    const typo = await keygen(['--name', 'a', '--flavor', 'antigravty-ide', '--write', file]);
    const known = await keygen(['--name', 'b', '--flavor', 'antigravity-cli', '--write', file]);
    expect([typo.code, typo.stderr, known.code, known.stderr]).toEqual([
      0,
      'note: "antigravty-ide" is not a flavor Antigravity writes (antigravity, antigravity-ide, ' +
        'antigravity-cli, antigravity-acp); the key reads only roots of that exact name\n',
      0,
      '',
    ]);
    expect(
      JSON.parse(fs.readFileSync(file, 'utf8')).map((e: { flavors: string[] }) => e.flavors),
    ).toEqual([['antigravty-ide'], ['antigravity-cli']]);
  });

  it('refuses a flavor no folder can have, with exit 2, writing nothing', async () => {
    const file = path.join(dir, 'keys.json');
    const bad = await keygen(['--name', 'a', '--flavor', '../x', '--write', file]);
    expect([bad.code, bad.stdout, bad.stderr.split('\n')[0]]).toEqual([
      2,
      '',
      '"../x" cannot be a flavor: a root\'s folder name has no / \\ or control character',
    ]);
    expect(fs.existsSync(file)).toBe(false);
  });
});
