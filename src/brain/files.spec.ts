import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  classifySessionFile,
  decodeUtf8,
  FileAccessError,
  findStepOutput,
  listSessionFiles,
  readFileRange,
  SYNC_LIST_FOLDERS,
  walkSessionFiles,
} from './files';
import { mapLimit } from './concurrency';
import { useSyncReads } from './safe-read';

let tmp: string;
let dir: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-files-')));
  dir = path.join(tmp, 'session');
  fs.mkdirSync(dir);
  write('../outside/secret.txt', 'secret');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string | Buffer = 'x'): void {
  const full = path.join(dir, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}
function link(target: string, rel: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.symlinkSync(target, path.join(dir, rel));
}
function fifo(rel: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  execFileSync('mkfifo', [path.join(dir, rel)]);
}

describe('classifySessionFile', () => {
  it.each([
    ['scratch/a/b.py', 'SCRATCH'],
    ['.user_uploaded/media_1.pdf', 'UPLOAD'],
    ['media__1.PNG', 'MEDIA'],
    ['shot.JpEg', 'MEDIA'],
    ['x.webp', 'MEDIA'],
    ['sub/x.png', 'OTHER'],
    ['.system_generated/click_feedback/c_1.png', 'MEDIA'],
    ['.system_generated/tasks/task-1.log', 'TASK_LOG'],
    ['.system_generated/messages/read.json', 'OTHER'],
    ['.system_generated/steps/abc/output.txt', 'OTHER'],
    ['.system_generated/steps/007/output.txt', 'OTHER'],
    ['.system_generated/steps/7/other.txt', 'OTHER'],
    ['.system_generated/logs/other.log', 'OTHER'],
    ['notes.txt', 'OTHER'],
    ['scratch/plan.md', 'SCRATCH'],
    ['task.md.resolved.x', 'OTHER'],
  ])('%s -> %s', (rel, kind) => expect(classifySessionFile(rel)).toBe(kind));

  it.each([
    '.system_generated/logs/transcript.jsonl',
    '.system_generated/logs/transcript_full.jsonl',
    '.system_generated/logs/chunks/transcript/00000000.jsonl',
    '.system_generated/steps/0/output.txt',
    '.system_generated/steps/12/content.md',
    'task.md',
    'task.md.resolved',
    'task.md.resolved.19',
    'task.md.metadata.json',
  ])('%s is shown elsewhere', (rel) => expect(classifySessionFile(rel)).toBeNull());
});

describe('listSessionFiles', () => {
  afterEach(() => useSyncReads(false));

  // The session workers walk with synchronous calls (useSyncReads): the same answer.
  it.each([
    ['async', false],
    ['sync', true],
  ])(
    'lists other files by kind and path, reporting escaping symlinks (%s calls)',
    async (_, sync) => {
      useSyncReads(sync);
      write('.system_generated/logs/transcript.jsonl');
      write('.system_generated/logs/transcript_full.jsonl');
      write('.system_generated/logs/chunks/transcript/00000000.jsonl');
      write('.system_generated/steps/3/output.txt');
      write('.system_generated/steps/abc/output.txt', 'abc');
      write('.system_generated/tasks/task-1.log', 'log!');
      write('.system_generated/click_feedback/click_feedback_1.png', 'png');
      write('.system_generated/messages/read.json', '{}');
      write('scratch/a.py', 'print(1)');
      write('scratch/deep/er/b.txt', 'bb');
      write('scratch/repo/.git/config');
      write('.git/HEAD');
      write('.user_uploaded/media_1.PDF', 'pdf');
      write('media__1.PNG', 'image');
      write('notes.txt', 'hello');
      write('task.md');
      write('task.md.resolved');
      write('task.md.resolved.0');
      write('task.md.metadata.json');
      write('browser/page.html', '<p>');
      link('scratch/a.py', 'link-in');
      link('scratch', 'dirlink');
      link('../outside/secret.txt', 'escape.txt');
      link(path.join(tmp, 'outside'), 'scratch/escape-dir');
      link('/nonexistent-brainql/abc', 'dangling-out');
      link('missing.txt', 'dangling-in');
      link(
        path.join(tmp, 'outside/secret.txt'),
        '.system_generated/logs/chunks/transcript/00000001.jsonl',
      );
      fifo('pipe');
      fs.utimesSync(path.join(dir, 'notes.txt'), 1_700_000_000, 1_700_000_000);

      const { files, unsafe } = await listSessionFiles(dir);

      expect(files.map((f) => [f.path, f.kind, f.size])).toEqual([
        ['.system_generated/click_feedback/click_feedback_1.png', 'MEDIA', 3],
        ['.system_generated/messages/read.json', 'OTHER', 2],
        ['.system_generated/steps/abc/output.txt', 'OTHER', 3],
        ['.system_generated/tasks/task-1.log', 'TASK_LOG', 4],
        ['.user_uploaded/media_1.PDF', 'UPLOAD', 3],
        ['browser/page.html', 'OTHER', 3],
        ['link-in', 'OTHER', 8],
        ['media__1.PNG', 'MEDIA', 5],
        ['notes.txt', 'OTHER', 5],
        ['scratch/a.py', 'SCRATCH', 8],
        ['scratch/deep/er/b.txt', 'SCRATCH', 2],
      ]);
      expect(files[8].modifiedAt).toEqual(new Date('2023-11-14T22:13:20.000Z'));
      expect(unsafe.map((p) => [p.code, p.file, p.line])).toEqual([
        ['UNSAFE_PATH', '.system_generated/logs/chunks/transcript/00000001.jsonl', null],
        ['UNSAFE_PATH', 'dangling-out', null],
        ['UNSAFE_PATH', 'escape.txt', null],
        ['UNSAFE_PATH', 'scratch/escape-dir', null],
      ]);
      expect(unsafe[2].message).toBe('escape.txt resolves outside the session directory');
    },
  );

  it('walks a directory of 10,000 entries', async () => {
    fs.mkdirSync(path.join(dir, 'scratch/many'), { recursive: true });
    for (let i = 0; i < 10_000; i++) {
      fs.writeFileSync(path.join(dir, 'scratch/many', `f${String(i).padStart(5, '0')}`), '');
    }
    const { files, unsafe } = await listSessionFiles(dir);
    expect(files.length).toBe(10_000);
    expect(files[0].path).toBe('scratch/many/f00000');
    expect(files[9999].path).toBe('scratch/many/f09999');
    expect(unsafe).toEqual([]);
  });

  it('returns nothing for a missing directory', async () => {
    expect(await listSessionFiles(path.join(tmp, 'gone'))).toEqual({ files: [], unsafe: [] });
  });
});

describe('walkSessionFiles for the index (small levels listed with synchronous calls)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('lists and refuses what the async walk does; a level past SYNC_LIST_FOLDERS is read async', async () => {
    write('.system_generated/logs/transcript.jsonl');
    write('.system_generated/steps/1/output.txt', 'one');
    write('scratch/a.py', 'print(1)');
    write('notes.txt', 'hello');
    link('../outside/secret.txt', 'escape.txt');
    link('/nonexistent-brainql/abc', 'dangling-out');
    link(path.join(tmp, 'outside'), 'scratch/escape-dir');
    const readdir = jest.spyOn(fs.promises, 'readdir');
    const names: string[] = [];
    const small = await walkSessionFiles(dir, names, true);
    // Every level has a few folders: none was listed through the thread pool.
    expect(readdir).not.toHaveBeenCalled();
    readdir.mockClear();
    const rootNames: string[] = [];
    expect(small).toEqual(await walkSessionFiles(dir, rootNames));
    expect(readdir).toHaveBeenCalled();
    expect(names.sort()).toEqual(rootNames.sort());
    expect(small.unsafe.map((p) => p.file)).toEqual([
      'dangling-out',
      'escape.txt',
      'scratch/escape-dir',
    ]);

    // A session of many steps: its level of step folders is listed as before.
    for (let i = 2; i <= SYNC_LIST_FOLDERS + 1; i++) write(`.system_generated/steps/${i}/x.txt`);
    readdir.mockClear();
    const many = await walkSessionFiles(dir, undefined, true);
    expect(readdir).toHaveBeenCalledTimes(SYNC_LIST_FOLDERS + 1);
    expect(many).toEqual(await walkSessionFiles(dir));
    expect(many.files.filter((f) => f.path.endsWith('/x.txt'))).toHaveLength(SYNC_LIST_FOLDERS);
  });
});

describe('findStepOutput', () => {
  beforeEach(() => {
    write('.system_generated/steps/3/output.txt', 'three');
    write('.system_generated/steps/3/content.md', 'ignored');
    write('.system_generated/steps/4/content.md', '# four');
    link('../../../../outside/secret.txt', '.system_generated/steps/5/output.txt');
    write('.system_generated/steps/5/content.md', 'five!');
    fifo('.system_generated/steps/6/output.txt');
    write('.system_generated/steps/6/content.md', 'six');
    fs.mkdirSync(path.join(dir, '.system_generated/steps/8/output.txt'), { recursive: true });
  });

  it('prefers output.txt', async () => {
    expect(await findStepOutput(dir, 3)).toEqual({
      output: { file: 'output.txt', relPath: '.system_generated/steps/3/output.txt', size: 5 },
      problems: [],
    });
  });

  it('falls back to content.md', async () => {
    expect(await findStepOutput(dir, 4)).toEqual({
      output: { file: 'content.md', relPath: '.system_generated/steps/4/content.md', size: 6 },
      problems: [],
    });
  });

  it('treats an escaping output.txt as absent and reports it', async () => {
    expect(await findStepOutput(dir, 5)).toEqual({
      output: { file: 'content.md', relPath: '.system_generated/steps/5/content.md', size: 5 },
      problems: [
        {
          code: 'UNSAFE_PATH',
          message: '.system_generated/steps/5/output.txt resolves outside the session directory',
          file: '.system_generated/steps/5/output.txt',
          line: null,
        },
      ],
    });
  });

  it('skips a FIFO or a directory silently', async () => {
    expect((await findStepOutput(dir, 6)).output?.relPath).toBe(
      '.system_generated/steps/6/content.md',
    );
    expect(await findStepOutput(dir, 8)).toEqual({ output: null, problems: [] });
  });

  it('returns null without an output or for a non-integer index', async () => {
    expect(await findStepOutput(dir, 7)).toEqual({ output: null, problems: [] });
    expect(await findStepOutput(dir, 1.5)).toEqual({ output: null, problems: [] });
  });
});

describe('readFileRange', () => {
  beforeEach(() => {
    write('a.txt', 'hello world');
    link('../outside/secret.txt', 'escape.txt');
    fifo('pipe');
  });

  it('reads a byte range, short at the end of the file', async () => {
    expect((await readFileRange(dir, 'a.txt', 6, 3)).toString()).toBe('wor');
    expect((await readFileRange(dir, 'a.txt', 6, 1_000_000)).toString()).toBe('world');
    expect((await readFileRange(dir, 'a.txt', 0, 1_000_000_000)).length).toBe(11);
    expect((await readFileRange(dir, 'a.txt', 50, 10)).length).toBe(0);
    expect((await readFileRange(dir, 'a.txt', 0, 0)).length).toBe(0);
  });

  it.each([
    ['escape.txt', 'UNSAFE_PATH'],
    ['../outside/secret.txt', 'BAD_NAME'],
    ['/etc/passwd', 'BAD_NAME'],
    ['missing.txt', 'ABSENT'],
    ['pipe', 'NOT_REGULAR'],
  ])('refuses %s with %s', async (rel, refusal) => {
    const err: unknown = await readFileRange(dir, rel, 0, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileAccessError);
    expect((err as FileAccessError).refusal).toBe(refusal);
    expect((err as FileAccessError).name).toBe('FileAccessError');
  });

  it('rejects a negative offset', async () => {
    await expect(readFileRange(dir, 'a.txt', -1, 1)).rejects.toThrow(RangeError);
  });
});

describe('decodeUtf8', () => {
  it('decodes a cut or invalid sequence as U+FFFD', () => {
    const e = Buffer.from('é', 'utf8');
    expect(decodeUtf8(Buffer.concat([Buffer.from('a'), e.subarray(0, 1)]))).toBe('a\uFFFD');
    expect(decodeUtf8(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
  });
});

describe('mapLimit', () => {
  it('keeps input order and never exceeds the limit', async () => {
    let active = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n, i) => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, n));
      active--;
      return n * 10 + i;
    });
    expect(out).toEqual([50, 11, 42, 23, 34]);
    expect(peak).toBe(2);
  });
});
