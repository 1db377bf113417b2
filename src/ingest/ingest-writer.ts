import { randomBytes, type Hash } from 'node:crypto';
import { constants, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { HttpError, HttpErrorCode } from '../http/http-errors';
import { FileLocks } from './file-locks';
import { HashCache } from './hash-cache';
import {
  ENTRY_BYTES,
  ensureDirs,
  missingDirs,
  FILE_MODE,
  listRegularFiles,
  NOFOLLOW,
  PathConflict,
  regularSize,
  syncDir,
} from './ingest-fs';
import { TEMP_PREFIX, TMP } from './ingest-path';
import { SourceQuota } from './quota';

/**
 * Writes pushed files under `INGEST_DIR/<source>/<flavor>/brain/<id>/` and says what is held.
 * Every body is staged whole in the source's `.tmp/` folder first: `offset=0` then replaces a
 * file atomically (fsync, rename, fsync of the folder); `offset` = size appends the staged
 * bytes and fsyncs before answering. A failed request (quota, full disk, a cut connection)
 * leaves the file as it was, and nothing of a body is visible before it is committed.
 */

export interface HeldEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface PutRequest {
  source: string;
  flavor: string;
  id: string;
  rel: string;
  offset: number;
  body: AsyncIterable<Buffer>;
  /** Takes rate points for bytes as they arrive (throws RATE_LIMITED). */
  charge: (bytes: number) => void;
}

const storage = (message: string) => new HttpError(HttpErrorCode.INSUFFICIENT_STORAGE, message);

export class IngestWriter {
  private readonly locks = new FileLocks();
  private readonly hashes = new HashCache();
  readonly quota: SourceQuota;

  constructor(
    private readonly ingestDir: string,
    maxSourceBytes: number,
    readonly maxBodyBytes: number,
  ) {
    this.quota = new SourceQuota(ingestDir, maxSourceBytes);
  }

  private sessionSegments(source: string, flavor: string, id: string): string[] {
    return [source, flavor, 'brain', id];
  }

  /** What the server holds of one session for `source` (empty when nothing). */
  async list(source: string, flavor: string, id: string): Promise<HeldEntry[]> {
    const dir = path.join(this.ingestDir, this.sessionSegments(source, flavor, id).join(path.sep));
    const out: HeldEntry[] = [];
    for (const f of await listRegularFiles(dir)) {
      const st = await fsp.lstat(f.abs);
      const hash = await this.locks.run(f.abs, () => this.hashes.stateOf(f.abs, st));
      out.push({ path: f.path, size: st.size, sha256: hash.digest('hex') });
    }
    return out;
  }

  /** Removes temporary files a crash left behind (called once at start). */
  async sweep(): Promise<void> {
    const sources = await fsp.readdir(this.ingestDir).catch(() => [] as string[]);
    for (const s of sources)
      await fsp.rm(path.join(this.ingestDir, s, TMP), { recursive: true, force: true });
  }

  async put(req: PutRequest): Promise<HeldEntry> {
    const segments = [
      ...this.sessionSegments(req.source, req.flavor, req.id),
      ...req.rel.split('/'),
    ];
    const abs = path.join(this.ingestDir, segments.join(path.sep));
    return this.locks.run(abs, async () => {
      try {
        // Judged before anything is made: a refused PUT leaves no folder behind.
        const held = await regularSize(abs, req.rel);
        const size = held ?? 0;
        if (req.offset !== 0 && req.offset !== size)
          throw new HttpError(
            HttpErrorCode.OFFSET_MISMATCH,
            `The server holds ${size} bytes of ${req.rel}: send offset=${size} to append, or offset=0 to replace.`,
            { size },
          );
        const before = held === null ? null : await fsp.lstat(abs);
        // An append's hash continues the held file's with the staged bytes.
        const hash = before && req.offset !== 0 ? await this.hashes.stateOf(abs, before) : null;
        const staged = await this.stage(req, hash ?? undefined);
        /** Quota taken for new folders and the new file. */
        let charged = 0;
        try {
          // Every new folder and file costs ENTRY_BYTES against the quota (see quota.ts).
          const dirs = segments.slice(0, -1);
          const file = held === null ? 1 : 0;
          const entries = (await missingDirs(this.ingestDir, dirs)) + file;
          if (!(await this.quota.take(req.source, entries * ENTRY_BYTES)))
            throw this.overQuota(req.source);
          charged = entries * ENTRY_BYTES;
          const { dir, made } = await ensureDirs(this.ingestDir, dirs);
          // Another writer may have made some of them meanwhile: charged once, by the maker.
          const unused = (entries - file - made) * ENTRY_BYTES;
          this.quota.give(req.source, unused);
          charged -= unused;
          const st =
            req.offset === 0
              ? await this.replace(req, staged, abs, dir, size)
              : await this.append(req, staged, abs, before!, hash!);
          const done = await this.hashes.stateOf(abs, st);
          return { path: req.rel, size: st.size, sha256: done.digest('hex') };
        } catch (err) {
          this.quota.give(req.source, staged.taken + charged);
          throw err;
        } finally {
          await this.unstage(staged);
        }
      } catch (err) {
        if (err instanceof PathConflict)
          throw new HttpError(HttpErrorCode.BAD_USER_INPUT, err.message);
        if (isDiskFull(err)) throw storage('The disk is full: nothing was written.');
        if ((err as NodeJS.ErrnoException).code === 'EFBIG')
          throw storage(
            'The file would pass the file size limit of the server (EFBIG): nothing was written.',
          );
        throw err;
      }
    });
  }

  private overQuota(source: string): HttpError {
    return storage(
      `The source "${source}" would hold more than MAX_INGEST_MB ` +
        `(${this.quota.maxBytes} bytes): nothing was written.`,
    );
  }

  /**
   * Streams the body into `write`, counting, taking quota and rate points as bytes arrive.
   * `tally.taken`: the quota taken so far, which the caller gives back when it rolls back.
   */
  private async pour(
    req: PutRequest,
    tally: { taken: number },
    write: (chunk: Buffer) => Promise<void>,
  ): Promise<void> {
    for await (const chunk of req.body) {
      if (tally.taken + chunk.length > this.maxBodyBytes)
        throw new HttpError(
          HttpErrorCode.PAYLOAD_TOO_LARGE,
          `The request body is larger than the limit of ${this.maxBodyBytes} bytes ` +
            '(MAX_INGEST_BODY_MB): send the file in parts, appending.',
        );
      if (!(await this.quota.take(req.source, chunk.length))) throw this.overQuota(req.source);
      tally.taken += chunk.length;
      req.charge(chunk.length);
      await write(chunk);
    }
  }

  /**
   * The whole body, in a new temporary file of the source's `.tmp/` (never inside a brain
   * root, so no reader or live subscriber sees a byte of it); quota and rate points are taken
   * as bytes arrive. On failure the temporary file is gone and the quota given back; on
   * success the caller owns both (`unstage`, and `taken` to give back if it fails later).
   * `hash` is updated with every byte in order (an append's running hash).
   */
  private async stage(req: PutRequest, hash?: Hash): Promise<Staged> {
    const { dir: tmpDir } = await ensureDirs(this.ingestDir, [req.source, TMP]);
    const tmp = path.join(tmpDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.part`);
    const flags = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
    const fh = await fsp.open(tmp, flags, FILE_MODE);
    const tally = { taken: 0 };
    try {
      await this.pour(req, tally, async (chunk) => {
        await fh.write(chunk);
        hash?.update(chunk);
      });
      return { tmp, fh, taken: tally.taken, closed: false };
    } catch (err) {
      await this.unstage({ tmp, fh, taken: 0, closed: false });
      this.quota.give(req.source, tally.taken);
      throw err;
    }
  }

  /** Removes a staged body (gone already when it was renamed into place). */
  private async unstage(staged: Staged): Promise<void> {
    if (!staged.closed) await staged.fh.close().catch(() => undefined);
    staged.closed = true;
    await fsp.rm(staged.tmp, { force: true });
  }

  private async replace(
    req: PutRequest,
    staged: Staged,
    abs: string,
    dir: string,
    oldSize: number,
  ): Promise<Stats> {
    const { fh } = staged;
    await fh.sync();
    // Renaming keeps the inode and mtime: this is the stat of the file now in place.
    const st = await fh.stat();
    staged.closed = true;
    await fh.close();
    await fsp.rename(staged.tmp, abs);
    await syncDir(dir);
    this.quota.give(req.source, oldSize);
    this.hashes.forget(abs);
    return st;
  }

  /**
   * Appends only once the whole body has arrived and fits the quota: a client cut off
   * mid-body never touches the target, so no reader or `steps` subscriber sees a line that is
   * then taken back (a truncation looks like a rewrite to them). Only a failure of the copy
   * itself (a full disk) truncates the target back.
   */
  private async append(
    req: PutRequest,
    staged: Staged,
    abs: string,
    before: Stats,
    hash: Hash,
  ): Promise<Stats> {
    const target = await fsp.open(abs, constants.O_WRONLY | constants.O_APPEND | NOFOLLOW);
    try {
      const now = await target.stat();
      if (now.ino !== before.ino || now.size !== before.size)
        throw new Error(`${req.rel} changed under its lock`);
      try {
        await copyAll(staged.fh, target);
        await target.sync();
      } catch (err) {
        // Nothing half-written stays: the file goes back to what it held.
        await target.truncate(before.size).catch(() => undefined);
        await target.sync().catch(() => undefined);
        this.hashes.forget(abs);
        throw err;
      }
      const st = await target.stat();
      this.hashes.remember(abs, st, hash);
      return st;
    } finally {
      await target.close().catch(() => undefined);
    }
  }
}

interface Staged {
  tmp: string;
  fh: FileHandle;
  /** Quota taken for its bytes. */
  taken: number;
  closed: boolean;
}

/** Every byte of `from` (from its start) written to `to`, in slices. */
async function copyAll(from: FileHandle, to: FileHandle): Promise<void> {
  const buf = Buffer.allocUnsafe(COPY_SLICE);
  for (let pos = 0; ;) {
    const { bytesRead } = await from.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) return;
    for (let done = 0; done < bytesRead;) {
      const { bytesWritten } = await to.write(buf, done, bytesRead - done);
      done += bytesWritten;
    }
    pos += bytesRead;
  }
}

const COPY_SLICE = 1024 * 1024;

function isDiskFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
