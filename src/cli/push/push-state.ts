import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * What push knows of local files without reading them: by absolute path, the (size, mtime,
 * inode) a SHA-256 was computed for. A file whose stat still matches is not hashed again, so a
 * second push of an unchanged home reads no file. Written atomically, owner-only.
 */

export interface Known {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
  /** --redact: size of the masked bytes that sha256 is of (sha256 is then of those). */
  sentSize?: number;
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
