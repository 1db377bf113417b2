import { ArgsType, Field, GraphQLISODateTime, InputType, Int } from '@nestjs/graphql';
import { Environment, SessionOrder } from '../graphql/enums';
import { SESSION_SCAN_COST, type FieldPolicy } from '../graphql/field-policy';

@InputType({ description: 'Restricts a session listing; all given conditions must hold.' })
export class SessionFilter {
  @Field(() => [Environment], { nullable: true, description: 'Any of these environments.' })
  environment?: Environment[] | null;

  @Field(() => [String], { nullable: true, description: 'Any of these root flavors.' })
  flavor?: string[] | null;

  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'createdAt at or after (inclusive).',
  })
  createdAfter?: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'createdAt before (exclusive).' })
  createdBefore?: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of userRequest.',
  })
  query?: string | null;
}

@ArgsType()
export class SessionsArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: 'Page size, 1 to 100.' })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Cursor after which the page starts.' })
  after?: string | null;

  @Field(() => SessionFilter, { nullable: true, description: 'Which sessions to list.' })
  filter?: SessionFilter | null;

  @Field(() => SessionOrder, {
    nullable: true,
    defaultValue: SessionOrder.NEWEST_FIRST,
    description: 'Sort order.',
  })
  order?: SessionOrder | null;
}

/**
 * A listing with `filter.query` reads the summary of every session the caller can see before
 * paging, whatever `first` is: it costs a point per such session.
 */
export const TEXT_FILTER_SCAN: FieldPolicy = {
  readsHome: (args) => typeof (args.filter as SessionFilter | null | undefined)?.query === 'string',
  cost: (args, home) =>
    TEXT_FILTER_SCAN.readsHome?.(args) ? SESSION_SCAN_COST * home.visibleSessions : 0,
};
