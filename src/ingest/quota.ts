import * as path from 'node:path';
import { TMP } from './ingest-path';
import { usageUnder } from './ingest-fs';

/**
 * MAX_INGEST_MB per source: file bytes plus ENTRY_BYTES per file and folder. A source's usage is measured on disk once, then kept by the
 * writes themselves; bytes are taken before they are written (so two writes of one source at
 * once cannot both squeeze past the limit) and given back when a write is rolled back.
 */
export class SourceQuota {
  private readonly usage = new Map<string, Promise<number>>();
  private readonly now = new Map<string, number>();

  constructor(
    private readonly ingestDir: string,
    readonly maxBytes: number,
  ) {}

  private async load(source: string): Promise<void> {
    let loading = this.usage.get(source);
    if (!loading) {
      loading = usageUnder(path.join(this.ingestDir, source), TMP);
      this.usage.set(source, loading);
      this.now.set(source, 0);
      const measured = await loading;
      this.now.set(source, (this.now.get(source) ?? 0) + measured);
      return;
    }
    await loading;
  }

  async used(source: string): Promise<number> {
    await this.load(source);
    return this.now.get(source) ?? 0;
  }

  /** Takes `bytes` for `source`; false (nothing taken) when that would pass the limit. */
  async take(source: string, bytes: number): Promise<boolean> {
    await this.load(source);
    const used = this.now.get(source) ?? 0;
    if (used + bytes > this.maxBytes) return false;
    this.now.set(source, used + bytes);
    return true;
  }

  /** Gives `bytes` back (a rolled-back write, a replaced file's old bytes). */
  give(source: string, bytes: number): void {
    this.now.set(source, Math.max(0, (this.now.get(source) ?? 0) - bytes));
  }
}
