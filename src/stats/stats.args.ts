import { ArgsType, Field } from '@nestjs/graphql';
import type { Args, FieldPolicy, HomeSize } from '../graphql/field-policy';
import { indexScanCost } from '../search/search.args';
import { SessionFilter, summaryScanCost } from '../sessions/sessions.args';
import { TimeBucket } from './stats.model';

@ArgsType()
export class StatsArgs {
  @Field(() => SessionFilter, { nullable: true, description: 'Which sessions, as in sessions.' })
  filter?: SessionFilter | null;
}

@ArgsType()
export class TimelineArgs {
  @Field(() => TimeBucket, { nullable: true, defaultValue: TimeBucket.DAY })
  bucket?: TimeBucket | null;
}

/** stats adds up every visible session's aggregates (after their summaries, for `filter`). */
export const STATS_SCAN: FieldPolicy = {
  readsHome: () => true,
  cost: (args: Args, home: HomeSize) => indexScanCost(home) + summaryScanCost(args.filter, home),
};
