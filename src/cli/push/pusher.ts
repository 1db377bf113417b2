import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  promises as fsp,
  readSync,
} from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isVerifiablyBinary } from '../../http/content-kind';
import type { Redactor } from '../../redaction/redactor';
import { createRedactStream } from '../../redaction/stream';
import { wholeLinesEnd } from '../../brain/transcript/whole-lines';
import { IngestHttpError, Unreachable, type Held, type IngestClient } from './ingest-client';
import { hashFile, sessionFiles, type LocalFile, type LocalSession } from './local-files';
import type { PushState } from './push-state';

/**
 * Sends what the server lacks, file by file: nothing when it holds the same bytes, the tail
 * when what it holds is a prefix of the local file (checked by hashing that prefix locally),
 * the whole file otherwise. Files larger than a part go as a first part then appends, so no
 * request passes the server's body limit. OFFSET_MISMATCH (another pusher, a retried part)
 * means: ask again and plan again.
 */

export interface Failure {
  session: string;
  path: string;
  code: string;
  message: string;
}

export interface Tally {
  sessions: number;
  files: number;
  bytesSent: number;
  skipped: number;
  failed: Failure[];
  /** --dry-run: the bytes a real run would send. */
  wouldSend: number;
  /** OFFSET_MISMATCH answers recovered from by asking again (another pusher was there). */
  recovered: number;
}

export const newTally = (): Tally => ({
  sessions: 0,
  files: 0,
  bytesSent: 0,
  skipped: 0,
  failed: [],
  wouldSend: 0,
  recovered: 0,
});

export interface PusherOptions {
  client: IngestClient;
  state: PushState;
  /** Bytes per request (below the server's MAX_INGEST_BODY_MB). */
  partBytes: number;
  dryRun: boolean;
  /** --redact: masks text files before they leave; masked copies live in `maskDir`. */
  redactor: Redactor | null;
  maskDir: string;
  onProgress?: (tally: Tally) => void;
  /**
   * The server pushed to (serverTag of its URL and the key): files it answered holding are
   * marked so in the state file, and a session whose files all still match such marks is not
   * asked about (after one check per run that the server still holds what it said; see
   * `newRun`). Without it, every session is asked about.
   */
  server?: string;
}

const RETRIES = 5;
/** The smallest part a 413 halves down to before the file is given up (named in failed[]). */
export const MIN_PART_BYTES = 64 * 1024;
/** RATE_LIMITED: how long one request may wait in all (per Retry-After) before giving up. */
export const RATE_WAIT_MS = 60_000;

/** What to mirror of a local file: itself, or (with --redact) its masked copy. */
interface Mirror {
  abs: string;
  size: number;
  sha256: string | null;
  /** Its bytes, when a small file was read whole to hash it: sent from here, not read again. */
  bytes?: Buffer;
  /** A masked copy made for a dry run: removed once the file is judged. */
  temporary?: boolean;
}

export class Pusher {
  /** Bytes per request: halved when the server answers 413 (a MAX_INGEST_BODY_MB below it). */
  private partBytes: number;

  /**
   * This run's check that the server still holds what the state file says it answered: the
   * first session found all marked is asked about as usual, and the rest are skipped without a
   * request only when every one of its files was there, unchanged. A server that lost them
   * (INGEST_DIR emptied, another server at the same URL) is then asked about every session.
   */
  private check: Promise<boolean> | null = null;

  constructor(private readonly o: PusherOptions) {
    this.partBytes = o.partBytes;
  }

  /** A new pass over the home (each --watch sweep too): the check above is made again. */
  newRun(): void {
    this.check = null;
  }

  /** Whether `held` (the server's listing) has every one of `files` as the state file has it. */
  private listed(files: LocalFile[], held: Held[]): boolean {
    return files.every((f) => {
      const k = this.o.state.get(f.abs, f.stat);
      const h = held.find((x) => x.path === f.rel);
      return !!k && !!h && h.sha256 === k.sha256 && h.size === (k.sentSize ?? k.size);
    });
  }

  /** Whether the state file marks every one of `files` as held by this server, unchanged. */
  private allHeld(files: LocalFile[]): boolean {
    const { server, state, redactor } = this.o;
    if (!server || files.length === 0) return false;
    return files.every((f) => {
      const k = state.get(f.abs, f.stat);
      // With --redact the entry must be of masked bytes (sentSize), without it of the file's.
      return k?.held === server && (k.sentSize !== undefined) === (redactor !== null);
    });
  }

  /**
   * Runs `fn`, waiting as the server asks (Retry-After, at least 1 s) while it answers
   * RATE_LIMITED, for at most RATE_WAIT_MS in all; nothing of a refused request was kept.
   */
  private async patiently<T>(fn: () => Promise<T>): Promise<T> {
    let waited = 0;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof IngestHttpError) || err.code !== 'RATE_LIMITED') throw err;
        const wait = Math.max(1, err.retryAfter ?? 1) * 1000;
        if (waited + wait > RATE_WAIT_MS) throw err;
        waited += wait;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  async pushSession(s: LocalSession, tally: Tally): Promise<void> {
    const { files, refused } = sessionFiles(s.dir);
    for (const r of refused)
      tally.failed.push({ session: s.id, path: r.rel, code: 'BAD_USER_INPUT', message: r.message });
    let settle: ((trusted: boolean) => void) | null = null;
    if (this.allHeld(files)) {
      if (this.check === null) {
        const { promise, resolve } = deferred<boolean>();
        this.check = promise;
        settle = resolve;
      } else if (await this.check) {
        // Unchanged since this server answered holding every file: nothing to ask or send.
        tally.skipped += files.length;
        tally.sessions++;
        this.o.onProgress?.(tally);
        return;
      }
    }
    try {
      let held = await this.patiently(() => this.o.client.held(s.flavor, s.id));
      // The check holds when the server lists every file of this session as the state has it.
      settle?.(this.listed(files, held));
      settle = null;
      for (const f of files) {
        const mirror = await this.mirrorOf(f);
        try {
          held = await this.pushWithRetries(s, f, mirror, held, tally);
        } finally {
          if (mirror.temporary) await fsp.rm(mirror.abs, { force: true });
        }
        this.o.onProgress?.(tally);
      }
    } finally {
      // Not asked (the server is away, the key refused): nothing is taken as held.
      settle?.(false);
    }
    tally.sessions++;
  }

  /** Pushes one file, asking again after OFFSET_MISMATCH; what the server holds after. */
  private async pushWithRetries(
    s: LocalSession,
    f: LocalFile,
    mirror: Mirror,
    held: Held[],
    tally: Tally,
  ): Promise<Held[]> {
    let recovered = false;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.pushFile(
          s,
          f,
          mirror,
          held.find((h) => h.path === f.rel),
          tally,
        );
        break;
      } catch (err) {
        const code = err instanceof IngestHttpError ? err.code : null;
        if (code === 'OFFSET_MISMATCH' && attempt < RETRIES) {
          // Counted once per file however many answers it took.
          if (!recovered) tally.recovered++;
          recovered = true;
          held = await this.patiently(() => this.o.client.held(s.flavor, s.id));
          continue;
        }
        if (!(err instanceof IngestHttpError) || err.status === 401 || err.status === 403)
          throw err;
        tally.failed.push({ session: s.id, path: f.rel, code: err.code, message: err.message });
        break;
      }
    }
    return held;
  }

  private async pushFile(
    s: LocalSession,
    f: LocalFile,
    m: Mirror,
    server: Held | undefined,
    tally: Tally,
  ): Promise<void> {
    const rel = f.rel;
    let from = 0;
    if (server && server.size === m.size && (await this.shaOf(m)) === server.sha256) {
      tally.skipped++;
      this.held(f);
      return;
    }
    // Whatever the state file said, the server does not hold these bytes (now).
    this.o.state.unconfirm(f.abs);
    if (server && server.size > 0 && server.size < m.size) {
      const { prefixSha256, sha256 } = await hashFile(m.abs, m.size, server.size);
      m.sha256 ??= sha256;
      if (prefixSha256 === server.sha256) from = server.size;
    }
    if (this.o.dryRun) {
      tally.files++;
      tally.wouldSend += m.size - from;
      return;
    }
    let offset = from;
    let answer: Held | null = null;
    do {
      const length = Math.min(this.partBytes, m.size - offset);
      const at = offset;
      try {
        answer = await this.patiently(() =>
          this.o.client.put(
            s.flavor,
            s.id,
            rel,
            at,
            length === 0
              ? Readable.from([])
              : m.bytes
                ? Readable.from([m.bytes.subarray(at, at + length)])
                : createReadStream(m.abs, { start: at, end: at + length - 1 }),
            length,
          ),
        );
      } catch (err) {
        if (!(await this.refusedBody(s, err))) throw err;
        // Over the server's body limit (or refused before it was read): nothing was written;
        // try again with half the part, down to MIN_PART_BYTES.
        if (length > MIN_PART_BYTES) {
          this.partBytes = Math.max(MIN_PART_BYTES, Math.min(this.partBytes, length) >> 1);
          continue;
        }
        if (err instanceof Unreachable)
          throw new IngestHttpError(
            0,
            'CONNECTION_CLOSED',
            `the server closed the connection while a ${length}-byte part was sent, without an ` +
              `answer (${err.message})`,
          );
        throw err;
      }
      tally.bytesSent += length;
      offset += length;
      this.o.onProgress?.(tally);
    } while (offset < m.size);
    // Counted once it is all there: a failed or retried file is not a file sent.
    tally.files++;
    // The server's answer after the last part: what it holds now, hashed by itself.
    if (answer && answer.size === m.size && answer.sha256 === m.sha256) this.held(f);
  }

  /** Marks `f`'s state entry as held by this server (when the run has one, and not dry). */
  private held(f: LocalFile): void {
    if (this.o.server && !this.o.dryRun) this.o.state.confirm(f.abs, f.stat, this.o.server);
  }

  /**
   * Whether a PUT's failure is the server refusing the body: 413, or the connection cut while
   * sending when the server still answers (asked again, without a body). A server that is
   * away throws Unreachable from here, as before.
   */
  private async refusedBody(s: LocalSession, err: unknown): Promise<boolean> {
    if (err instanceof IngestHttpError) return err.code === 'PAYLOAD_TOO_LARGE';
    if (!(err instanceof Unreachable) || !err.whileSending) return false;
    await this.patiently(() => this.o.client.held(s.flavor, s.id));
    return true;
  }

  private async shaOf(m: Mirror): Promise<string> {
    m.sha256 ??= (await hashFile(m.abs, m.size)).sha256;
    return m.sha256;
  }

  /** The bytes to mirror, with their hash when the state file knows it (then nothing is read). */
  private async mirrorOf(f: LocalFile): Promise<Mirror> {
    const { state, redactor } = this.o;
    const known = state.get(f.abs, f.stat);
    if (!redactor) {
      // An entry of a --redact run is the masked bytes' hash: not this file's.
      if (known?.sentSize !== undefined) known.sha256 = '';
      const m: Mirror = { abs: f.abs, size: f.stat.size, sha256: known?.sha256 || null };
      if (!m.sha256) {
        // A small file is read once: the bytes hashed are the bytes sent, if they are sent.
        const bytes = m.size <= READ_WHOLE_BYTES ? readPrefix(f.abs, m.size) : null;
        if (bytes) m.bytes = bytes;
        m.sha256 = bytes
          ? createHash('sha256').update(bytes).digest('hex')
          : (await hashFile(f.abs, f.stat.size)).sha256;
        state.set(f.abs, f.stat, m.sha256);
      }
      return m;
    }
    const masked = path.join(this.o.maskDir, createHash('sha256').update(f.abs).digest('hex'));
    const there = await fsp.stat(masked).catch(() => null);
    if (known?.sentSize !== undefined && there?.size === known.sentSize)
      return { abs: masked, size: known.sentSize, sha256: known.sha256 };
    await this.mask(f, masked);
    const size = (await fsp.stat(masked)).size;
    const { sha256 } = await hashFile(masked, size);
    // A dry run leaves no masked copy behind (and so no state entry that points at one).
    if (this.o.dryRun) return { abs: masked, size, sha256, temporary: true };
    state.set(f.abs, f.stat, sha256, size);
    return { abs: masked, size, sha256 };
  }

  /** Streams the file through the redactor into `to` (binary files are copied as they are). */
  private async mask(f: LocalFile, to: string): Promise<void> {
    await fsp.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    if (f.stat.size === 0) {
      await fsp.writeFile(to, '', { mode: 0o600 });
      return;
    }
    const head = Buffer.alloc(Math.min(4096, f.stat.size));
    const fh = await fsp.open(f.abs, 'r');
    try {
      await fh.read(head, 0, head.length, 0);
    } finally {
      await fh.close();
    }
    const out = createWriteStream(`${to}.part`, { mode: 0o600 });
    // One rule with the server's downloads: binary only by a known signature, never by name.
    if (isVerifiablyBinary(head))
      await pipeline(createReadStream(f.abs, { start: 0, end: f.stat.size - 1 }), out);
    else {
      // A transcript's unfinished last line may hold half a secret, which no pattern matches:
      // it is held back until its newline is written (the next run, or --watch, sends it).
      const end = f.rel.endsWith('.jsonl') ? await wholeLinesOf(f.abs, f.stat.size) : f.stat.size;
      const src =
        end === 0 ? Readable.from([]) : createReadStream(f.abs, { start: 0, end: end - 1 });
      await pipeline(src, createRedactStream(this.o.redactor!), out);
    }
    await fsp.rename(`${to}.part`, to);
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Files up to this size are read whole once to be hashed, and sent from those bytes. */
const READ_WHOLE_BYTES = 1024 * 1024;

/**
 * The first `size` bytes of `abs`; null when it holds fewer now (it shrank since its stat).
 * Synchronous: at most READ_WHOLE_BYTES from the page cache, where the asynchronous open,
 * read and close each cost a thread pool round trip (most of a small file's client time).
 */
function readPrefix(abs: string, size: number): Buffer | null {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const bytesRead = readSync(fd, buf, at, size - at, at);
      if (bytesRead === 0) return null;
      at += bytesRead;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** The end of `abs`'s complete lines among its first `size` bytes (see wholeLinesEnd). */
async function wholeLinesOf(abs: string, size: number): Promise<number> {
  const fh = await fsp.open(abs, 'r');
  try {
    return await wholeLinesEnd(async (position, length) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    }, size);
  } finally {
    await fh.close();
  }
}
