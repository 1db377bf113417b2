import { Args, Context, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Policy } from '../graphql/field-policy';
import type { GqlContext } from '../graphql/loaders';
import { STATS_SCAN, StatsArgs, TimelineArgs } from './stats.args';
import { Stats, TimeBucket, TimeBucketStats } from './stats.model';
import { StatsService, type StatsParent } from './stats.service';
import { MAX_TIMELINE_BUCKETS, timeline, TIMELINE_LIST_SIZE } from './timeline';
import { badInput } from '../graphql/errors';

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
    description: `Non-empty UTC buckets, ascending: sessions by createdAt; steps, tool calls and errors by Step.createdAt. At most ${MAX_TIMELINE_BUCKETS} buckets (more is BAD_USER_INPUT: use a larger bucket or a narrower filter).`,
  })
  @Policy({ listSize: TIMELINE_LIST_SIZE })
  timeline(@Parent() stats: StatsParent, @Args() args: TimelineArgs): TimeBucketStats[] {
    const bucket = args.bucket ?? TimeBucket.DAY;
    const buckets = timeline(stats.sources, bucket);
    if (buckets.length > MAX_TIMELINE_BUCKETS) {
      throw badInput(
        `timeline(bucket: ${bucket}) has ${buckets.length} buckets here; at most ${MAX_TIMELINE_BUCKETS} are sent: use a larger bucket, or narrow the sessions with filter (createdAfter, createdBefore)`,
        { argument: 'bucket', buckets: buckets.length, limit: MAX_TIMELINE_BUCKETS },
      );
    }
    return buckets;
  }
}
