import { ArgsType, Field, Int } from '@nestjs/graphql';
import type { Args, FieldPolicy, HomeSize } from '../graphql/field-policy';
import { indexScanCost } from '../search/search.args';
import { SessionFilter, summaryScanCost } from '../sessions/sessions.args';

/** The largest `first` of this connection. */
export const MAX_EXPOSURES_PAGE = 100;

@ArgsType()
export class SecretExposuresArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: 'Page size, 1 to 100.' })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts.' })
  after?: string | null;

  @Field(() => SessionFilter, { nullable: true, description: 'Which sessions, as in sessions.' })
  filter?: SessionFilter | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'Only findings of these exact kinds count (and show); absent or empty: every kind.',
  })
  kinds?: string[] | null;
}

/** secretExposures asks the index about every visible session, like search. */
export const EXPOSURES_SCAN: FieldPolicy = {
  readsHome: () => true,
  maxFirst: MAX_EXPOSURES_PAGE,
  cost: (args: Args, home: HomeSize) => indexScanCost(home) + summaryScanCost(args.filter, home),
};
