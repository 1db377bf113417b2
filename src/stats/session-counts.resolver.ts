import { Context, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Inject } from '@nestjs/common';
import DataLoader from 'dataloader';
import type { ListedSession } from '../brain/catalog';
import { INDEX_READ_COST, Policy } from '../graphql/field-policy';
import type { GqlContext, Loaders } from '../graphql/loaders';
import { HOME_INDEX, type HomeIndex, type SessionCountsRow } from '../index/home-index';
import { Session } from '../sessions/session.model';

/**
 * Per-session numbers a sessions table shows beside stepCount and errorCount, answered from
 * the home index's per-session rows (those `stats` and `Session.secrets` read), so a page of
 * 100 sessions reads no transcript and loads no other session's aggregates: one index call.
 */
@Resolver(() => Session)
export class SessionCountsResolver {
  constructor(@Inject(HOME_INDEX) private readonly index: HomeIndex) {}

  @ResolveField(() => Int, {
    nullable: true,
    description:
      'Commands with a non-null exitCode other than 0 (as Stats.failedCommands counts them), from the home index; null until the index has read the session.',
  })
  @Policy({ cost: INDEX_READ_COST })
  async failedCommandCount(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
  ): Promise<number | null> {
    return (await this.counts(ctx.loaders).load(s))?.failedCommands ?? null;
  }

  @ResolveField(() => Int, {
    nullable: true,
    description:
      'Secrets the redactor masks (or, with REDACT=off, would mask) in this session: the sum of Session.secrets counts; null until the index has read the session.',
  })
  @Policy({ cost: INDEX_READ_COST })
  async secretCount(
    @Parent() s: ListedSession,
    @Context() ctx: GqlContext,
  ): Promise<number | null> {
    return (await this.counts(ctx.loaders).load(s))?.secrets ?? null;
  }

  /** The request's loader of the index's per-session counts (Loaders.own). */
  private counts(loaders: Loaders): DataLoader<ListedSession, SessionCountsRow | null> {
    return loaders.own(
      this,
      () =>
        new DataLoader(
          (keys: readonly ListedSession[]) =>
            Promise.resolve(this.index.counts(keys.map((s) => s.entry.realDir))),
          { cacheKeyFn: (s: ListedSession) => s.entry.realDir },
        ),
    );
  }
}
