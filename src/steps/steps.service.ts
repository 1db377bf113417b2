import { Injectable } from '@nestjs/common';
import type { ListedSession } from '../brain/catalog';
import type { StepOutputInfo } from '../brain/files';
import { decodeUtf8 } from '../brain/files';
import { userRequestOf } from '../brain/session-summary';
import { BrainStore, type FullTier } from '../brain/store';
import { redactFileRange } from '../redaction/range-utf16';
import { Redactor } from '../redaction/redactor';
import { maskValues, maskValuesDeep, NO_VALUES } from '../redaction/tier-values';
import { twinValues } from './twin-values';
import { isElided } from '../brain/transcript/record-size';
import { RecordTooLargeError } from '../brain/transcript/scanner';
import type { StepRecord, ToolCall, TruncatedField } from '../brain/types';
import { apiError, badInput, ErrorCode } from '../graphql/errors';
import type { GqlContext, Loaders } from '../graphql/loaders';
import type { LimitedContext } from '../graphql/limits/request-limits';
import { offloadOf } from '../offload/redact-pool';
import { checkFirst, paginate, type Connection } from '../graphql/pagination/connection';
import { decodeCursor, encodeCursor } from '../graphql/pagination/cursor';
import { MAX_STEPS_PAGE, type StepFilter, type StepsArgs } from './steps.args';

/** What a Step field resolver receives: the record and the session it belongs to. */
export interface StepParent {
  session: ListedSession;
  record: StepRecord;
}

export interface OutputParent {
  step: StepParent;
  info: StepOutputInfo;
}

export const MAX_OUTPUT_LENGTH = 16 * 1024 * 1024;

/**
 * A full twin longer than the store's per-line cap is never read: the field fails with
 * QUERY_TOO_COMPLEX (the shape of the query-limit errors: kind, limit, measured); the rest of
 * the response is unaffected.
 */
function tooLarge(err: RecordTooLargeError) {
  return apiError(
    ErrorCode.QUERY_TOO_COMPLEX,
    `The full value is on a transcript line of ${err.bytes} bytes; the limit is ${err.limit} bytes. ` +
      'Ask for the compact value (full: false).',
    { kind: 'recordBytes', limit: err.limit, measured: err.bytes },
  );
}

/** Loads a full value; a twin too long to read becomes a clean field error. */
async function loadFull<T>(load: Promise<unknown>): Promise<T> {
  try {
    return (await load) as T;
  } catch (err) {
    throw err instanceof RecordTooLargeError ? tooLarge(err) : err;
  }
}

function matches(record: StepRecord, filter: StepFilter): boolean {
  if (filter.types?.length && !filter.types.includes(record.type)) return false;
  if (filter.sources?.length && !filter.sources.includes(record.source as never)) return false;
  if (filter.statuses?.length && !filter.statuses.includes(record.status as never)) return false;
  // Case-insensitive: `--tool Run_Command` and `run_command` name the same tool.
  const tool = filter.toolName?.toLowerCase();
  if (tool && !record.toolCalls.some((c) => c.name.toLowerCase() === tool)) return false;
  return true;
}

@Injectable()
export class StepsService {
  constructor(
    private readonly store: BrainStore,
    private readonly redactor: Redactor,
  ) {}

  async list(
    session: ListedSession,
    args: StepsArgs,
    loaders: Loaders,
  ): Promise<Connection<StepParent>> {
    const first = args.first ?? 50;
    checkFirst(first, MAX_STEPS_PAGE);
    let records = await loaders.records.load(session.entry);
    if (args.filter) {
      const filter = args.filter;
      records = records.filter((r) => matches(r, filter));
    }
    let isAfter: ((r: StepRecord) => boolean) | null = null;
    const from = args.fromPosition;
    if (from !== null && from !== undefined) {
      if (args.after) throw badInput('"fromPosition" and "after" each start a page: give one');
      if (from < 0) throw badInput(`"fromPosition" must be 0 or more; got ${from}`);
      isAfter = (r) => r.position >= from;
    } else if (args.after) {
      const [position] = decodeCursor('p', args.after);
      if (typeof position !== 'number') throw badInput('"after" is not a valid cursor');
      isAfter = (r) => r.position > position;
    }
    // Positions only grow as a transcript grows, so a position cursor survives appends.
    return paginate(
      records,
      first,
      isAfter,
      (r) => encodeCursor('p', [r.position]),
      (record) => ({ session, record }),
    );
  }

  async byIndex(
    session: ListedSession,
    index: number,
    loaders: Loaders,
  ): Promise<StepParent | null> {
    const records = await loaders.records.load(session.entry);
    const record = records.find((r) => r.index === index);
    return record ? { session, record } : null;
  }

  async text(
    step: StepParent,
    field: 'content' | 'thinking',
    full: boolean | null,
    ctx: GqlContext,
  ): Promise<string | null> {
    if (!this.mustRead(step.record, field, full)) {
      const value = step.record[field];
      if (value === null) return value;
      return maskValues(this.redactor, value, await this.twinValues(step, ctx));
    }
    return loadFull<string | null>(ctx.loaders.full.load(this.key(step, field)));
  }

  async toolCalls(step: StepParent, full: boolean | null, ctx: GqlContext): Promise<ToolCall[]> {
    if (!this.mustRead(step.record, 'tool_calls', full)) {
      const calls = step.record.toolCalls;
      if (calls.length === 0) return calls;
      const values = await this.twinValues(step, ctx);
      return values.size === 0 ? calls : maskValuesDeep(this.redactor, calls, values);
    }
    return loadFull<ToolCall[]>(ctx.loaders.full.load(this.key(step, 'tool_calls')));
  }

  /**
   * What a compact value of a cut record masks besides its own secrets: the values of the
   * secrets in its full twin (./twin-values), read through the request's loader.
   */
  private twinValues(step: StepParent, ctx: GqlContext): Promise<ReadonlyMap<string, string>> {
    const { session, record } = step;
    if (!this.redactor.enabled || record.truncatedFields.length === 0)
      return Promise.resolve(NO_VALUES);
    // The session's full tier, looked up once per request (not once per step of a page).
    const tiers = ctx.loaders.own(this, () => new Map<string, Promise<FullTier | null>>());
    let tier = tiers.get(session.entry.realDir);
    if (!tier) tiers.set(session.entry.realDir, (tier = this.store.fullTier(session.entry)));
    return tier.then((t) =>
      twinValues(this.redactor, t, record, (field) => ctx.loaders.full.load(this.key(step, field))),
    );
  }

  /** Derived fields read the full content when they can, else the compact one (no error). */
  private async contentForDerived(step: StepParent, ctx: GqlContext): Promise<string | null> {
    if (!this.mustRead(step.record, 'content', true)) return step.record.content;
    try {
      return (await ctx.loaders.full.load(this.key(step, 'content'))) as string | null;
    } catch (err) {
      if (err instanceof RecordTooLargeError) return step.record.content;
      throw err;
    }
  }

  async userRequest(step: StepParent, ctx: GqlContext): Promise<string | null> {
    if (step.record.type !== 'USER_INPUT') return null;
    return userRequestOf(await this.maskedContentForDerived(step, ctx));
  }

  /**
   * The content a field cut from it is cut from (Step.userRequest, Command.output): with
   * REDACT=on masked whole first (review 18: a value found by its key in one part of the
   * content, `-pGk3j…` on the `Ran:` line, is masked where another part repeats it without a
   * key, "connected as root with Gk3j…"; the part masked alone showed it clear while the
   * content beside it was masked). So the part shows exactly what the masked content shows;
   * the field middleware masking it again changes nothing. A large content is masked in a
   * worker, as the middleware masks a large field.
   */
  async maskedContentForDerived(step: StepParent, ctx: GqlContext): Promise<string | null> {
    const content = await this.contentForDerived(step, ctx);
    if (content === null || !this.redactor.enabled) return content;
    const limits = (ctx as Partial<LimitedContext>).limits;
    const pool = offloadOf(this.redactor);
    if (pool?.takes(content.length, limits)) return pool.redactText(content);
    return this.redactor.redactText(content);
  }

  async output(step: StepParent, ctx: GqlContext): Promise<OutputParent | null> {
    const info = await ctx.loaders.output.load({
      entry: step.session.entry,
      index: step.record.index,
    });
    return info ? { step, info } : null;
  }

  async outputText(
    parent: OutputParent,
    offset: number,
    length: number,
    ctx?: GqlContext,
  ): Promise<string> {
    if (!Number.isInteger(offset) || offset < 0) {
      throw badInput('"offset" must be an integer >= 0', { argument: 'offset' });
    }
    if (!Number.isInteger(length) || length < 0 || length > MAX_OUTPUT_LENGTH) {
      throw badInput(`"length" must be an integer from 0 to ${MAX_OUTPUT_LENGTH}`, {
        argument: 'length',
      });
    }
    // Offsets stay raw file bytes; a secret cut by the range is still masked, UTF-16 too.
    const { entry } = parent.step.session;
    await ctx?.loaders.admit(Math.min(length, Math.max(0, parent.info.size - offset)));
    const read = (start: number, end: number) =>
      this.store.readRange(entry, parent.info.relPath, start, end - start);
    const key = `${entry.realDir}\0${parent.info.relPath}\0${parent.info.size}`;
    return redactFileRange(this.redactor, read, parent.info.size, offset, length, key);
  }

  /** Reads the whole output only when it could fit inside the content at all. */
  async duplicatesContent(parent: OutputParent, ctx: GqlContext): Promise<boolean> {
    const content = await this.contentForDerived(parent.step, ctx);
    if (content === null || parent.info.size > Buffer.byteLength(content) + 1024) return false;
    await ctx.loaders.admit(parent.info.size);
    const output = decodeUtf8(
      await this.store.readRange(
        parent.step.session.entry,
        parent.info.relPath,
        0,
        parent.info.size,
      ),
    ).trim();
    return content.trim().includes(output);
  }

  /**
   * Whether the value must be read from a transcript line: the full value of a truncated
   * field, or any value the store kept on disk (records of a view with no compact tier).
   */
  private mustRead(record: StepRecord, field: TruncatedField, full: boolean | null): boolean {
    return isElided(record, field) || (!!full && record.truncatedFields.includes(field));
  }

  private key(step: StepParent, field: TruncatedField) {
    return { entry: step.session.entry, record: step.record, field };
  }
}
