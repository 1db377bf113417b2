import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ioStats,
  isInside,
  nameProblem,
  openInside,
  readInsideSync,
  readRange,
  statInside,
} from './safe-path';

/** The containment gate: names, symlinks, non-regular files, and what it counts. */

let tmp: string;
let dir: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-safe-')));
  dir = path.join(tmp, 'session');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.txt'), 'hello world');
  fs.writeFileSync(path.join(dir, 'sub/b.txt'), 'inner');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'TOP SECRET');
  fs.mkdirSync(path.join(tmp, 'session-other'));
  fs.writeFileSync(path.join(tmp, 'session-other/x.txt'), 'sibling');
});
afterEach(() => {
  ioStats.recordOpens = false;
  ioStats.opens.length = 0;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('nameProblem', () => {
  it.each([
    ['a.txt', true],
    ['scratch/sub/data.csv', true],
    ['.system_generated/steps/4/output.txt', true],
    ['..a', true],
    ['a..', true],
    ['é €.md', true],
    ['x'.repeat(255), true],
  ])('accepts %j (subdirs allowed)', (name) => expect(nameProblem(name, true)).toBeNull());

  it.each([
    ['', 'the name is empty'],
    ['..', 'the name has an empty, "." or ".." segment'],
    ['../x', 'the name has an empty, "." or ".." segment'],
    ['a/../../x', 'the name has an empty, "." or ".." segment'],
    ['a/..', 'the name has an empty, "." or ".." segment'],
    ['./a', 'the name has an empty, "." or ".." segment'],
    ['a//b', 'the name has an empty, "." or ".." segment'],
    ['a/', 'the name has an empty, "." or ".." segment'],
    ['/etc/passwd', 'the name is an absolute path'],
    ['/', 'the name is an absolute path'],
    ['a\0b', 'the name contains a NUL byte'],
    ['\0', 'the name contains a NUL byte'],
    ['a\\b', 'the name contains a backslash'],
    ['..\\x', 'the name contains a backslash'],
    ['C:\\x', 'the name contains a backslash'],
    ['x'.repeat(256), 'a segment is longer than 255 bytes'],
    ['é'.repeat(128), 'a segment is longer than 255 bytes'],
    [('x'.repeat(200) + '/').repeat(6), 'the name is longer than 1024 bytes'],
  ])('refuses %j: %s', (name, reason) => expect(nameProblem(name, true)).toBe(reason));

  it('refuses separators when subdirectories are not allowed', () => {
    expect(nameProblem('a/b.md', false)).toBe('the name contains a path separator');
    expect(nameProblem('task.md', false)).toBeNull();
    expect(nameProblem('../task.md', false)).toBe('the name contains a path separator');
    expect(nameProblem('..', false)).toBe('the name has an empty, "." or ".." segment');
  });
});

describe('isInside', () => {
  it('accepts the directory and what lies beneath it, nothing beside it', () => {
    expect(isInside('/a/session', '/a/session')).toBe(true);
    expect(isInside('/a/session', '/a/session/x')).toBe(true);
    expect(isInside('/a/session/', '/a/session/x')).toBe(true);
    expect(isInside('/a/session', '/a/session-other/x')).toBe(false);
    expect(isInside('/a/session', '/a/sessionx')).toBe(false);
    expect(isInside('/a/session', '/a')).toBe(false);
    expect(isInside('/a/session', '/')).toBe(false);
  });
});

describe('statInside', () => {
  it('passes regular files, also through a symlink that stays inside', async () => {
    fs.symlinkSync('sub/b.txt', path.join(dir, 'link.txt'));
    const a = await statInside(dir, 'a.txt');
    expect(a.ok && [a.value.realPath, a.value.stats.size]).toEqual([path.join(dir, 'a.txt'), 11]);
    const l = await statInside(dir, 'link.txt');
    expect(l.ok && l.value.realPath).toBe(path.join(dir, 'sub/b.txt'));
  });

  it('refuses what escapes, what is absent and what is not a regular file', async () => {
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dir, 'abs.txt'));
    fs.symlinkSync('../session-other/x.txt', path.join(dir, 'sibling.txt'));
    fs.symlinkSync(tmp, path.join(dir, 'outdir'));
    fs.symlinkSync('nowhere', path.join(dir, 'dangling'));
    fs.symlinkSync('loop2', path.join(dir, 'loop1'));
    fs.symlinkSync('loop1', path.join(dir, 'loop2'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const refusal = async (rel: string) => {
      const r = await statInside(dir, rel);
      return r.ok ? 'ok' : r.refusal;
    };
    expect({
      up: await refusal('up.txt'),
      abs: await refusal('abs.txt'),
      sibling: await refusal('sibling.txt'),
      outdir: await refusal('outdir/secret.txt'),
      dotdot: await refusal('../secret.txt'),
      missing: await refusal('missing.txt'),
      underFile: await refusal('a.txt/x'),
      dangling: await refusal('dangling'),
      loop: await refusal('loop1'),
      dir: await refusal('sub'),
      fifo: await refusal('pipe'),
    }).toEqual({
      up: 'UNSAFE_PATH',
      abs: 'UNSAFE_PATH',
      sibling: 'UNSAFE_PATH',
      outdir: 'UNSAFE_PATH',
      dotdot: 'UNSAFE_PATH',
      missing: 'ABSENT',
      underFile: 'ABSENT',
      dangling: 'ABSENT',
      loop: 'UNSAFE_PATH',
      dir: 'NOT_REGULAR',
      fifo: 'NOT_REGULAR',
    });
  });
});

describe('openInside and readRange', () => {
  it('opens read-only, records the open when asked, and counts the bytes read', async () => {
    ioStats.recordOpens = true;
    const before = ioStats.bytesRead;
    const opened = await openInside(dir, 'a.txt');
    if (!opened.ok) throw new Error(opened.message);
    try {
      expect((await readRange(opened.value.handle, 6, 5)).toString()).toBe('world');
      expect((await readRange(opened.value.handle, 9, 100)).toString()).toBe('ld');
      expect((await readRange(opened.value.handle, 50, 10)).length).toBe(0);
      await expect(opened.value.handle.write('x')).rejects.toThrow();
    } finally {
      await opened.value.handle.close();
    }
    expect(ioStats.bytesRead - before).toBe(7);
    expect(ioStats.opens).toEqual(['a.txt']);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('hello world');
  });

  it('does not record opens by default', async () => {
    const opened = await openInside(dir, 'a.txt');
    if (opened.ok) await opened.value.handle.close();
    expect(ioStats.opens).toEqual([]);
  });

  it('refuses a FIFO without blocking', async () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    fs.symlinkSync('pipe', path.join(dir, 'pipe-link'));
    for (const rel of ['pipe', 'pipe-link']) {
      const r = await openInside(dir, rel);
      expect([rel, r.ok ? 'ok' : r.refusal]).toEqual([rel, 'NOT_REGULAR']);
    }
  }, 5000);

  it('refuses an escaping symlink before opening it', async () => {
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    ioStats.recordOpens = true;
    const r = await openInside(dir, 'up.txt');
    expect(r).toEqual({
      ok: false,
      refusal: 'UNSAFE_PATH',
      message: 'up.txt resolves outside the session directory',
    });
    expect(ioStats.opens).toEqual([]);
  });
});

describe('readInsideSync', () => {
  it('reads at most maxBytes from the start, counting them', () => {
    const before = ioStats.bytesRead;
    const r = readInsideSync(dir, 'a.txt', 0, 5);
    expect(r.ok && [r.value.bytes?.toString(), r.value.stats.size]).toEqual(['hello', 11]);
    const all = readInsideSync(dir, 'a.txt', 0, 1000);
    expect(all.ok && all.value.bytes?.toString()).toBe('hello world');
    expect(ioStats.bytesRead - before).toBe(16);
  });

  it('applies the same refusals as openInside', () => {
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const refusal = (rel: string) => {
      const r = readInsideSync(dir, rel, 0, 100);
      return r.ok ? 'ok' : r.refusal;
    };
    expect([refusal('up.txt'), refusal('pipe'), refusal('missing'), refusal('sub')]).toEqual([
      'UNSAFE_PATH',
      'NOT_REGULAR',
      'ABSENT',
      'NOT_REGULAR',
    ]);
  }, 5000);
});
