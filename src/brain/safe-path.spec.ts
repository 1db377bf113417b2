import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ioStats, isInside, nameProblem, openVerified, statInside } from './safe-path';

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
  jest.restoreAllMocks();
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
  it('passes regular files, also through a symlink that stays inside', () => {
    fs.symlinkSync('sub/b.txt', path.join(dir, 'link.txt'));
    const a = statInside(dir, 'a.txt');
    expect(a.ok && [a.value.realPath, a.value.stats.size]).toEqual([path.join(dir, 'a.txt'), 11]);
    const l = statInside(dir, 'link.txt');
    expect(l.ok && l.value.realPath).toBe(path.join(dir, 'sub/b.txt'));
  });

  it('refuses what escapes, what is absent and what is not a regular file', () => {
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dir, 'abs.txt'));
    fs.symlinkSync('../session-other/x.txt', path.join(dir, 'sibling.txt'));
    fs.symlinkSync(tmp, path.join(dir, 'outdir'));
    fs.symlinkSync('nowhere', path.join(dir, 'dangling'));
    fs.symlinkSync('loop2', path.join(dir, 'loop1'));
    fs.symlinkSync('loop1', path.join(dir, 'loop2'));
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const refusal = (rel: string) => {
      const r = statInside(dir, rel);
      return r.ok ? 'ok' : r.refusal;
    };
    expect({
      up: refusal('up.txt'),
      abs: refusal('abs.txt'),
      sibling: refusal('sibling.txt'),
      outdir: refusal('outdir/secret.txt'),
      dotdot: refusal('../secret.txt'),
      missing: refusal('missing.txt'),
      underFile: refusal('a.txt/x'),
      dangling: refusal('dangling'),
      loop: refusal('loop1'),
      dir: refusal('sub'),
      fifo: refusal('pipe'),
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

  it('refuses everything once the session directory itself became a symlink out', () => {
    fs.renameSync(dir, `${dir}.moved`);
    fs.symlinkSync(`${dir}.moved`, dir);
    expect(statInside(dir, 'a.txt')).toEqual({
      ok: false,
      refusal: 'UNSAFE_PATH',
      message: 'a.txt resolves outside the session directory',
    });
  });
});

/** Open file descriptors of this process (to prove a refusal closes what it opened). */
const openFds = (): number => fs.readdirSync('/proc/self/fd').length;

/**
 * Runs `swap` once, just before the gate's open of a path ending in `suffix`: the window
 * between locating a file and opening it, which a racing attacker aims at.
 */
function swapBeforeOpen(suffix: string, swap: () => void): { fired: () => boolean } {
  const realOpen = nodeFs.openSync.bind(nodeFs);
  let fired = false;
  jest.spyOn(nodeFs, 'openSync').mockImplementation((p, ...rest) => {
    if (!fired && String(p).endsWith(suffix)) {
      fired = true;
      swap();
    }
    return realOpen(p, ...rest);
  });
  return { fired: () => fired };
}

describe('openVerified', () => {
  beforeEach(() => {
    fs.mkdirSync(path.join(tmp, 'outside-sub'));
    fs.writeFileSync(path.join(tmp, 'outside-sub/b.txt'), 'TOP SECRET');
  });

  it('opens a regular file read-only and records the open when asked', () => {
    ioStats.recordOpens = true;
    const r = openVerified(dir, 'sub/b.txt');
    if (!r.ok) throw new Error(r.message);
    try {
      expect([r.value.realPath, r.value.stats.size]).toEqual([path.join(dir, 'sub/b.txt'), 5]);
      expect(() => fs.writeSync(r.value.fd, 'x')).toThrow(/EBADF/);
    } finally {
      fs.closeSync(r.value.fd);
    }
    expect(ioStats.opens).toEqual(['sub/b.txt']);
  });

  it('refuses a file whose folder was swapped for a link out after it was located', () => {
    const before = openFds();
    ioStats.recordOpens = true;
    const swap = swapBeforeOpen('/sub/b.txt', () => {
      fs.renameSync(path.join(dir, 'sub'), path.join(dir, 'sub.away'));
      fs.symlinkSync(path.join(tmp, 'outside-sub'), path.join(dir, 'sub'));
    });
    expect(openVerified(dir, 'sub/b.txt')).toEqual({
      ok: false,
      refusal: 'UNSAFE_PATH',
      message: 'sub/b.txt resolves outside the session directory',
    });
    expect(swap.fired()).toBe(true);
    expect(openFds()).toBe(before);
    expect(ioStats.opens).toEqual([]);
  });

  it('refuses a file whose session directory was swapped for a link out after it was located', () => {
    const before = openFds();
    fs.mkdirSync(path.join(tmp, 'look-alike'));
    fs.writeFileSync(path.join(tmp, 'look-alike/a.txt'), 'TOP SECRET');
    const swap = swapBeforeOpen('/a.txt', () => {
      fs.renameSync(dir, `${dir}.away`);
      fs.symlinkSync(path.join(tmp, 'look-alike'), dir);
    });
    const r = openVerified(dir, 'a.txt');
    expect(swap.fired()).toBe(true);
    expect(r.ok ? 'ok' : r.refusal).toBe('UNSAFE_PATH');
    expect(openFds()).toBe(before);
  });

  it('refuses what turned into a FIFO after it was located, without blocking', () => {
    const swap = swapBeforeOpen('/a.txt', () => {
      fs.rmSync(path.join(dir, 'a.txt'));
      execFileSync('mkfifo', [path.join(dir, 'a.txt')]);
    });
    expect(openVerified(dir, 'a.txt')).toEqual({
      ok: false,
      refusal: 'NOT_REGULAR',
      message: 'a.txt is not a regular file',
    });
    expect(swap.fired()).toBe(true);
  }, 5000);

  it('refuses, and closes, when the opened file cannot be verified (no /proc)', () => {
    const before = openFds();
    jest.spyOn(nodeFs, 'readlinkSync').mockImplementation(() => {
      throw Object.assign(new Error('ENOENT: simulated'), { code: 'ENOENT' });
    });
    expect(openVerified(dir, 'a.txt')).toEqual({
      ok: false,
      refusal: 'UNREADABLE',
      message: 'a.txt cannot be verified (ENOENT)',
    });
    expect(openFds()).toBe(before);
  });
});
