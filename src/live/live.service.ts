import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ListedSession } from '../brain/catalog';
import { BrainStore } from '../brain/store';
import { StoreSource } from '../config/brain-source';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { apiError, badInput, ErrorCode } from '../graphql/errors';
import { Loaders } from '../graphql/loaders';
import type { SessionFilter } from '../sessions/sessions.args';
import { SessionsService } from '../sessions/sessions.service';
import type { StepParent } from '../steps/steps.service';
import { Channel } from './channel';
import { ChangeFeed } from './change-feed';
import type { LiveContext } from './live-context';
import { fallbackReason, LiveMetrics } from './live.metrics';
import type { SessionEventValue } from './session-event.model';
import { SessionEventsSource } from './session-events';
import { StepStream } from './step-stream';
import { DEFAULT_TUNING, type LiveTuning } from './tuning';

export function slowConsumerReason(cap: number): string {
  return `slow consumer: more than ${cap} events waited to be read`;
}

/** The two subscriptions over the change feed; one implementation for both transports. */
@Injectable()
export class LiveService implements OnModuleDestroy {
  readonly feed: ChangeFeed;
  /** Bounds of delivery; tests lower them. */
  readonly tuning: LiveTuning = { ...DEFAULT_TUNING };
  /** Streams open now, ended at shutdown so their clients are told (and HTTP can close). */
  private readonly open = new Set<{ return(): Promise<unknown> }>();
  private readonly log = new Logger('Live');

  constructor(
    private readonly store: BrainStore,
    @Inject(APP_CONFIG) config: AppConfig,
    source: StoreSource,
    private readonly sessions: SessionsService,
    metrics: LiveMetrics,
  ) {
    this.feed = new ChangeFeed(store, {
      geminiHome: source.geminiHome,
      ingestDir: source.ingestDir,
      watch: config.live.watch,
      pollMs: config.live.pollMs,
      onFallback: (reason) => {
        metrics.fallbacks.inc({ reason: fallbackReason(reason) });
        this.log.warn(`${reason}: polling every ${config.live.pollMs} ms instead`);
      },
    });
    metrics.mode = () => this.feed.mode;
    metrics.watches = () => this.feed.watches;
  }

  async sessionEvents(
    filter: SessionFilter | null | undefined,
    ctx: LiveContext,
  ): Promise<AsyncIterableIterator<SessionEventValue>> {
    // Bad dates and tool names fail now, as in a listing.
    if (filter) await this.sessions.narrow([], filter, ctx.loaders);
    const cheap: SessionFilter | null = filter
      ? {
          environment: filter.environment,
          flavor: filter.flavor,
          source: filter.source,
          createdAfter: filter.createdAfter,
          createdBefore: filter.createdBefore,
        }
      : null;
    const matches = async (s: ListedSession, gone: boolean): Promise<boolean> => {
      const f = gone ? cheap : filter;
      if (!f) return true;
      const loaders = new Loaders(this.store);
      // The listing's own path (tool included: what the index holds of the session so far).
      return (await this.sessions.narrow([s], f, loaders)).length === 1;
    };
    const channel = new Channel<SessionEventValue>(this.tuning.queueCap, (cap) => {
      const reason = slowConsumerReason(cap);
      ctx.onSlowConsumer?.(reason);
      return apiError(ErrorCode.RATE_LIMITED, `${reason}; the subscription is closed`, {
        limit: cap,
      });
    });
    const source = new SessionEventsSource(ctx.principal, matches, channel);
    const leave = this.feed.listen(source);
    this.open.add(channel);
    channel.onEnd(() => {
      this.open.delete(channel);
      leave();
      ctx.close();
    });
    ctx.whenClosed(() => void channel.return());
    await this.feed.ready();
    // WATCH=off: no event would ever come; the subscription completes at once.
    if (this.feed.mode === 'off') await channel.return();
    return channel;
  }

  async steps(
    sessionId: string,
    fromPosition: number,
    ctx: LiveContext,
  ): Promise<AsyncIterableIterator<StepParent>> {
    if (!Number.isInteger(fromPosition) || fromPosition < 0) {
      throw badInput('"fromPosition" must be 0 or more', { argument: 'fromPosition' });
    }
    const session = await this.sessions.find(sessionId, ctx.principal, 'sessionId');
    if (!session) {
      throw badInput(`no session "${sessionId}"`, { argument: 'sessionId' });
    }
    const dir = session.entry.realDir;
    const stream = new StepStream(
      {
        read: () => this.store.transcripts.compact(dir),
        listed: () => this.feed.isListed(dir),
      },
      fromPosition,
      this.feed.mode !== 'off',
    );
    // Follow before the first read: a line completed in between wakes the stream.
    const leave = this.feed.follow(dir, () => stream.wake());
    this.open.add(stream);
    stream.onEnd(() => {
      this.open.delete(stream);
      leave();
      ctx.close();
    });
    ctx.whenClosed(() => void stream.return());
    await this.feed.ready();
    return mapIterator(stream, (record) => ({ session, record }));
  }

  /** Completes every open subscription: SSE responses end, so the server can close. */
  async completeAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.return()));
  }

  async onModuleDestroy(): Promise<void> {
    await this.completeAll();
    this.feed.stop();
  }
}

/** `source` with each value mapped; returning or throwing reaches `source` at once. */
function mapIterator<T, U>(
  source: AsyncIterableIterator<T>,
  map: (value: T) => U,
): AsyncIterableIterator<U> {
  return {
    async next() {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: map(r.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    throw: async (err: unknown) => {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
