import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type Stats } from 'node:fs';
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
 * `offset=0` replaces a file atomically (a temporary file in the source's `.tmp/` folder,
 * fsync, rename, fsync of the folder); `offset` = size appends and fsyncs before answering;
 * a failed request (quota, full disk, a cut connection) leaves the file as it was.
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

  private async replace(
    req: PutRequest,
    abs: string,
    dir: string,
    oldSize: number,
  ): Promise<Stats> {
    const tmpDir = await ensureDirs(this.ingestDir, [req.source, TMP]);
    const tmp = path.join(tmpDir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.part`);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
    const fh = await fsp.open(tmp, flags, FILE_MODE);
    const tally = { taken: 0 };
    try {
      await this.pour(req, tally, async (chunk) => {
        await fh.write(chunk);
      });
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
      await fh.close().catch(() => undefined);
      await fsp.rm(tmp, { force: true });
      this.quota.give(req.source, tally.taken);
      throw err;
    }
  }

  private async append(req: PutRequest, abs: string, size: number): Promise<Stats> {
    const fh = await fsp.open(abs, constants.O_WRONLY | constants.O_APPEND | NOFOLLOW);
    try {
      const before = await fh.stat();
      const hash = await this.hashes.stateOf(abs, before);
      const tally = { taken: 0 };
      try {
        await this.pour(req, tally, async (chunk) => {
          await fh.write(chunk);
          hash.update(chunk);
        });
        await fh.sync();
      } catch (err) {
        // Nothing half-written stays: the file goes back to what it held.
        await fh.truncate(size).catch(() => undefined);
        await fh.sync().catch(() => undefined);
        this.hashes.forget(abs);
        this.quota.give(req.source, tally.taken);
        throw err;
      }
      const st = await fh.stat();
      this.hashes.remember(abs, st, hash);
      return st;
    } finally {
      await fh.close();
    }
  }
}

function isDiskFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
