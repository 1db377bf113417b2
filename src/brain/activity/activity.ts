import { SizedCache, type CacheBudget } from '../cache';
import { isElided, stringBytes } from '../transcript/record-size';
import { IO_CONCURRENCY, mapLimit } from '../concurrency';
import type { ParsedView } from '../transcript/parsed-view';
import { type LargeLines, RecordTooLargeError } from '../transcript/scanner';
import { LARGE_VALUE_BYTES } from '../../ops/in-flight-bytes';
import type { Transcripts } from '../transcript/transcript';
import { locateViews, sameView, type SessionViews, type ViewSource } from '../transcript/view';
import type { SessionEntry, StepRecord, ToolCall } from '../types';
import { commandOutcome, existingTaskLog } from './commands';
import { changeFacts, FILE_TOOLS } from './file-changes';
import { DiffBudget } from './line-diff';
import { argsNeedTwin, fullArgs } from './call-args';
import { resultPosition } from './pairing';
import type { CommandInfo, FileChangeInfo } from './types';

/**
 * Derives a session's commands and file changes from its records, reading full twins only for
 * the records that need them (a truncated call, a truncated command result), one line each
 * through the full view's offset index. Both lists are cached per view version: the compact
 * view's bytes and the full view's. Whether a task log exists is checked on every call.
 */

type CommandBase = Omit<CommandInfo, 'taskLog'> & { taskLogPath: string | null };

interface Slot {
  /** Weak: the slot must not keep a parsed view alive after its own cache let it go. */
  parsed: WeakRef<ParsedView>;
  view: ViewSource;
  full: ViewSource | null;
  commands?: Promise<CommandBase[]>;
  fileChanges?: Promise<FileChangeInfo[]>;
}

/** One derivation's view of the session: its records and memoized full twins. */
interface Source {
  entry: SessionEntry;
  views: SessionViews;
  records: StepRecord[];
  /** Compact values (JSON text, cut with markers) rather than a full-only view. */
  compact: boolean;
  twins: Map<number, Promise<StepRecord | null>>;
  /** A full view exists but could not be read: the answer must not be cached. */
  degraded: boolean;
  /**
   * The derivation's share of the large values in flight, taken at its first long twin and
   * given back when the derivation settles (keep).
   */
  share: LargeLines | null;
}

/** A call and the arguments it is derived from (the full tier's when it was truncated). */
interface Call {
  record: StepRecord;
  call: ToolCall;
  args: Record<string, unknown>;
  /** The arguments are compact values of a truncated record: a marker means "cut". */
  mayBeCut: boolean;
  result: StepRecord | null;
}

export class Activity {
  private readonly cache: SizedCache<Slot>;

  constructor(
    private readonly transcripts: Transcripts,
    budget: CacheBudget,
  ) {
    this.cache = new SizedCache('activity', budget);
  }

  async commands(entry: SessionEntry): Promise<CommandInfo[]> {
    const at = await this.slot(entry);
    if (!at) return [];
    at.slot.commands ??= keep(this.cache, at.slot, 'commands', at.src, this.deriveCommands(at.src));
    return (await at.slot.commands).map(({ taskLogPath, ...info }) => ({
      ...info,
      taskLog: existingTaskLog(entry.realDir, taskLogPath),
    }));
  }

  async fileChanges(entry: SessionEntry): Promise<FileChangeInfo[]> {
    const at = await this.slot(entry);
    if (!at) return [];
    at.slot.fileChanges ??= keep(
      this.cache,
      at.slot,
      'fileChanges',
      at.src,
      this.deriveFileChanges(at.src),
    );
    return at.slot.fileChanges;
  }

  /** The cache slot of the session's current views (a new one when they changed). */
  private async slot(entry: SessionEntry): Promise<{ slot: Slot; src: Source } | null> {
    const views = await locateViews(entry.realDir);
    const parsed = await this.transcripts.compact(entry.realDir, views);
    if (!parsed) return null;
    let slot = this.cache.get(entry.realDir);
    const sameFull =
      slot?.full && views.full ? sameView(slot.full, views.full) : slot?.full === views.full;
    if (!slot || slot.parsed.deref() !== parsed || slot.view !== parsed.view || !sameFull) {
      slot = { parsed: new WeakRef(parsed), view: parsed.view, full: views.full };
      this.cache.set(entry.realDir, slot, SLOT_BYTES);
    }
    const src: Source = {
      entry,
      views,
      records: parsed.records,
      compact: parsed.view.kind === 'compact',
      twins: new Map(),
      degraded: false,
      share: null,
    };
    return { slot, src };
  }

  /** The full twin of a record, or null when there is none to read (the compact one serves). */
  private twin(src: Source, record: StepRecord): Promise<StepRecord | null> {
    let twin = src.twins.get(record.position);
    if (!twin) {
      const newShare = this.transcripts.share;
      const admit = newShare
        ? (bytes: number) =>
            bytes >= LARGE_VALUE_BYTES ? (src.share ??= newShare()).admit(bytes) : Promise.resolve()
        : undefined;
      twin = this.transcripts.fullTwin(src.entry.realDir, record, src.views, undefined, admit).then(
        (found) => {
          if (found === undefined && src.views.full) src.degraded = true;
          return found ?? null;
        },
        (err: unknown) => {
          if (err instanceof RecordTooLargeError) return null;
          throw err;
        },
      );
      src.twins.set(record.position, twin);
    }
    return twin;
  }

  /** Every call named in `names`, with full-tier arguments and its paired result. */
  private calls(src: Source, names: ReadonlySet<string>): Promise<Call[]> {
    const wanted: { record: StepRecord; call: ToolCall }[] = [];
    for (const record of src.records) {
      for (const call of record.toolCalls) if (names.has(call.name)) wanted.push({ record, call });
    }
    return mapLimit(wanted, IO_CONCURRENCY, async ({ record, call }): Promise<Call> => {
      const at = resultPosition(src.records, record.position, call.position);
      const result = at === null ? null : src.records[at];
      const twin = argsNeedTwin(record) ? await this.twin(src, record) : null;
      return { record, call, result, ...fullArgs(record, call, twin, src.compact) };
    });
  }

  private async fullContent(src: Source, record: StepRecord): Promise<string | null> {
    if (!record.truncatedFields.includes('content') && !isElided(record, 'content')) {
      return record.content;
    }
    const twin = await this.twin(src, record);
    return (twin ?? record).content;
  }

  private async deriveCommands(src: Source): Promise<CommandBase[]> {
    const calls = (await this.calls(src, RUN_COMMAND)).filter(
      (c) => typeof c.args.CommandLine === 'string',
    );
    return mapLimit(calls, IO_CONCURRENCY, async (c): Promise<CommandBase> => {
      const content = c.result ? await this.fullContent(src, c.result) : null;
      const outcome = commandOutcome(content, src.entry.id);
      return {
        step: c.record,
        toolCallPosition: c.call.position,
        commandLine: c.args.CommandLine as string,
        cwd: typeof c.args.Cwd === 'string' ? c.args.Cwd : null,
        result: c.result,
        background: outcome.background,
        exitCode: outcome.exitCode,
        output: outcome.output,
        taskLogPath: outcome.taskLogPath,
      };
    });
  }

  private async deriveFileChanges(src: Source): Promise<FileChangeInfo[]> {
    const out: FileChangeInfo[] = [];
    const budget = new DiffBudget();
    for (const c of await this.calls(src, FILE_TOOLS)) {
      const path = c.args.TargetFile;
      if (typeof path !== 'string') continue;
      const facts = changeFacts(c.call.name, path, c.args, c.mayBeCut, budget);
      out.push({
        step: c.record,
        toolCallPosition: c.call.position,
        tool: c.call.name,
        path,
        description: typeof c.args.Description === 'string' ? c.args.Description : null,
        ...facts,
        result: c.result,
        status: c.result?.status ?? null,
      });
    }
    return out;
  }
}

const RUN_COMMAND: ReadonlySet<string> = new Set(['run_command']);

/** A slot's own fields; its answers are counted when they resolve. */
const SLOT_BYTES = 200;
/** An answer item's fields and references (its records are the parsed view's). */
const ITEM_BYTES = 160;

const orNothing = (s: string | null | undefined) => (s ? stringBytes(s) : 0);

function commandsBytes(list: CommandBase[]): number {
  let total = 0;
  for (const c of list) {
    total += ITEM_BYTES + stringBytes(c.commandLine) + orNothing(c.cwd) + orNothing(c.output);
    total += orNothing(c.taskLogPath);
  }
  return total;
}

function fileChangesBytes(list: FileChangeInfo[]): number {
  let total = 0;
  for (const f of list) {
    total += ITEM_BYTES + stringBytes(f.path) + stringBytes(f.diff) + orNothing(f.description);
  }
  return total;
}

/**
 * Keeps a derivation in its slot while it is good for the same bytes, and counts what it holds
 * in the cache budget: a failed one, or one that served compact values because the full view
 * could not be read, is computed afresh next time.
 */
function keep<K extends 'commands' | 'fileChanges'>(
  cache: SizedCache<Slot>,
  slot: Slot,
  kind: K,
  src: Source,
  value: NonNullable<Slot[K]>,
): NonNullable<Slot[K]> {
  const drop = () => {
    if (slot[kind] === value) slot[kind] = undefined;
  };
  // The derivation's long twins are read: its share of the large values goes back.
  const settled = () => src.share?.done();
  void value.then(settled, settled);
  void value.then(() => {
    if (src.degraded) {
      drop();
      return;
    }
    // Both answers that are known by now count; a failed one counts nothing.
    void Promise.all([
      slot.commands?.catch(() => undefined),
      slot.fileChanges?.catch(() => undefined),
    ]).then(([commands, changes]) => {
      const bytes =
        SLOT_BYTES +
        (commands ? commandsBytes(commands) : 0) +
        (changes ? fileChangesBytes(changes) : 0);
      cache.resize(src.entry.realDir, slot, bytes);
    });
  }, drop);
  return value;
}
