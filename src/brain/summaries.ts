import { SizedCache, versionKey, type CacheBudget } from './cache';
import { readInsideSync } from './safe-read';
import type { ListedSession } from './catalog';
import {
  isUserInput,
  summarize,
  userRequestOf,
  type RequestOf,
  type SessionSummary,
} from './session-summary';
import { Pacer } from './transcript/pace';
import type { ParsedView } from './transcript/parsed-view';
import { stringBytes } from './transcript/record-size';
import { RecordTooLargeError } from './transcript/scanner';
import type { Transcripts } from './transcript/transcript';
import { locateViews, type SessionViews, type ViewSource } from './transcript/view';
import type { SessionEntry, StepRecord } from './types';

/** A USER_INPUT's content at full fidelity (the store's `fullField`). */
export type ContentOf = (
  entry: SessionEntry,
  record: StepRecord,
  views: SessionViews,
) => Promise<unknown>;

interface CachedSummary {
  /** The parse it was computed from, not kept alive by this entry (the budget counts it once). */
  parsed: WeakRef<ParsedView>;
  view: ViewSource;
  full: string;
  value: Promise<SessionSummary>;
  /** The signal of the request that computes it. */
  signal?: AbortSignal;
}

function canOpen(realDir: string, relPath: string): boolean {
  return readInsideSync(realDir, relPath, 0, 0, () => false).ok;
}

/** The identity of a view's bytes, for caches that depend on more than one view. */
function viewVersion(view: ViewSource | null): string {
  return view ? view.segments.map((s) => `${s.relPath}:${versionKey(s.version)}`).join('|') : '-';
}

function summaryBytes(s: SessionSummary): number {
  let total = 512;
  for (const text of [s.userRequest, s.model, s.localTime, s.workspaceRoot, ...s.mentionedFiles]) {
    if (text !== null) total += stringBytes(text);
  }
  return total;
}

/** A summary kept from an earlier run (the home index), if it still matches these views. */
export type PersistedSummary = (
  listed: ListedSession,
  views: SessionViews,
) => SessionSummary | null;

/** Session summaries, cached in the store's budget and recomputed when the compact view changes. */
export class Summaries {
  private readonly cache: SizedCache<CachedSummary>;
  /** What `persisted` answered, by the views it is for: a listing asks it once per version. */
  private readonly kept: SizedCache<{ views: string; summary: SessionSummary }>;
  persisted: PersistedSummary | null = null;

  constructor(
    private readonly transcripts: Transcripts,
    budget: CacheBudget,
    private readonly contentOf: ContentOf,
    /** How the request is read from a USER_INPUT's content (REDACT=on: from it masked). */
    private readonly requestOf: RequestOf = userRequestOf,
  ) {
    this.cache = new SizedCache('summary', budget);
    this.kept = new SizedCache('persisted-summary', budget);
  }

  async of(listed: ListedSession, signal?: AbortSignal): Promise<SessionSummary> {
    const { entry } = listed;
    const views = await locateViews(entry.realDir);
    const kept = views.compact ? this.keptSummary(listed, views) : null;
    // Served only while the transcript can still be opened (no byte is read): a file that
    // turned unreadable lists as the steps do, empty, with its problem.
    if (kept && views.compact?.segments.every((s) => canOpen(entry.realDir, s.relPath)))
      return kept;
    const parsed = await this.transcripts.compact(entry.realDir, views, signal);
    if (!parsed) {
      const dirTime = new Date(entry.mtimeMs);
      return summarize([], [], { createdAt: listed.createdAt, updatedAt: dirTime });
    }
    const hit = this.cache.get(entry.realDir);
    // `parsed.view` is replaced whenever the bytes change (also when no record was added:
    // updatedAt may come from the files' mtime). The full view counts too when a USER_INPUT
    // was truncated: its twin may arrive after the compact line.
    const full = parsed.records.some((r) => isUserInput(r) && r.truncatedFields.includes('content'))
      ? viewVersion(views.full)
      : '';
    if (hit && hit.parsed.deref() === parsed && hit.view === parsed.view && hit.full === full) {
      // Another request's deadline may stop that computation: not a reason to fail this one.
      return hit.value.catch((err: unknown) => {
        if (!hit.signal?.aborted || hit.signal === signal || signal?.aborted) throw err;
        return this.of(listed, signal);
      });
    }
    const value = this.compute(listed, parsed, views, signal);
    const cached: CachedSummary = {
      parsed: new WeakRef(parsed),
      view: parsed.view,
      full,
      value,
      signal,
    };
    this.cache.set(entry.realDir, cached, 1024);
    value.then(
      (summary) => {
        cached.signal = undefined; // served: no request can stop it any more
        this.cache.resize(entry.realDir, cached, summaryBytes(summary));
      },
      () => {
        if (this.cache.peek(entry.realDir) === cached) this.cache.delete(entry.realDir);
      },
    );
    return value;
  }

  /** The persisted summary for exactly these views, asked of the index once per version. */
  private keptSummary(listed: ListedSession, views: SessionViews): SessionSummary | null {
    if (!this.persisted) return null;
    const key = `${viewVersion(views.compact)}\0${viewVersion(views.full)}`;
    const memo = this.kept.get(listed.entry.realDir);
    if (memo?.views === key) return memo.summary;
    const stored = this.persisted(listed, views);
    // Not enumerable: a mark of where the summary came from, not one of its facts (a summary
    // from the index equals the one computed from the files).
    const summary =
      stored && Object.defineProperty<SessionSummary>({ ...stored }, 'echoMasked', { value: true });
    if (summary)
      this.kept.set(listed.entry.realDir, { views: key, summary }, summaryBytes(summary));
    return summary;
  }

  private async compute(
    listed: ListedSession,
    parsed: ParsedView,
    views: SessionViews,
    signal?: AbortSignal,
  ): Promise<SessionSummary> {
    const inputs: string[] = [];
    const pacer = new Pacer(signal);
    for (const record of parsed.records.filter(isUserInput)) {
      await pacer.pace();
      // A full twin too long to read: the session's facts come from the compact value.
      const text = await this.contentOf(listed.entry, record, views).catch((err: unknown) => {
        if (err instanceof RecordTooLargeError) return record.content;
        throw err;
      });
      if (typeof text === 'string') inputs.push(text);
    }
    // A loop, not Math.max(...): a view may have more chunks than a call takes arguments.
    let newestFile = -Infinity;
    for (const s of parsed.view.segments) newestFile = Math.max(newestFile, s.version.mtimeMs);
    return summarize(
      parsed.records,
      inputs,
      { createdAt: listed.createdAt, updatedAt: new Date(newestFile) },
      this.requestOf,
    );
  }
}
