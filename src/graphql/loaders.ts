import type { GraphQLError } from 'graphql';
import DataLoader from 'dataloader';
import type { CommandInfo, FileChangeInfo } from '../brain/activity/types';
import type { ArtifactInfo } from '../brain/artifacts';
import type { ListedSession } from '../brain/catalog';
import type { SessionFileInfo, StepOutputInfo } from '../brain/files';
import type { SessionSummary } from '../brain/session-summary';
import type { BrainStore } from '../brain/store';
import type { Principal } from '../auth/principal';
import type { Redactor } from '../redaction/redactor';
import type { Problem, SessionEntry, StepRecord, TruncatedField, ToolCall } from '../brain/types';
import { LEARN_WAIT_MS, sessionValues, StillLearning } from '../steps/session-values';
import { stillLearning } from './limits/limit-error';

type FullKey = { entry: SessionEntry; record: StepRecord; field: TruncatedField };
type OutputKey = { entry: SessionEntry; index: number };
type Values = ReadonlyMap<string, string>;

/** What stops a request's store work: its limits (the deadline), read when work starts. */
export interface Stoppable {
  readonly signal: AbortSignal;
  /** Waits for room among the large values in flight before one of `bytes` is read whole. */
  admit?(bytes: number): Promise<void>;
  /** Called once a value admitted with `bytes` was read and parsed. */
  settle?(bytes: number): void;
  /** How long a session's secret values may be waited for (else LEARN_WAIT_MS). */
  learnWait?(): number;
  /** Ends the request with `error` (thrown). */
  stop?(error: GraphQLError): never;
}

/**
 * Per-request DataLoaders over the store: created in the GraphQL context for each request
 * (never request-scoped providers), so every field of a page shares one batched store call
 * per kind of data and nothing is cached across requests by the loaders themselves. Long
 * store work (parsing, problem checks) stops when the request does.
 */
export class Loaders {
  readonly summary: DataLoader<ListedSession, SessionSummary, string>;
  readonly records: DataLoader<SessionEntry, StepRecord[], string>;
  readonly artifacts: DataLoader<SessionEntry, ArtifactInfo[], string>;
  readonly files: DataLoader<SessionEntry, SessionFileInfo[], string>;
  readonly problems: DataLoader<SessionEntry, Problem[], string>;
  readonly output: DataLoader<OutputKey, StepOutputInfo | null, string>;
  readonly full: DataLoader<FullKey, string | null | ToolCall[], string>;
  readonly commands: DataLoader<SessionEntry, CommandInfo[], string>;
  readonly fileChanges: DataLoader<SessionEntry, FileChangeInfo[], string>;
  /** Loaders of services over other sources than the store (the home index): see `own`. */
  private readonly owned = new Map<object, unknown>();
  /** Sessions' secret values asked in this request: pending, then the values themselves. */
  private readonly learned = new Map<string, Promise<Values> | Values>();

  constructor(
    private readonly store: BrainStore,
    private readonly request?: Stoppable,
  ) {
    const dir = (e: SessionEntry) => e.realDir;
    const signal = () => request?.signal;
    this.summary = new DataLoader((keys) => store.summaries(keys, signal()), {
      cacheKeyFn: (l) => l.entry.realDir,
    });
    this.records = new DataLoader((keys) => store.recordsOf(keys, signal()), { cacheKeyFn: dir });
    this.artifacts = new DataLoader((keys) => store.artifactsOf(keys), { cacheKeyFn: dir });
    this.files = new DataLoader((keys) => store.filesOf(keys), { cacheKeyFn: dir });
    this.problems = new DataLoader((keys) => store.problemsOf(keys, signal()), {
      cacheKeyFn: dir,
    });
    this.commands = new DataLoader((keys) => store.commandsOf(keys), { cacheKeyFn: dir });
    this.fileChanges = new DataLoader((keys) => store.fileChangesOf(keys), { cacheKeyFn: dir });
    this.output = new DataLoader((keys) => store.stepOutputs(keys), {
      cacheKeyFn: (k) => `${k.entry.realDir}\0${k.index}`,
    });
    let admitted = 0;
    const admit = request?.admit
      ? (bytes: number) => {
          admitted = Math.max(admitted, bytes);
          return request.admit!(bytes);
        }
      : undefined;
    const full = async (keys: readonly FullKey[]) => {
      const values = await store.fullFields(keys, admit);
      if (admitted > 0) request?.settle?.(admitted);
      admitted = 0;
      return values;
    };
    this.full = new DataLoader(full, {
      cacheKeyFn: (k) => `${k.entry.realDir}\0${k.record.position}\0${k.field}`,
    });
  }

  /**
   * Waits for room among the large values in flight (LARGE_VALUES_MB) before a value of `bytes`
   * is read whole (step outputs, artifacts); RATE_LIMITED when none comes in time.
   */
  async admit(bytes: number): Promise<void> {
    await this.request?.admit?.(bytes);
  }

  /**
   * The secret values of the session of `entry` that every text of it masks
   * (../steps/session-values), asked once per request: the values themselves once known, so the
   * fields of a page after the first are masked without a promise each. Not learned within the
   * request's wait: RATE_LIMITED with the retry time (the request stops; the learning goes on).
   */
  sessionValues(entry: SessionEntry, redactor: Redactor): Promise<Values> | Values {
    const known = this.learned.get(entry.realDir);
    if (known) return known;
    const wait = this.request?.learnWait?.() ?? LEARN_WAIT_MS;
    const pending = sessionValues(this.store, redactor, entry, wait).then(
      (values) => {
        this.learned.set(entry.realDir, values);
        return values;
      },
      (err: unknown) => {
        if (!(err instanceof StillLearning)) throw err;
        const refused = stillLearning(err.message, err.retryAfterSeconds);
        throw this.request?.stop ? this.request.stop(refused) : refused;
      },
    );
    this.learned.set(entry.realDir, pending);
    return pending;
  }

  /**
   * This request's value of `owner` (a service's DataLoader over the home index, a per-session
   * memo), made by `make` on first use and dropped with the request like the loaders above.
   */
  own<T>(owner: object, make: () => T): T {
    if (!this.owned.has(owner)) this.owned.set(owner, make());
    return this.owned.get(owner) as T;
  }
}

export interface GqlContext {
  /** The HTTP request (metrics mark a response that carried errors on it). */
  req: object;
  loaders: Loaders;
  /** Who asks; every listing and lookup is limited to the roots they may read. */
  principal: Principal;
  /** Masks secrets in what the request returns (see redaction-field.ts). */
  redactor: Redactor;
}
