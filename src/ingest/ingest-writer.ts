import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { HttpError, HttpErrorCode } from '../http/http-errors';
import { FileLocks } from './file-locks';
import { HashCache } from './hash-cache';
import {
  ensureDirs,
  FILE_MODE,
  listRegularFiles,
  NOFOLLOW,
  PathConflict,
  regularSize,
  syncDir,
} from './ingest-fs';
import { TEMP_PREFIX } from './ingest-path';
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

/** The temporary files of replaces; never inside a brain root, so never read as a session file. */
const TMP = '.tmp';

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
        const dir = await ensureDirs(this.ingestDir, segments.slice(0, -1));
        const size = await regularSize(abs, req.rel);
        if (req.offset !== 0 && req.offset !== size)
          throw new HttpError(
            HttpErrorCode.OFFSET_MISMATCH,
            `The server holds ${size} bytes of ${req.rel}: send offset=${size} to append, or offset=0 to replace.`,
            { size },
          );
        const st =
          req.offset === 0
            ? await this.replace(req, abs, dir, size)
            : await this.append(req, abs, size);
        const hash = await this.hashes.stateOf(abs, st);
        return { path: req.rel, size: st.size, sha256: hash.digest('hex') };
      } catch (err) {
        if (err instanceof PathConflict)
          throw new HttpError(HttpErrorCode.BAD_USER_INPUT, err.message);
        if (isDiskFull(err)) throw storage('The disk is full: nothing was written.');
        throw err;
      }
    });
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
      if (!(await this.quota.take(req.source, chunk.length)))
        throw storage(
          `The source "${req.source}" would hold more than MAX_INGEST_MB ` +
            `(${this.quota.maxBytes} bytes): nothing was written.`,
        );
      tally.taken += chunk.length;
      req.charge(chunk.length);
      await write(chunk);
    }
  }

  /**
   * The whole body, in a new temporary file of the source's `.tmp/` (never inside a brain
   * root, so no reader or live subscriber sees a byte of it); quota and rate points are taken
   * as bytes arrive. On any failure the temporary file is gone and the quota given back.
   * `onChunk` sees every byte in order (an append's running hash).
   */
  private async stage(
    req: PutRequest,
    onChunk?: (chunk: Buffer) => void,
  ): Promise<{ tmp: string; fh: FileHandle; taken: number }> {
    const tmpDir = await ensureDirs(this.ingestDir, [req.source, TMP]);
    const tmp = path.join(tmpDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.part`);
    const flags = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
    const fh = await fsp.open(tmp, flags, FILE_MODE);
    const tally = { taken: 0 };
    try {
      await this.pour(req, tally, async (chunk) => {
        await fh.write(chunk);
        onChunk?.(chunk);
      });
      return { tmp, fh, taken: tally.taken };
    } catch (err) {
      await this.unstage(tmp, fh);
      this.quota.give(req.source, tally.taken);
      throw err;
    }
  }

  private async unstage(tmp: string, fh: FileHandle): Promise<void> {
    await fh.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true });
  }

  private async replace(
    req: PutRequest,
    abs: string,
    dir: string,
    oldSize: number,
  ): Promise<Stats> {
    const { tmp, fh, taken } = await this.stage(req);
    try {
      await fh.sync();
      // Renaming keeps the inode and mtime: this is the stat of the file now in place.
      const st = await fh.stat();
      await fh.close();
      await fsp.rename(tmp, abs);
      await syncDir(dir);
      this.quota.give(req.source, oldSize);
      this.hashes.forget(abs);
      return st;
    } catch (err) {
      await this.unstage(tmp, fh);
      this.quota.give(req.source, taken);
      throw err;
    }
  }

  /**
   * Appends only once the whole body has arrived and fits the quota: a client cut off
   * mid-body never touches the target, so no reader or `steps` subscriber sees a line that is
   * then taken back (a truncation looks like a rewrite to them). Only a failure of the copy
   * itself (a full disk) truncates the target back.
   */
  private async append(req: PutRequest, abs: string, size: number): Promise<Stats> {
    const before = await fsp.lstat(abs);
    const hash = await this.hashes.stateOf(abs, before);
    const { tmp, fh: staged, taken } = await this.stage(req, (chunk) => hash.update(chunk));
    let target: FileHandle | null = null;
    try {
      target = await fsp.open(abs, constants.O_WRONLY | constants.O_APPEND | NOFOLLOW);
      const now = await target.stat();
      if (now.ino !== before.ino || now.size !== size)
        throw new Error(`${req.rel} changed under its lock`);
      try {
        await copyAll(staged, target);
        await target.sync();
      } catch (err) {
        // Nothing half-written stays: the file goes back to what it held.
        await target.truncate(size).catch(() => undefined);
        await target.sync().catch(() => undefined);
        this.hashes.forget(abs);
        throw err;
      }
      const st = await target.stat();
      this.hashes.remember(abs, st, hash);
      return st;
    } catch (err) {
      this.quota.give(req.source, taken);
      throw err;
    } finally {
      await target?.close().catch(() => undefined);
      await this.unstage(tmp, staged);
    }
  }
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
