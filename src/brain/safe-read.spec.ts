import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import nodeFs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ioStats } from './safe-path';
import {
  openInside,
  openInsideForRead,
  readInsideSync,
  readRange,
  syncReadsOn,
  useSyncReads,
  withFileHandles,
  withSyncReads,
} from './safe-read';

/** The readers over the gate: what they read, count and refuse, and that the gate decides. */

let tmp: string;
let dir: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-read-')));
  dir = path.join(tmp, 'session');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.txt'), 'hello world');
  fs.writeFileSync(path.join(dir, 'sub/b.txt'), 'inner');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'TOP SECRET');
  fs.mkdirSync(path.join(tmp, 'outside-sub'));
  fs.writeFileSync(path.join(tmp, 'outside-sub/b.txt'), 'TOP SECRET');
});
afterEach(() => {
  jest.restoreAllMocks();
  ioStats.recordOpens = false;
  ioStats.opens.length = 0;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Swaps `sub` for a link to a folder outside, just before the gate opens `sub/b.txt`. */
function swapSubBeforeOpen(): () => boolean {
  const realOpen = nodeFs.openSync.bind(nodeFs);
  let fired = false;
  jest.spyOn(nodeFs, 'openSync').mockImplementation((p, ...rest) => {
    if (!fired && String(p).endsWith('/sub/b.txt')) {
      fired = true;
      fs.renameSync(path.join(dir, 'sub'), path.join(dir, 'sub.away'));
      fs.symlinkSync(path.join(tmp, 'outside-sub'), path.join(dir, 'sub'));
    }
    return realOpen(p, ...rest);
  });
  return () => fired;
}

const refusedAsOutside = {
  ok: false,
  refusal: 'UNSAFE_PATH',
  message: 'sub/b.txt resolves outside the session directory',
};

describe('openInside with synchronous reads (a session worker)', () => {
  afterEach(() => useSyncReads(false));

  it('reads the verified descriptor itself, without a call through the thread pool', async () => {
    useSyncReads(true);
    const asyncOpen = jest.spyOn(nodeFs.promises, 'open');
    const before = ioStats.bytesRead;
    const opened = await openInside(dir, 'a.txt');
    if (!opened.ok) throw new Error(opened.message);
    const { handle, stats } = opened.value;
    try {
      expect((await readRange(handle, 6, 5)).toString()).toBe('world');
      expect((await readRange(handle, 9, 100)).toString()).toBe('ld');
      expect((await handle.stat()).ino).toBe(stats.ino);
    } finally {
      await handle.close();
      await handle.close(); // twice: the descriptor is closed once
    }
    expect(ioStats.bytesRead - before).toBe(7);
    expect(asyncOpen).not.toHaveBeenCalled();
    // Closed: a read now fails as a rejected promise, as a FileHandle's would.
    await expect(handle.read(Buffer.alloc(1), 0, 1, 0)).rejects.toThrow();
  });

  it('refuses as the gate does: a link out, a swapped folder, a FIFO', async () => {
    useSyncReads(true);
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    expect(await openInside(dir, 'up.txt')).toMatchObject({ ok: false, refusal: 'UNSAFE_PATH' });
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    expect(await openInside(dir, 'pipe')).toMatchObject({ ok: false, refusal: 'NOT_REGULAR' });
    const fired = swapSubBeforeOpen();
    expect(await openInside(dir, 'sub/b.txt')).toEqual(refusedAsOutside);
    expect(fired()).toBe(true);
  }, 5000);
});

describe('openInsideForRead (scans, readFileRange)', () => {
  it('reads the verified descriptor with one call through the thread pool a read', async () => {
    ioStats.recordOpens = true;
    const asyncOpen = jest.spyOn(nodeFs.promises, 'open');
    const reads = jest.spyOn(nodeFs, 'read');
    const before = ioStats.bytesRead;
    const opened = openInsideForRead(dir, 'a.txt');
    if (!opened.ok) throw new Error(opened.message);
    const { handle } = opened.value;
    try {
      expect((await readRange(handle, 6, 5)).toString()).toBe('world');
      expect((await readRange(handle, 9, 100)).toString()).toBe('ld');
    } finally {
      await handle.close();
      await handle.close(); // twice: the descriptor is closed once
    }
    expect(ioStats.bytesRead - before).toBe(7);
    expect(ioStats.opens).toEqual(['a.txt']);
    expect(asyncOpen).not.toHaveBeenCalled();
    // 'ld' and then the end of the file: three reads in all.
    expect(reads).toHaveBeenCalledTimes(3);
    // Closed: a read is refused, never made on a descriptor number that may be another file's.
    await expect(handle.read(Buffer.alloc(1), 0, 1, 0)).rejects.toThrow('closed');
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('refuses as the gate does: a link out, a swapped folder, a FIFO', () => {
    fs.symlinkSync('../secret.txt', path.join(dir, 'up.txt'));
    expect(openInsideForRead(dir, 'up.txt')).toMatchObject({ ok: false, refusal: 'UNSAFE_PATH' });
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    expect(openInsideForRead(dir, 'pipe')).toMatchObject({ ok: false, refusal: 'NOT_REGULAR' });
    const fired = swapSubBeforeOpen();
    expect(openInsideForRead(dir, 'sub/b.txt')).toEqual(refusedAsOutside);
    expect(fired()).toBe(true);
  }, 5000);

  it('withSyncReads: what opens inside it reads synchronously, and only that', async () => {
    const reads = jest.spyOn(nodeFs, 'read');
    const opened = withSyncReads(() => openInsideForRead(dir, 'a.txt'));
    expect(syncReadsOn()).toBe(false);
    if (!opened.ok) throw new Error(opened.message);
    try {
      expect((await readRange(opened.value.handle, 0, 5)).toString()).toBe('hello');
    } finally {
      await opened.value.handle.close();
    }
    expect(reads).not.toHaveBeenCalled();
    expect(() =>
      withSyncReads(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(syncReadsOn()).toBe(false);
    // On a thread with useSyncReads on, it leaves them on.
    useSyncReads(true);
    try {
      withSyncReads(() => undefined);
      expect(syncReadsOn()).toBe(true);
    } finally {
      useSyncReads(false);
    }
  });
});

describe('withFileHandles', () => {
  it('what opens inside it reads as openInside does (a FileHandle), with the same bytes', async () => {
    const asyncOpen = jest.spyOn(nodeFs.promises, 'open');
    const reads = jest.spyOn(nodeFs, 'read');
    const opened = withFileHandles(() => openInsideForRead(dir, 'a.txt'));
    if (!opened.ok) throw new Error(opened.message);
    try {
      expect((await readRange(opened.value.handle, 6, 5)).toString()).toBe('world');
    } finally {
      await opened.value.handle.close();
    }
    expect(asyncOpen).toHaveBeenCalledTimes(1);
    expect(reads).not.toHaveBeenCalled();
    // Outside it, the verified descriptor itself again.
    const again = openInsideForRead(dir, 'a.txt');
    if (!again.ok) throw new Error(again.message);
    await again.value.handle.close();
    expect(asyncOpen).toHaveBeenCalledTimes(1);
    expect(openInsideForRead(dir, 'nothing.txt')).toMatchObject({ ok: false, refusal: 'ABSENT' });
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

  it('refuses a file whose folder was swapped for a link out after it was located', async () => {
    const fired = swapSubBeforeOpen();
    expect(await openInside(dir, 'sub/b.txt')).toEqual(refusedAsOutside);
    expect(fired()).toBe(true);
  });

  it('hands over the verified file, not whatever its path names by then', async () => {
    const original = fs.statSync(path.join(dir, 'a.txt')).ino;
    const realOpen = nodeFs.promises.open.bind(nodeFs.promises);
    // The handle is made after the gate's check: replace the file at that moment.
    jest.spyOn(nodeFs.promises, 'open').mockImplementation((p, ...rest) => {
      fs.renameSync(path.join(dir, 'a.txt'), path.join(dir, 'a.old'));
      fs.writeFileSync(path.join(dir, 'a.txt'), 'REPLACED!!!');
      return realOpen(p, ...rest);
    });
    const opened = await openInside(dir, 'a.txt');
    if (!opened.ok) throw new Error(opened.message);
    try {
      expect((await readRange(opened.value.handle, 0, 100)).toString()).toBe('hello world');
      expect([opened.value.stats.ino, (await opened.value.handle.stat()).ino]).toEqual([
        original,
        original,
      ]);
    } finally {
      await opened.value.handle.close();
    }
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

  it('skips the read when the caller does not want this version', () => {
    const before = ioStats.bytesRead;
    const r = readInsideSync(dir, 'a.txt', 0, 5, (st) => st.size !== 11);
    expect(r.ok && [r.value.bytes, r.value.stats.size]).toEqual([null, 11]);
    expect(ioStats.bytesRead - before).toBe(0);
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

  it('refuses a file whose folder was swapped for a link out after it was located', () => {
    const fired = swapSubBeforeOpen();
    expect(readInsideSync(dir, 'sub/b.txt', 0, 100)).toEqual(refusedAsOutside);
    expect(fired()).toBe(true);
  });
});
