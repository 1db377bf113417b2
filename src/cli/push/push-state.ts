import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What push knows of local files without reading them: by absolute path, the (size, mtime,
 * inode) a SHA-256 was computed for. A file whose stat still matches is not hashed again, so a
 * second push of an unchanged home reads no file. An entry also names the server (`held`, a
 * fingerprint of its URL and the push key) that answered holding exactly those bytes: a
 * session whose files all still match such entries needs no request at all (see Pusher).
 * Written atomically, owner-only.
 */

export interface Known {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
  /** --redact: size of the masked bytes that sha256 is of (sha256 is then of those). */
  sentSize?: number;
  /** The server (serverTag) that answered holding exactly these bytes, by listing or by PUT. */
  held?: string;
}

/** What `held` names: the server's URL and the push key, hashed (the key is never stored). */
export function serverTag(base: string, key: string | undefined): string {
  return createHash('sha256')
    .update(`${base}\n${key ?? ''}`)
    .digest('hex')
    .slice(0, 16);
}

const VERSION = 1;

export class PushState {
  private files = new Map<string, Known>();
  private dirty = false;

  constructor(readonly file: string) {}

  load(): this {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as {
        version?: number;
        files?: Record<string, Known>;
      };
      if (parsed.version === VERSION && parsed.files)
        this.files = new Map(Object.entries(parsed.files));
    } catch {
      // Absent or unreadable: everything is hashed once and the state written anew.
    }
    return this;
  }

  get(abs: string, st: fs.Stats): Known | null {
    const k = this.files.get(abs);
    return k && k.size === st.size && k.mtimeMs === st.mtimeMs && k.ino === st.ino ? k : null;
  }

  set(abs: string, st: fs.Stats, sha256: string, sentSize?: number): void {
    const k: Known = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 };
    if (sentSize !== undefined) k.sentSize = sentSize;
    this.files.set(abs, k);
    this.dirty = true;
  }

  /**
   * The server `tag` holds the bytes the entry of `abs` describes (its answer said so). Only
   * an entry that still matches `st` is marked: a file changed meanwhile is asked about again.
   */
  confirm(abs: string, st: fs.Stats, tag: string): void {
    const k = this.get(abs, st);
    if (!k || k.held === tag) return;
    k.held = tag;
    this.dirty = true;
  }

  /** Whatever server held the entry's bytes, it is not taken as known any more. */
  unconfirm(abs: string): void {
    const k = this.files.get(abs);
    if (!k || k.held === undefined) return;
    delete k.held;
    this.dirty = true;
  }

  save(): void {
    if (!this.dirty) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${randomBytes(6).toString('hex')}`;
    const files: Record<string, Known> = Object.fromEntries(this.files);
    fs.writeFileSync(tmp, JSON.stringify({ version: VERSION, files }), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
    this.dirty = false;
  }
}
