import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ListedSession } from '../src/brain/catalog';
import { ioStats } from '../src/brain/safe-path';
import { BrainStore } from '../src/brain/store';
import type { SessionEntry, StepRecord, ToolCall, TruncatedField } from '../src/brain/types';
import type { FixtureHome } from './fixtures/brain-home';
import { encodeArg, type FullRecord, truncateText } from './fixtures/records';

/**
 * Helpers shared by the store's spec files: a store over a fixture home, lookups of listed
 * sessions, I/O measurement through `ioStats`, and the records a fixture session should read
 * as, derived from the generator's full records (never from the store).
 */

/** A store over the fixture home (+ extraRoot); no background rescans during a test. */
export function fixtureStore(fx: FixtureHome, withExtraRoot = true): BrainStore {
  return new BrainStore({
    geminiHome: fx.home,
    brainRoots: withExtraRoot ? [fx.extraRoot] : [],
    rescanMs: 3_600_000,
  });
}

/** The listed session with this id (throws when it is not listed). */
export async function listedOf(store: BrainStore, id: string): Promise<ListedSession> {
  const found = (await store.catalog()).byKey.get(id.toLowerCase());
  if (!found) throw new Error(`session ${id} is not listed`);
  return found;
}

export async function entryOf(store: BrainStore, id: string): Promise<SessionEntry> {
  return (await listedOf(store, id)).entry;
}

/** A SessionEntry for a session directory built by a test (its parent is the root). */
export function entryAt(dir: string): SessionEntry {
  const realDir = fs.realpathSync(dir);
  const stats = fs.statSync(realDir);
  const rootPath = path.dirname(dir);
  return {
    id: path.basename(dir),
    root: {
      path: rootPath,
      realPath: fs.realpathSync(rootPath),
      flavor: path.basename(path.dirname(rootPath)),
      environment: 'OTHER',
    },
    dir,
    realDir,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
  };
}

/** Copies a session directory to `<destRoot>/<id>` (symlinks copied as links) and returns it. */
export function copySession(src: string, destRoot: string): string {
  const dest = path.join(destRoot, path.basename(src));
  fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
  return dest;
}

export interface Measured<T> {
  value: T;
  /** Bytes the store read (ioStats.bytesRead delta). */
  bytes: number;
  /** Session-relative paths the store opened, in order. */
  opens: string[];
}

/** Runs `fn` and reports what the store read meanwhile. */
export async function measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
  const before = ioStats.bytesRead;
  ioStats.opens.length = 0;
  ioStats.recordOpens = true;
  try {
    const value = await fn();
    return { value, bytes: ioStats.bytesRead - before, opens: [...ioStats.opens] };
  } finally {
    ioStats.recordOpens = false;
    ioStats.opens.length = 0;
  }
}

export const LOGS = '.system_generated/logs';
export const COMPACT_FILE = `${LOGS}/transcript.jsonl`;
export const FULL_FILE = `${LOGS}/transcript_full.jsonl`;

/** A tool call as the store should show it, from its full-file form. */
function expectedCall(
  call: NonNullable<FullRecord['tool_calls']>[number],
  position: number,
  compact: boolean,
): ToolCall {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.args)) {
    // A compact value decodes back to the plain value unless it was cut (then it stays raw).
    const encoded = encodeArg(value);
    args[key] = !compact || encoded === JSON.stringify(value) ? value : encoded;
  }
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    position,
    name: call.name,
    args,
    toolAction: str(args.toolAction),
    toolSummary: str(args.toolSummary),
  };
}

/**
 * The record the store should produce for a generator record at `position` (line = position
 * + 1: the fixture files have one record per line). `compact` applies the compact file's
 * truncation; `truncated` is what the fixture facts say was truncated.
 */
export function expectedRecord(
  rec: FullRecord,
  position: number,
  opts: { compact: boolean; truncated?: readonly string[]; line?: number; occurrence?: number },
): StepRecord {
  const text = (v: string | undefined): string | null =>
    v === undefined ? null : opts.compact ? truncateText(v) : v;
  const tokens =
    rec.input_tokens === undefined &&
    rec.output_tokens === undefined &&
    rec.cache_read_tokens === undefined
      ? null
      : {
          input: rec.input_tokens ?? null,
          output: rec.output_tokens ?? null,
          cacheRead: rec.cache_read_tokens ?? null,
        };
  return {
    index: rec.step_index,
    position,
    line: opts.line ?? position + 1,
    occurrence: opts.occurrence ?? 0,
    source: rec.source as StepRecord['source'],
    type: rec.type,
    status: rec.status as StepRecord['status'],
    createdAt: rec.created_at === undefined ? null : new Date(rec.created_at),
    content: text(rec.content),
    thinking: text(rec.thinking),
    error: rec.error ?? null,
    toolCalls: (rec.tool_calls ?? []).map((c, i) => expectedCall(c, i, opts.compact)),
    truncatedFields: (opts.truncated ?? []) as TruncatedField[],
    tokens,
  };
}
