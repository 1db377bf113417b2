import { createHash, randomBytes, type Hash } from 'node:crypto';
import { constants, fstatSync, promises as fsp, renameSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { HttpError, HttpErrorCode } from '../http/http-errors';
import { FileLocks } from './file-locks';
import { HashCache } from './hash-cache';
import {
  DurableDirs,
  ENTRY_BYTES,
  FolderSyncs,
  existingDirs,
  FILE_MODE,
  folderPaths,
  isFolder,
  listRegularFiles,
  makeDirs,
  NOFOLLOW,
  PathConflict,
  regularFile,
  syncDirs,
} from './ingest-fs';
import { TEMP_PREFIX, TMP } from './ingest-path';
import { SourceQuota } from './quota';

/**
 * Writes pushed files under `INGEST_DIR/<source>/<flavor>/brain/<id>/` and says what is held.
 * Every body is staged whole in the source's `.tmp/` folder first: `offset=0` then replaces a
 * file atomically (fsync, rename, fsync of the folder); `offset` = size appends the staged
 * bytes and fsyncs before answering. Folders made for a file are fsynced into their parents
 * together with the file's folder, in one batch after the rename (not one after another as
 * each is made), and always before the answer. A failed request (quota, full disk, a cut connection)
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
  private readonly durable = new DurableDirs();
  private readonly folderSyncs = new FolderSyncs();
  /** Temporary file names: random per process, then counted (opened O_EXCL all the same). */
  private readonly tempStem = randomBytes(6).toString('hex');
  private tempCount = 0;
  /** Sources whose `.tmp/` folder this process has made (or found). */
  private readonly staging = new Set<string>();
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
      const hash = await this.locks.run(f.abs, () => this.hashes.stateOf(f.abs, f.stat));
      out.push({ path: f.path, size: f.size, sha256: hash.digest('hex') });
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
        const before = regularFile(abs, req.rel);
        const held = before?.size ?? null;
        const size = held ?? 0;
        if (req.offset !== 0 && req.offset !== size)
          throw new HttpError(
            HttpErrorCode.OFFSET_MISMATCH,
            `The server holds ${size} bytes of ${req.rel}: send offset=${size} to append, or offset=0 to replace.`,
            { size },
          );
        // An append's hash continues the held file's with the staged bytes.
        const hash = before && req.offset !== 0 ? await this.hashes.stateOf(abs, before) : null;
        // A replace's hash is of the staged bytes alone: the file is not read back after.
        const staged = await this.stage(req, hash ?? createHash('sha256'));
        /** Quota taken for new folders and the new file. */
        let charged = 0;
        try {
          // Every new folder and file costs ENTRY_BYTES against the quota (see quota.ts).
          const dirs = segments.slice(0, -1);
          const file = held === null ? 1 : 0;
          const paths = folderPaths(this.ingestDir, dirs);
          // Known folders are not checked one by one: the deepest one's lstat says they are
          // all there (one removed by hand since: nothing is taken as known any more).
          let known = this.durable.knownPrefix(paths);
          if (known > 0 && !isFolder(paths[known - 1])) {
            this.durable.clear();
            known = 0;
          }
          const there = existingDirs(this.ingestDir, dirs, known);
          const entries = dirs.length - there + file;
          if (!(await this.quota.take(req.source, entries * ENTRY_BYTES)))
            throw this.overQuota(req.source);
          charged = entries * ENTRY_BYTES;
          const { dir, made } = makeDirs(this.ingestDir, dirs, there);
          // Another writer may have made some of them meanwhile: charged once, by the maker.
          const unused = (entries - file - made.length) * ENTRY_BYTES;
          this.quota.give(req.source, unused);
          charged -= unused;
          const st =
            req.offset === 0
              ? await this.replace(req, staged, abs, size)
              : await this.append(req, staged, abs, before!, hash!);
          // Every folder of the path is in its parent on disk before the answer: the ones
          // made here, and any another request made and has not fsynced yet.
          const parents = this.durable.parentsToSync(paths);
          await syncDirs(req.offset === 0 ? [...parents, dir] : parents, this.folderSyncs);
          this.durable.add(paths);
          if (req.offset === 0) this.hashes.remember(abs, st, staged.hash);
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
  private async stage(req: PutRequest, hash: Hash): Promise<Staged> {
    const tmp = path.join(
      this.ingestDir,
      req.source,
      TMP,
      `${TEMP_PREFIX}${this.tempStem}${(this.tempCount++).toString(36)}.part`,
    );
    const fh = await this.openStaged(req.source, tmp);
    const tally = { taken: 0 };
    const staged: Staged = { tmp, fh, hash, taken: 0, closed: false, renamed: false };
    try {
      await this.pour(req, tally, async (chunk) => {
        await fh.write(chunk);
        hash.update(chunk);
      });
      staged.taken = tally.taken;
      return staged;
    } catch (err) {
      await this.unstage(staged);
      this.quota.give(req.source, tally.taken);
      throw err;
    }
  }

  /**
   * A new temporary file in the source's `.tmp/`, made (and checked) on the source's first
   * write in this process rather than on every write; made again if it has gone since. It
   * needs no fsync: nothing in it has to outlive a crash (the sweep removes it).
   */
  private async openStaged(source: string, tmp: string): Promise<FileHandle> {
    const flags = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
    const segments = [source, TMP];
    for (let again = false; ; again = true) {
      if (!this.staging.has(source)) {
        makeDirs(this.ingestDir, segments, existingDirs(this.ingestDir, segments));
        this.staging.add(source);
      }
      try {
        return await fsp.open(tmp, flags, FILE_MODE);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || again) throw err;
        this.staging.delete(source);
      }
    }
  }

  /** Removes a staged body (not when it was renamed into place). */
  private async unstage(staged: Staged): Promise<void> {
    if (!staged.closed) await staged.fh.close().catch(() => undefined);
    staged.closed = true;
    if (!staged.renamed) await fsp.rm(staged.tmp, { force: true });
  }

  /**
   * fsync of the staged file, then its rename over `abs`. The caller fsyncs the folder (with
   * any folder made for it) before it answers.
   */
  private async replace(
    req: PutRequest,
    staged: Staged,
    abs: string,
    oldSize: number,
  ): Promise<Stats> {
    const { fh } = staged;
    await fh.sync();
    // Renaming keeps the inode and mtime: this is the stat of the file now in place. The stat
    // and the rename (an entry change, no data) are synchronous: two thread pool round trips
    // fewer per file of a bulk push. The rename names paths, so the handle may still be open.
    const st = fstatSync(fh.fd);
    renameSync(staged.tmp, abs);
    staged.renamed = true;
    staged.closed = true;
    await fh.close();
    this.quota.give(req.source, oldSize);
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
  /** SHA-256 of the staged bytes (an append's: of the held file's bytes, then these). */
  hash: Hash;
  /** Quota taken for its bytes. */
  taken: number;
  closed: boolean;
  /** Renamed into place: there is no temporary file to remove. */
  renamed: boolean;
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
