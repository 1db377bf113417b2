import { Args, Context, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Policy } from '../graphql/field-policy';
import type { GqlContext } from '../graphql/loaders';
import { STATS_SCAN, StatsArgs, TimelineArgs } from './stats.args';
import { Stats, TimeBucket, TimeBucketStats } from './stats.model';
import { StatsService, type StatsParent } from './stats.service';
import { timeline } from './timeline';

@Resolver(() => Stats)
export class StatsResolver {
  constructor(private readonly service: StatsService) {}

  @Query(() => Stats, {
    description:
      'Numbers over the visible sessions that match the filter: totals, breakdowns and a timeline, from the home index.',
  })
  @Policy(STATS_SCAN)
  stats(@Args() args: StatsArgs, @Context() ctx: GqlContext): Promise<StatsParent> {
    return this.service.stats(args.filter, ctx.loaders, ctx.principal);
  }

  @ResolveField(() => [TimeBucketStats], {
    description:
      'Non-empty UTC buckets, ascending: sessions by createdAt; steps, tool calls and errors by the step createdAt (steps without one are left out).',
  })
  timeline(@Parent() stats: StatsParent, @Args() args: TimelineArgs): TimeBucketStats[] {
    return timeline(stats.sources, args.bucket ?? TimeBucket.DAY);
  }
}
